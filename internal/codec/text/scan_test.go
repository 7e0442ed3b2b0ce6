package text

import (
	"strings"
	"testing"
)

// decTokens scans src and returns "kind:text" for each token.
func decTokens(src string) []string {
	sc := scanner{src: []byte(src), maxDepth: 64}
	var out []string
	for {
		k, s := sc.next()
		if k == 0 {
			return out
		}
		name := lexLongNames[k]
		switch {
		case k == safeChars:
			name = "W"
		case k == quotedString:
			name = "Q"
		case k == octetString:
			name = "SDP"
		case k == digitMapTimer:
			name = "Timer"
		case k == digitMapBody:
			name = "DM"
		case k == versionHeader:
			name = "Header"
		case k == ipv4Token:
			name = "IPv4"
		case k == ipv6Token:
			name = "IPv6"
		case k == domainToken:
			name = "Domain"
		case k == mtpToken:
			name = "MTP"
		case k == optionalPrefix:
			name = "O"
		case k == wildcardPrefix:
			name = "W-"
		case k == lexError:
			return append(out, "error:"+sc.errMsg)
		case k < 128:
			name = string(rune(k))
		}
		out = append(out, name+":"+src[s.pos:s.end])
	}
}

func TestScanTokens(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// Keywords in any case, long or short; punctuation; words.
		{"Transaction = 10003 {", "Transaction:Transaction =:= W:10003 {:{"},
		{"t=1{c=-{mf=x{}", "Transaction:t =:= W:1 {:{ Context:c =:= W:- {:{ Modify:mf =:= W:x {:{ }:}"},
		{"a b c e", "Add:a Both:b Context:c Events:e"},
		{"LOCALCONTROL localcontrol O", "LocalControl:LOCALCONTROL LocalControl:localcontrol LocalControl:O"},
		{"ANDLgc ANSLgc ORLgc EmergencyOffToken", "ANDLgc:ANDLgc ANDLgc:ANSLgc ORLgc:ORLgc EmergencyOff:EmergencyOffToken"},
		// Numbers, IDs, names and timestamps are words; keywords are
		// whole words only.
		{"11111111/00000000/00000000 al/of nt-1 9-13 8989/1/END Adds A4444 $ * -",
			"W:11111111/00000000/00000000 W:al/of W:nt-1 W:9-13 W:8989/1/END W:Adds W:A4444 W:$ W:* W:-"},
		{"19990729T22000000:al/of", "W:19990729T22000000 ::: W:al/of"},
		{"x>1,y<2,z#3,d=[1:2]", "W:x >:> W:1 ,:, W:y <:< W:2 ,:, W:z #:# W:3 ,:, W:d =:= [:[ W:1 ::: W:2 ]:]"},
		// White space and comments go; quoted strings keep everything.
		{"  Add ; a comment { } \"\r\n\t= \"x ; y\" ;\n", "Add:Add =:= Q:x ; y"},
		// The header and the mId forms.
		{"MEGACO/1 [124.124.124.222]:55555 T", "Header:MEGACO/1 IPv4:[124.124.124.222]:55555 Transaction:T"},
		{"!/3 [2001:db8::1] P", "Header:!/3 IPv6:[2001:db8::1] Reply:P"},
		{"!/2 <mg.example.net>:2944\nT", "Header:!/2 Domain:<mg.example.net>:2944 Transaction:T"},
		{"!/2 mtp{0a1b} T", "Header:!/2 MTP:mtp {:{ W:0a1b }:} Transaction:T"},
		{"!/2 mg1/line1@example.net T", "Header:!/2 W:mg1/line1@example.net Transaction:T"},
		{"MgcIdToTry = [1.2.3.4]:99, AD=<a.b>, Profile = ResGW/1",
			"MgcIdToTry:MgcIdToTry =:= IPv4:[1.2.3.4]:99 ,:, ServiceChangeAddress:AD =:= Domain:<a.b> ,:, Profile:Profile =:= W:ResGW/1"},
		// Command prefixes, where a command may stand.
		{"{O-Add=x,W-S=y,O-W-MF=z,o-x", "{:{ O:O- Add:Add =:= W:x ,:, W-:W- Subtract:S =:= W:y ,:, O:O- W-:W- Modify:MF =:= W:z ,:, W:o-x"},
		{"=O-Add", "=:= W:O-Add"},
		// SDP: everything up to an unescaped brace.
		{"{L{\r\nv=0\r\na=x\\}y\r\n}}", "{:{ Local:L {:{ SDP:\r\nv=0\r\na=x\\}y\r\n }:} }:}"},
		{",Remote { }", ",:, Remote:Remote {:{ SDP:  }:}"},
		{"=L{", "=:= Local:L {:{"},
		// Digit maps: the timers one by one, then the map.
		{"DM=dialplan00{T:1,S : 23 , L:99,(0s| 00s|[1-7]xlxx)}",
			"DigitMap:DM =:= W:dialplan00 {:{ Timer:T:1 ,:, Timer:S : 23 ,:, Timer:L:99 ,:, DM:(0s| 00s|[1-7]xlxx) }:}"},
		{"DigitMap = { 12x.S }", "DigitMap:DigitMap =:= {:{ DM:12x.S }:}"},
		{"DM=x,DM", "DigitMap:DM =:= W:x ,:, DigitMap:DM"},
		// RFC 3525's parentheses around event parameters.
		{"{al/of(strict=state),al/on (init=false)}",
			"{:{ W:al/of {:( W:strict =:= W:state }:) ,:, W:al/on {:( W:init =:= W:false }:) }:}"},
		{"=a(b)", "=:= W:a(b)"},
		// Errors.
		{`"abc`, `error:quoted string not closed`},
		{",L{ v=0", ",:, Local:L {:{ error:Local or Remote descriptor not closed by '}'"},
		{"DM={T:1,(12", "DigitMap:DM =:= {:{ Timer:T:1 ,:, error:digit map not closed by '}'"},
		{"!/1 [1.2.3.4 T", "Header:!/1 error:address not closed by ']'"},
		{"x\x00", "W:x error:unexpected character 0x00"},
	} {
		got := strings.Join(decTokens(c.in), " ")
		if got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// TestScanKeywords: every spelling of every keyword scans as its token,
// in upper and lower case.
func TestScanKeywords(t *testing.T) {
	n := 0
	for _, k := range lexKeywordSpellings {
		for _, w := range []string{k.long, k.short} {
			if w == "" {
				continue
			}
			for _, v := range []string{w, strings.ToUpper(w), strings.ToLower(w)} {
				if got := lexLookup([]byte(v)); got != k.tok {
					t.Errorf("%q: token %d, want %d", v, got, k.tok)
				}
			}
			n++
		}
	}
	for _, w := range []string{"", "Adds", "Ax", "TransactionResponseAcks", "x", "MEGACO", "END", "MTP"} {
		if got := lexLookup([]byte(w)); got != 0 {
			t.Errorf("%q is token %d, want none", w, got)
		}
	}
	if n < 200 {
		t.Errorf("only %d spellings", n)
	}
	// The first eight bytes of a longer keyword have its key, but are
	// not that keyword (unless they spell it too).
	spelled := map[string]bool{}
	for _, k := range lexKeywordSpellings {
		spelled[strings.ToLower(k.long)], spelled[strings.ToLower(k.short)] = true, true
	}
	for _, e := range lexKeywords {
		if w := e.word[:min(8, len(e.word))]; len(e.word) > 8 && !spelled[w] {
			if got := lexLookup([]byte(w)); got != 0 {
				t.Errorf("%q reads as token %d (%q's)", w, got, e.word)
			}
		}
	}
}

// TestScanDepth: braces and brackets nest up to the limit.
func TestScanDepth(t *testing.T) {
	sc := scanner{src: []byte(strings.Repeat("{[", 3)), maxDepth: 5}
	var last int
	for i := 0; i < 6; i++ {
		last, _ = sc.next()
	}
	if last != lexError || sc.errMsg != "nesting deeper than the limit of 5" {
		t.Errorf("got %d %q", last, sc.errMsg)
	}
}

// TestScanNoAlloc: scanning allocates nothing.
func TestScanNoAlloc(t *testing.T) {
	corpus := loadCorpus(t)
	allocs := testing.AllocsPerRun(10, func() {
		for _, c := range corpus {
			for _, src := range [][]byte{c.pretty, c.compact} {
				sc := scanner{src: src, maxDepth: 64}
				for {
					if k, _ := sc.next(); k == 0 || k == lexError {
						break
					}
				}
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per corpus scan", allocs)
	}
}

// The scanner keeps the kinds of its last tokens in 16 bits each.
func TestTokenKindsFit16Bits(t *testing.T) {
	if max := yyPrivate + len(yyToknames); max >= 1<<16 {
		t.Errorf("token kinds go up to %d, more than 16 bits", max)
	}
}

// TestLookupInMessage: a keyword is found inside a message, where
// lexLookup reads past the word, as well as alone; a longer word or a
// neighbour's bytes do not make it one.
func TestLookupInMessage(t *testing.T) {
	for _, k := range lexKeywordSpellings {
		for _, w := range []string{k.long, k.short} {
			if w == "" {
				continue
			}
			msg := []byte("=" + strings.ToUpper(w) + "{Z9Q8,XYZW}")
			if got := lexLookup(msg[1 : 1+len(w)]); got != k.tok {
				t.Errorf("%q in a message: token %d, want %d", w, got, k.tok)
			}
			if got := lexLookup(msg[1 : 2+len(w)]); got != 0 {
				t.Errorf("%q in a message: token %d, want none", msg[1:2+len(w)], got)
			}
			alone := []byte(w)
			if got := lexLookup(alone[:len(w):len(w)]); got != k.tok {
				t.Errorf("%q alone: token %d, want %d", w, got, k.tok)
			}
		}
	}
}

// TestAllDigits: lexAllDigits agrees with the character classes, for
// every byte at every place of words up to 17 bytes long.
func TestAllDigits(t *testing.T) {
	for n := 0; n <= 17; n++ {
		for at := 0; at < max(n, 1); at++ {
			for c := 0; c < 256; c++ {
				w := []byte(strings.Repeat("7", n))
				if n > 0 {
					w[at] = byte(c)
				}
				want := n == 0 || charClass[c]&chDigit != 0
				if got := lexAllDigits(w); got != want {
					t.Fatalf("%q: %v, want %v", w, got, want)
				}
			}
		}
	}
}

// The scanner reads an mId's IPv4 address (readIP4) for the builder, which
// otherwise reads it with ip4Parts: the two must agree on what is an IPv4
// address and on its bytes, and the address token must end where it did.
func TestReadIP4AgreesWithIP4Parts(t *testing.T) {
	for _, a := range []string{
		"1.2.3.4", "123.123.123.4", "0.0.0.0", "255.255.255.255", "256.1.1.1", "1.2.3.256",
		"1.2.3", "1.2.3.4.5", "1..2.3", "01.002.3.4", "1234.1.1.1", "1.2.3.4a", "", ".1.2.3",
		"::1", "1.2.3.4 ", "9.9.9.99",
	} {
		for _, tail := range []string{"]", "]:2944", "", " ]"} {
			src := "[" + a + tail
			sc := scanner{src: []byte(src), maxDepth: 64}
			end, ok := sc.readIP4(1)
			var want [4]byte
			wantOK := strings.HasPrefix(tail, "]") && ip4Parts([]byte(a), want[:])
			if ok != wantOK || ok && (sc.ip4 != want || end != 1+len(a) || sc.ip4At != (span{1, int32(1 + len(a))})) {
				t.Errorf("readIP4(%q) = %d, %v, %v; ip4Parts: %v, %v", src, end, ok, sc.ip4, wantOK, want)
			}
			// the token is what the general way makes of it
			k, s := sc.address(0, ']', ipv4Token)
			g := scanner{src: []byte(src), maxDepth: 64}
			gk, gs := g.addressGeneral(0, ']', ipv4Token)
			if k != gk || s != gs || sc.pos != g.pos {
				t.Errorf("address(%q) = %d %v at %d, the general way %d %v at %d", src, k, s, sc.pos, gk, gs, g.pos)
			}
		}
	}
}

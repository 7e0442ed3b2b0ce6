package text

// The character classes of the ABNF, in one table for the scanner and the
// encoder: the bits of charClass.
const (
	chSafe  uint16 = 1 << iota // SafeChar: DIGIT / ALPHA / "+-&!_/'?@^`~*$\()%|."
	chHigh                     // %x80-FF (a v3 VALUE or quoted string may hold them)
	chAlnum                    // ALPHA / DIGIT
	chDigit                    // DIGIT
	chHex                      // HEXDIG, either case
	chName                     // NAME characters: ALPHA / DIGIT / "_"
	chPath                     // pathNAME characters besides NAME ones: "/*$@-."
	chRest                     // RestChar: ";[]{}:,#<>="
	chWSP                      // SP / HTAB
	chEOL                      // CR / LF
	chParen                    // "(" / ")"
	chWord                     // in a word the scanner reads: chToken, but not a parenthesis
	chSkip                     // where the scanner skips: chBlank, or the ";" of a comment

	// chToken is what the scanner reads as a SafeChars token: SafeChar
	// and, leniently, the octets a v3 VALUE allows.
	chToken = chSafe | chHigh
	chBlank = chWSP | chEOL
)

// charClass gives the classes of every octet.
var charClass = func() (t [256]uint16) {
	for c := '0'; c <= '9'; c++ {
		t[c] |= chSafe | chAlnum | chDigit | chHex | chName
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= chSafe | chAlnum | chName
		t[c-'a'+'A'] |= chSafe | chAlnum | chName
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] |= chHex
		t[c-'a'+'A'] |= chHex
	}
	for _, c := range "+-&!_/'?@^`~*$\\()%|." {
		t[c] |= chSafe
	}
	t['_'] |= chName
	for _, c := range "/*$@-." {
		t[c] |= chPath
	}
	for _, c := range ";[]{}:,#<>=" {
		t[c] |= chRest
	}
	t[' '] |= chWSP
	t['\t'] |= chWSP
	t['\r'] |= chEOL
	t['\n'] |= chEOL
	t['('] |= chParen
	t[')'] |= chParen
	for c := 0x80; c <= 0xff; c++ {
		t[c] |= chHigh
	}
	t[';'] |= chSkip
	for c := range t {
		if t[c]&chBlank != 0 {
			t[c] |= chSkip
		}
		if t[c]&chToken != 0 && t[c]&chParen == 0 {
			t[c] |= chWord
		}
	}
	return t
}()

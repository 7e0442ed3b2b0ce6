package text

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// cfFormMessages are messages written from the grammar for the forms
// real peers send (docs/text-conformance.md, "Forms"), in layout-form
// termination IDs so that OTP can encode them to BER too.
var cfFormMessages = map[string]string{
	"form_empty_statistics":  cfV3 + "T=1{C=1{MF=00000001/00000000/00000001{SA,M{ST=1{O{MO=SR},SA}}}}}",
	"form_packages_it":       cfV1 + "P=1{C=1{AV=00000001/00000000/00000001{PG{it-1,nt-1}}}}",
	"form_audit_packages_it": cfV2 + "T=1{C=1{AV=00000001/00000000/00000001{AT{PG{it-1}}}}}",
	"form_quoted_values":     cfV1 + `T=1{C=1{MF=00000001/00000000/00000001{SG{cg/rt{dtt="CT",x=CX,y="a b"}}}}}`,
	"form_token_case":        "megaco/1 [1.2.3.4]:5\ntransaction=1{CONTEXT=1{modify=00000001/00000000/00000001{MEDIA{localcontrol{MODE=sendreceive}},e=1{AL/ON}}}}",
	"form_private_names":     cfV3 + "T=1{C=1{MF=00000001/00000000/00000001{M{ST=1{O{MO=SO,xpriv/lvl=3}}},E=2{xpriv/ev{xparm=7}}}}}",
}

// TestOTPRoundTrips: every message we have (the corpus in pretty and
// compact, RFC 3525's call flow as corrected, the oracle messages, the
// conformance tests' valid forms and the form messages) is read by our
// decoder; text -> text -> text is stable in both styles; and OTP decodes
// our pretty and compact texts to the same term as the original.
func TestOTPRoundTrips(t *testing.T) {
	etNeedOTP(t)
	msgs := map[string][]byte{}
	for _, c := range loadCorpus(t) {
		msgs["corpus_"+c.name+"_pretty"] = c.pretty
		msgs["corpus_"+c.name+"_compact"] = c.compact
	}
	paths, _ := filepath.Glob(filepath.Join(decAppendixDir, "corrected", "a1-*.txt"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		msgs["rfc_"+strings.TrimSuffix(filepath.Base(p), ".txt")] = data
	}
	for name, text := range oracleMessages {
		msgs["oracle_"+name] = []byte(text)
	}
	for _, c := range cfRules {
		msgs["rule_"+c.id] = []byte(c.ok)
	}
	for name, text := range cfFormMessages {
		msgs[name] = []byte(text)
	}
	ref, ours := t.TempDir(), t.TempDir()
	var names []string
	for name, in := range msgs {
		m, err := Decode(in, Options{})
		if err != nil {
			t.Errorf("%s: our decoder: %v", name, err)
			continue
		}
		for _, style := range []Style{Pretty, Compact} {
			once, err := Append(nil, m, style, Options{})
			if err != nil {
				t.Errorf("%s %s: %v", name, style, err)
				continue
			}
			back, err := Decode(once, Options{})
			if err != nil {
				t.Errorf("%s %s: our text does not read back: %v\n%s", name, style, err, once)
				continue
			}
			twice, err := Append(nil, back, style, Options{})
			if err != nil || !bytes.Equal(once, twice) {
				t.Errorf("%s %s: text -> text -> text not stable (%v):\n%s\n%s", name, style, err, once, twice)
			}
			if err := os.WriteFile(filepath.Join(ours, name+"."+style.String()+".txt"), once, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(ref, name+".pretty.txt"), in, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	same, refErr := 0, 0
	for _, f := range etRunScript(t, append([]string{"compare", ref, ours}, names...)...) {
		switch {
		case len(f) >= 3 && f[2] == "same":
			same++
		case len(f) >= 4 && strings.HasPrefix(f[3], "reference:"):
			refErr++ // OTP cannot read the original: nothing to compare
			t.Logf("%s: OTP cannot read the original (%.120s)", f[0], f[3])
		case len(f) >= 2 && rtOTPDiffers[f[0]] != "":
			t.Logf("%s %s: differs on purpose: %s", f[0], f[1], rtOTPDiffers[f[0]])
		default:
			t.Errorf("OTP decode of our text: %.400s", strings.Join(f, " "))
		}
	}
	t.Logf("text: round trips: %d messages read, text->text->text stable; OTP decodes our text to the term of the original: %d/%d texts (%d originals OTP cannot read)",
		len(names), same, 2*len(names), refErr)
}

// rtOTPDiffers lists the messages whose text OTP decodes to another term
// than the original, and why.
var rtOTPDiffers = map[string]string{}

package asn1gen

import (
	"strings"
	"testing"
)

// Every place the PER scanner reports names a type and a component of
// the schemas: a renamed component would otherwise silently drop a value
// from every scan.
func TestPERScanHooksExist(t *testing.T) {
	f, err := LoadFamily(root)
	if err != nil {
		t.Fatal(err)
	}
	for key := range perScanHooks {
		name, comp, _ := strings.Cut(key, ".")
		gt := f.Type(name)
		if gt == nil {
			t.Errorf("%s: no type %s", key, name)
			continue
		}
		found := comp == ""
		for _, fl := range gt.Fields {
			found = found || fl.Name == comp
		}
		if !found {
			t.Errorf("%s: %s has no component %s", key, name, comp)
		}
	}
}

// fixedBits adds up runs of fixed-size fields: a SEQUENCE of fixed-size
// components is their sum, anything aligned or of variable size is not
// fixed.
func TestPERScanFixedBits(t *testing.T) {
	f, err := LoadFamily(root)
	if err != nil {
		t.Fatal(err)
	}
	g := &perScanGen{perGen: &perGen{berGen: newBerGen(f), charsets: map[string]string{}}, reaches: map[string]bool{}}
	v := f.version(3)
	for _, c := range []struct {
		typ   string
		bits  int
		fixed bool
	}{
		{"StreamID", 16, false},     // INTEGER (0..65535): aligned
		{"Name", 16, true},          // OCTET STRING (SIZE(2))
		{"WildcardField", 8, true},  // OCTET STRING (SIZE(1))
		{"PkgdName", 32, false},     // OCTET STRING (SIZE(4)): aligned
		{"TerminationID", 0, false}, // a list
	} {
		n, ok := g.fixedBits(v, &Type{Kind: KindRef, Ref: c.typ}, 0)
		if ok != c.fixed || (ok && n != c.bits) {
			t.Errorf("%s: fixedBits %d %v, want %d %v", c.typ, n, ok, c.bits, c.fixed)
		}
	}
}

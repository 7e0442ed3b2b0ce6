package pkgs

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

func pn(s string) PkgdName {
	var n PkgdName
	if _, err := fmt.Sscanf(s, "%08X", new(uint32)); err != nil || len(s) != 8 {
		panic("bad PkgdName " + s)
	}
	for i := range 4 {
		fmt.Sscanf(s[2*i:2*i+2], "%02X", &n[i])
	}
	return n
}

func nm(s string) Name {
	var n Name
	fmt.Sscanf(s[0:2], "%02X", &n[0])
	fmt.Sscanf(s[2:4], "%02X", &n[1])
	return n
}

// tsvRow is one data row of packages.tsv, read independently of parseTSV.
type tsvRow struct {
	pkg, kind, item, param, binary, typ string
	versions                            [4]bool
}

func readRows(t *testing.T, path string) []tsvRow {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []tsvRow
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "package\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 15 {
			t.Fatalf("%s line %d: %d columns", path, i+1, len(f))
		}
		r := tsvRow{pkg: f[0], kind: f[2], item: f[3], param: f[5], binary: f[7], typ: f[9]}
		if r.pkg == "(none)" {
			r.pkg = ""
		}
		for v := 1; v <= 3; v++ {
			r.versions[v] = f[10+v] == "yes"
		}
		rows = append(rows, r)
	}
	return rows
}

func kindOf(s string) Kind {
	switch strings.TrimSuffix(s, "_param") {
	case "property":
		return Property
	case "event":
		return Event
	case "signal":
		return Signal
	}
	return Statistic
}

// The embedded copy is the reference file plus one provenance comment line.
func TestEmbeddedCopy(t *testing.T) {
	ref, err := os.ReadFile("../../../../shared/spec/packages.tsv")
	if err != nil {
		t.Skip("reference file not reachable:", err)
	}
	_, rest, ok := strings.Cut(packagesTSV, "\n")
	if !ok || !strings.HasPrefix(packagesTSV, "#") || rest != string(ref) {
		t.Errorf("packages.tsv is not the reference file with one comment line on top")
	}
}

// Every row of packages.tsv encodes and decodes in exactly the versions it
// is marked for, like OTP's resolvers (which is how the table was checked).
func TestEveryRow(t *testing.T) {
	rows := readRows(t, "packages.tsv")
	if len(rows) != 174 {
		t.Fatalf("%d rows, the doc says 174", len(rows))
	}
	r := New()
	for _, row := range rows {
		k := kindOf(row.kind)
		text := row.item
		if row.pkg != "" {
			text = row.pkg + "/" + row.item
		}
		for v := Version(1); v <= 3; v++ {
			if row.param == "" {
				n, err := r.EncodePkgdName(v, k, text)
				if !row.versions[v] {
					if !errors.Is(err, ErrUnknown) {
						t.Errorf("v%d %s %s: encoded to %s, want unknown", v, k, text, n)
					}
					continue
				}
				if err != nil || n.String() != row.binary {
					t.Errorf("v%d %s %s = %s, %v; want %s", v, k, text, n, err, row.binary)
					continue
				}
				back, err := r.DecodePkgdName(v, k, n)
				if err != nil || back != text {
					t.Errorf("v%d decode %s %s = %q, %v; want %q", v, k, n, back, err, text)
				}
				continue
			}
			parent, err := r.EncodePkgdName(v, k, text)
			if err != nil {
				if row.versions[v] {
					t.Errorf("v%d parent %s of %s: %v", v, text, row.param, err)
				}
				continue
			}
			id, err := r.EncodeParam(v, k, parent, row.param)
			if !row.versions[v] {
				if !errors.Is(err, ErrUnknown) {
					t.Errorf("v%d %s parameter %s: encoded to %s, want unknown", v, text, row.param, id)
				}
				continue
			}
			if err != nil || id.String() != row.binary {
				t.Errorf("v%d %s parameter %s = %s, %v; want %s", v, text, row.param, id, err, row.binary)
				continue
			}
			back, err := r.DecodeParam(v, k, parent, id)
			if err != nil || back != row.param {
				t.Errorf("v%d decode %s parameter %s = %q, %v; want %q", v, text, id, back, err, row.param)
			}
		}
	}
}

// Bytes from the golden corpus (docs/text-binary-mapping.md 2.1 and
// text-binary-examples.tsv).
func TestGoldenNames(t *testing.T) {
	r := New()
	for _, c := range []struct {
		msg  string
		v    Version
		k    Kind
		text string
		hex  string
	}{
		{"msg03", 1, Event, "al/of", "00090005"},
		{"msg10", 1, Property, "nt/jit", "000B0007"},
		{"msg08a", 1, Signal, "cg/rt", "00070031"},
		{"msg09", 1, Event, "dd/ce", "00060004"},
		{"msg22a", 1, Statistic, "rtp/ps", "000C0004"},
		{"msg22a", 1, Statistic, "rtp/pl", "000C0006"},
		{"msg01a", 1, Property, "tdmc/ec", "000D0008"},
		{"msg51a", 2, Property, "tdmc/gain", "000D000A"},
		{"msg71b15", 3, Property, "tdmc/gain", "000D000A"},
		{"msg10", 1, Property, "v", "0000B001"},
		{"msg10", 1, Property, "c", "0000B008"},
		{"msg10", 1, Property, "m", "0000B00F"},
		{"msg10", 1, Property, "a", "0000B00C"},
		{"doc", 1, Property, "IPv4", "00006001"},
		{"doc", 1, Property, "Porttype", "00006004"},
		{"doc", 1, Statistic, "swb/fs", "FEFE0000"},
		{"doc", 2, Property, "root/MGCOriginatedPendingLimit", "00020007"},
		{"doc", 3, Property, "root/MGCMaxPDUSize", "0002000C"},
		{"doc", 3, Event, "dd/d0", "00060010"},
		{"doc", 3, Signal, "dg/d0", "00050010"},
		{"doc", 1, Event, "al/*", "0009FFFF"},
		{"doc", 1, Event, "nt/*", "000BFFFF"},
		{"doc", 1, Event, "*/*", "FFFFFFFF"},
		{"doc", 3, Signal, "*/*", "FFFFFFFF"},
	} {
		n, err := r.EncodePkgdName(c.v, c.k, c.text)
		if err != nil || n != pn(c.hex) {
			t.Errorf("%s: v%d %s %q = %s, %v; want %s", c.msg, c.v, c.k, c.text, n, err, c.hex)
			continue
		}
		back, err := r.DecodePkgdName(c.v, c.k, n)
		if err != nil || back != c.text {
			t.Errorf("%s: decode %s = %q, %v; want %q", c.msg, n, back, err, c.text)
		}
	}
	// dd/ce parameter ds = 0001 (msg09), and the parameter wildcard.
	ce := pn("00060004")
	for _, c := range []struct{ text, hex string }{{"ds", "0001"}, {"Meth", "0003"}, {"*", "FFFF"}} {
		id, err := r.EncodeParam(1, Event, ce, c.text)
		if err != nil || id != nm(c.hex) {
			t.Errorf("dd/ce parameter %s = %s, %v; want %s", c.text, id, err, c.hex)
		}
		if back, err := r.DecodeParam(1, Event, ce, id); err != nil || back != c.text {
			t.Errorf("decode dd/ce parameter %s = %q, %v", id, back, err)
		}
	}
	// nt-1 in a Packages descriptor: packageName 000B (msg22a).
	if id, err := r.PackageID(1, "nt"); err != nil || id != nm("000B") {
		t.Errorf("PackageID(nt) = %s, %v", id, err)
	}
	if name, err := r.PackageName(1, nm("000B")); err != nil || name != "nt" {
		t.Errorf("PackageName(000B) = %q, %v", name, err)
	}
}

func TestCaseInsensitive(t *testing.T) {
	r := New()
	for _, c := range []struct {
		k    Kind
		text string
		hex  string
		back string
	}{
		{Event, "AL/OF", "00090005", "al/of"},
		{Property, "root/maxnumberofcontexts", "00020001", "root/maxNumberOfContexts"},
		{Property, "ROOT/MAXNUMBEROFCONTEXTS", "00020001", "root/maxNumberOfContexts"},
		{Property, "ipv4", "00006001", "IPv4"},
		{Property, "V", "0000B001", "v"},
	} {
		n, err := r.EncodePkgdName(1, c.k, c.text)
		if err != nil || n != pn(c.hex) {
			t.Errorf("%q = %s, %v; want %s", c.text, n, err, c.hex)
		}
		if back, _ := r.DecodePkgdName(1, c.k, n); back != c.back {
			t.Errorf("decode %s = %q, want %q", n, back, c.back)
		}
	}
	// g/cause Generalcause, which OTP cannot encode from (lowercased) text.
	if id, err := r.EncodeParam(1, Event, pn("00010001"), "generalcause"); err != nil || id != nm("0001") {
		t.Errorf("g/cause generalcause = %s, %v", id, err)
	}
	if id, err := r.PackageID(1, "TDMC"); err != nil || id != nm("000D") {
		t.Errorf("PackageID(TDMC) = %s, %v", id, err)
	}
}

func TestUnknown(t *testing.T) {
	r := New()
	for _, c := range []struct {
		v    Version
		k    Kind
		text string
		msg  string
	}{
		{1, Event, "foo/bar", `megaco v1: unknown event "foo/bar" (no package "foo")`},
		{1, Event, "al/xx", `megaco v1: unknown event "al/xx"`},
		{1, Property, "al/of", `megaco v1: unknown property "al/of" (it is an event)`},
		{1, Signal, "al/of", `unknown signal "al/of"`},
		{1, Property, "x", `unknown property "x"`},
		{1, Event, "dd/d0", `megaco v1: unknown event "dd/d0" (defined in versions 2, 3)`},
		{2, Property, "root/MGSegmentationTimerValue", `(defined in version 3)`},
		{1, Property, "rtp/dur", `unknown property "rtp/dur"`}, // no package extension, as OTP
		{1, Event, "*/on", `needs the item wildcard`},
		{1, Event, "foo/*", `unknown event "foo/*" (no package "foo")`},
		{1, Event, "/on", `unknown event "/on"`},
		{1, Event, "al/", `unknown event "al/"`},
		{1, Event, "", `unknown event ""`},
		{1, Event, "al/on/x", `unknown event "al/on/x"`},
		{1, Event, "al/$", `unknown event "al/$"`},
	} {
		n, err := r.EncodePkgdName(c.v, c.k, c.text)
		if err == nil {
			t.Errorf("v%d %s %q = %s, want error", c.v, c.k, c.text, n)
			continue
		}
		if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("v%d %s %q: error %q, want ErrUnknown containing %q", c.v, c.k, c.text, err, c.msg)
		}
	}
	for _, c := range []struct {
		k   Kind
		hex string
		msg string
	}{
		{Event, "12340001", "no package with ID 1234"},
		{Event, "000900FF", `unknown event "000900FF"`},
		{Signal, "00090004", `unknown signal "00090004"`}, // al/on is an event
		{Event, "FFFF0001", "no package with ID FFFF"},
		{Event, "0000FFFF", `unknown event "0000FFFF"`}, // native package has no wildcard
	} {
		if s, err := r.DecodePkgdName(1, c.k, pn(c.hex)); !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("decode %s %s = %q, %v; want error containing %q", c.k, c.hex, s, err, c.msg)
		}
	}
	if _, err := r.EncodeParam(1, Event, pn("00090004"), "nope"); !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), `unknown event parameter "nope" (of al/on)`) {
		t.Errorf("unknown parameter: %v", err)
	}
	if _, err := r.EncodeParam(2, Event, pn("00010002"), "RID"); !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "defined in version 3") {
		t.Errorf("g/sc RID in v2: %v", err)
	}
	if _, err := r.EncodeParam(3, Event, pn("0009FFFF"), "strict"); !errors.Is(err, ErrUnknown) {
		t.Errorf("parameter of a wildcard event: %v", err)
	}
	if _, err := r.DecodeParam(1, Event, pn("00090004"), nm("0009")); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown parameter ID: %v", err)
	}
	if _, err := r.EncodeParam(1, Property, pn("000B0007"), "x"); err == nil {
		t.Errorf("a property parameter was accepted")
	}
	if _, err := r.PackageID(1, "foo"); !errors.Is(err, ErrUnknown) || err.Error() != `megaco v1: unknown package "foo"` {
		t.Errorf("PackageID(foo): %v", err)
	}
	if _, err := r.PackageID(1, ""); !errors.Is(err, ErrUnknown) {
		t.Errorf("PackageID(\"\"): %v", err)
	}
	if _, err := r.PackageName(1, nm("0000")); !errors.Is(err, ErrUnknown) {
		t.Errorf("PackageName(0000): %v", err)
	}
	if _, err := r.EncodePkgdName(4, Event, "al/on"); err == nil {
		t.Errorf("version 4 accepted")
	}
	if _, err := r.EncodePkgdName(1, Kind(9), "al/on"); err == nil {
		t.Errorf("kind 9 accepted")
	}
	if _, err := r.DecodePkgdName(1, Kind(9), pn("00090004")); err == nil {
		t.Errorf("kind 9 accepted")
	}
}

// An error keeps a copy of the name looked up, never the caller's
// string: the mapping looks up views of a message's bytes, which change
// once the message is reused.
func TestUnknownKeepsNoName(t *testing.T) {
	r := New()
	for _, c := range []struct {
		name string
		f    func(string) error
	}{
		{"foo", func(s string) error { _, err := r.PackageID(1, s); return err }},
		{"al/xx", func(s string) error { _, err := r.EncodePkgdName(1, Event, s); return err }},
		{"foo/*", func(s string) error { _, err := r.EncodePkgdName(1, Event, s); return err }},
		{"*/on", func(s string) error { _, err := r.EncodePkgdName(1, Event, s); return err }},
		{"nope", func(s string) error { _, err := r.EncodeParam(1, Event, pn("00090004"), s); return err }},
	} {
		b := []byte(c.name)
		err := c.f(unsafe.String(&b[0], len(b)))
		if !errors.Is(err, ErrUnknown) {
			t.Fatalf("%s: %v", c.name, err)
		}
		before := err.Error()
		for i := range b {
			b[i] = 'Z'
		}
		if after := err.Error(); after != before || !strings.Contains(after, strconv.Quote(c.name)) {
			t.Errorf("%s: error %q became %q once the bytes changed", c.name, before, after)
		}
	}
}

func TestNoAllocs(t *testing.T) {
	r := New()
	ce, ds, nt, jit := pn("00060004"), nm("0001"), nm("000B"), pn("000B0007")
	buf := make([]byte, 0, 8)
	for name, f := range map[string]func(){
		"EncodePkgdName":       func() { r.EncodePkgdName(3, Event, "al/on") },
		"EncodePkgdName upper": func() { r.EncodePkgdName(3, Property, "ROOT/MaxNumberOfContexts") },
		"EncodePkgdName wild":  func() { r.EncodePkgdName(3, Event, "al/*") },
		"DecodePkgdName":       func() { r.DecodePkgdName(3, Event, ce) },
		"EncodeParam":          func() { r.EncodeParam(3, Event, ce, "DS") },
		"DecodeParam":          func() { r.DecodeParam(3, Event, ce, ds) },
		"PackageID":            func() { r.PackageID(3, "Nt") },
		"PackageName":          func() { r.PackageName(3, nt) },
		"AppendValue otp":      func() { r.AppendValue(buf[:0], OTP, 3, Property, jit, "40") },
		"AppendValue rfc":      func() { r.AppendValue(buf[:0], RFC, 3, Property, jit, "40") },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations per call", name, n)
		}
	}
}

func TestAdd(t *testing.T) {
	r := New()
	other := New()
	err := r.Add(
		Def{Package: "xpkg", PackageID: 0x8001, Kind: Event, Item: "ev", ItemID: 1},
		Def{Package: "xpkg", PackageID: 0x8001, Kind: Event, Item: "ev", ItemID: 1, Param: "level", ParamID: 2, Type: "integer 0..10"},
		Def{Package: "xpkg", PackageID: 0x8001, Kind: Property, Item: "mode", ItemID: 1, Type: "enumeration", Values: "fast=0x01 slow=0x02", Versions: []Version{3}},
		Def{Package: "al", PackageID: 0x0009, Kind: Signal, Item: "xring", ItemID: 0x0100},
	)
	if err != nil {
		t.Fatal(err)
	}
	n, err := r.EncodePkgdName(1, Event, "xpkg/ev")
	if err != nil || n != pn("80010001") {
		t.Fatalf("xpkg/ev = %s, %v", n, err)
	}
	if id, err := r.EncodeParam(1, Event, n, "LEVEL"); err != nil || id != nm("0002") {
		t.Errorf("xpkg/ev level = %s, %v", id, err)
	}
	if _, err := r.EncodePkgdName(2, Property, "xpkg/mode"); !errors.Is(err, ErrUnknown) {
		t.Errorf("v3-only property found in v2: %v", err)
	}
	mode, err := r.EncodePkgdName(3, Property, "xpkg/mode")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := r.AppendValue(nil, RFC, 3, Property, mode, "slow"); err != nil || fmt.Sprintf("%x", b) != "0a0102" {
		t.Errorf("xpkg/mode=slow = %x, %v", b, err)
	}
	if n, err := r.EncodePkgdName(1, Signal, "al/xring"); err != nil || n != pn("00090100") {
		t.Errorf("al/xring = %s, %v", n, err)
	}
	// Defaults are still there, and the other registry did not change.
	if _, err := r.EncodePkgdName(1, Event, "al/on"); err != nil {
		t.Errorf("al/on after Add: %v", err)
	}
	if _, err := other.EncodePkgdName(1, Event, "xpkg/ev"); !errors.Is(err, ErrUnknown) {
		t.Errorf("Add leaked into another registry: %v", err)
	}
	if _, err := New().EncodePkgdName(1, Signal, "al/xring"); !errors.Is(err, ErrUnknown) {
		t.Errorf("Add changed the shared defaults: %v", err)
	}

	for _, c := range []struct {
		d   Def
		msg string
	}{
		{Def{Package: "al", PackageID: 0x0010, Kind: Event, Item: "x", ItemID: 1}, "package al already has ID 0009"},
		{Def{Package: "zz", PackageID: 0x0009, Kind: Event, Item: "x", ItemID: 1}, `package ID 0009 already belongs to package "al"`},
		{Def{Package: "al", PackageID: 0x0009, Kind: Event, Item: "on", ItemID: 0x77}, "already defined with ID 0004"},
		{Def{Package: "al", PackageID: 0x0009, Kind: Event, Item: "new", ItemID: 0x0004}, "ID 0004 already belongs to event al/on"},
		{Def{Package: "al", PackageID: 0x0009, Kind: Event, Item: "zz", ItemID: 7, Param: "p", ParamID: 1}, "event al/zz with ID 0007 is not defined"},
		{Def{Package: "al", PackageID: 0x0009, Kind: Event, Item: "on", ItemID: 4, Param: "strict", ParamID: 9}, "already defined with ID 0001"},
		{Def{Package: "al", PackageID: 0x0009, Kind: Event, Item: "on", ItemID: 4, Param: "new", ParamID: 1}, "ID 0001 already belongs to parameter strict"},
		{Def{Package: "nt", PackageID: 0x000B, Kind: Property, Item: "jit", ItemID: 7, Param: "p", ParamID: 1}, "only events and signals have parameters"},
		{Def{Package: "a/b", PackageID: 0x7000, Kind: Event, Item: "x", ItemID: 1}, "plain name"},
		{Def{Package: "q", PackageID: 0x7000, Kind: Event, Item: "*", ItemID: 1}, "names must be"},
		{Def{Package: "q", PackageID: 0x7000, Kind: Event, Item: "x", ItemID: 0xFFFF}, "wildcard"},
		{Def{Package: "", PackageID: 0x7000, Kind: Event, Item: "x", ItemID: 1}, "only the native package"},
		{Def{Package: "q", PackageID: 0x7000, Kind: Event, Item: "x", ItemID: 1, Versions: []Version{4}}, "version 4"},
	} {
		err := r.Add(Def{Package: "batch", PackageID: 0x7100, Kind: Event, Item: "b", ItemID: 1}, c.d)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Add(%+v) error = %v, want %q", c.d, err, c.msg)
		}
		// A failed batch adds nothing.
		if _, err := r.PackageID(1, "batch"); err == nil {
			t.Fatalf("failed Add(%+v) left package batch behind", c.d)
		}
	}
}

func TestLoad(t *testing.T) {
	r := NewEmpty()
	table := "# private packages\n" +
		"package\tpackage_id\tkind\titem\titem_id\tparam\tparam_id\tbinary_name\ttype\tvalues_and_notes\n" +
		"priv\t0xF001\tsignal\tbeep\t0x0001\t\t\tF0010001\tsignal type Brief\t\n" +
		"priv\t0xF001\tsignal_param\tbeep\t0x0001\tvol\t0x0002\t0002\tinteger 0..9\t\n" +
		"priv\t0xF001\tproperty\ton\t0x0002\t\t\tF0010002\tboolean\ton/off\n"
	if err := r.Load(strings.NewReader(table)); err != nil {
		t.Fatal(err)
	}
	n, err := r.EncodePkgdName(2, Signal, "priv/beep")
	if err != nil || n != pn("F0010001") {
		t.Fatalf("priv/beep = %s, %v", n, err)
	}
	if b, err := r.AppendParamValue(nil, RFC, 2, Signal, n, nm("0002"), "7"); err != nil || fmt.Sprintf("%x", b) != "020107" {
		t.Errorf("vol=7 = %x, %v", b, err)
	}
	if _, err := r.EncodePkgdName(1, Event, "al/on"); !errors.Is(err, ErrUnknown) {
		t.Errorf("NewEmpty has al/on: %v", err)
	}
	for _, bad := range []struct{ table, msg string }{
		{"package\tkind\n", `no "package_id" column`},
		{"package\tpackage_id\tkind\titem\titem_id\tparam\tparam_id\nx\t0x1\tthing\ti\t0x1\t\t\n", `unknown kind "thing"`},
		{"package\tpackage_id\tkind\titem\titem_id\tparam\tparam_id\nx\t0x10000\tevent\ti\t0x1\t\t\n", "package_id"},
		{"package\tpackage_id\tkind\titem\titem_id\tparam\tparam_id\tbinary_name\nx\t0x1\tevent\ti\t0x1\t\t\t00010002\n", "does not match"},
		{"# only comments\n", "no header"},
	} {
		if err := NewEmpty().Load(strings.NewReader(bad.table)); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("Load(%q) = %v, want %q", bad.table, err, bad.msg)
		}
	}
}

// Lookups run while another goroutine adds (run with -race to check).
func TestConcurrentAdd(t *testing.T) {
	r := New()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 50 {
			if err := r.Add(Def{Package: fmt.Sprintf("p%d", i), PackageID: uint16(0x9000 + i), Kind: Event, Item: "e", ItemID: 1}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 2000 {
		if _, err := r.EncodePkgdName(1, Event, "al/on"); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if _, err := r.EncodePkgdName(1, Event, "p49/e"); err != nil {
		t.Error(err)
	}
}

func TestIDHelpers(t *testing.T) {
	n := NewPkgdName(0x000B, 0x0007)
	if n.Package() != 0x000B || n.Item() != 0x0007 || n.String() != "000B0007" {
		t.Errorf("NewPkgdName: %v", n)
	}
	if _, err := ParsePkgdName([]byte{1, 2, 3}); err == nil {
		t.Errorf("3-octet PkgdName accepted")
	}
	if p, err := ParsePkgdName([]byte{0, 9, 0, 5}); err != nil || p != pn("00090005") {
		t.Errorf("ParsePkgdName: %v %v", p, err)
	}
	if m := NewName(0xFFFF); m.ID() != 0xFFFF || m.String() != "FFFF" {
		t.Errorf("NewName: %v", m)
	}
	if _, err := ParseName([]byte{1}); err == nil {
		t.Errorf("1-octet Name accepted")
	}
	if Kind(7).String() != "kind(7)" || Statistic.String() != "statistic" {
		t.Errorf("Kind.String")
	}
}

func TestZeroRegistry(t *testing.T) {
	var r Registry
	if n, err := r.EncodePkgdName(1, Event, "al/on"); err != nil || n != pn("00090004") {
		t.Errorf("zero Registry al/on = %s, %v", n, err)
	}
	if err := r.Add(Def{Package: "z", PackageID: 0x7777, Kind: Event, Item: "e", ItemID: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.EncodePkgdName(1, Event, "al/on"); err != nil {
		t.Errorf("defaults lost after Add on a zero Registry: %v", err)
	}
	if _, err := r.EncodePkgdName(1, Event, "z/e"); err != nil {
		t.Errorf("z/e: %v", err)
	}
}

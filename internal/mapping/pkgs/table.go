package pkgs

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// packagesTSV is packages.tsv beside this file (taken from the project's
// reference notes; a test compares them when the notes are present): RFC
// 3525 Annex E, the v2 draft's E.2, and everything OTP megaco 4.4.2's
// v1/v2/v3 resolvers know.
//
//go:embed packages.tsv
var packagesTSV string

// defaults parses the embedded table once. The result is never changed
// (writers copy it), so every New registry can share it.
var defaults = sync.OnceValue(func() *tables {
	defs, err := parseTSV(strings.NewReader(packagesTSV))
	if err != nil {
		panic("pkgs: embedded packages.tsv: " + err.Error())
	}
	t := NewEmpty().t.Load()
	for i := range defs {
		if err := t.add(&defs[i]); err != nil {
			panic("pkgs: embedded packages.tsv: " + err.Error())
		}
	}
	return t
})

// Load adds the rows of a table in packages.tsv format (tab-separated, "#"
// comment lines, a header line naming the columns) to r, as Add does. The
// columns package, package_id, kind, item, item_id, param and param_id are
// needed; type and values_and_notes give value types; otp_v1, otp_v2 and
// otp_v3 ("yes"/"no") give the versions (all versions when absent);
// binary_name, when present, is checked against the IDs. Other columns are
// ignored. This is how private packages are provisioned.
func (r *Registry) Load(rd io.Reader) error {
	defs, err := parseTSV(rd)
	if err != nil {
		return err
	}
	return r.Add(defs...)
}

var kinds = map[string]struct {
	kind  Kind
	param bool
}{
	"property":     {Property, false},
	"event":        {Event, false},
	"signal":       {Signal, false},
	"statistic":    {Statistic, false},
	"event_param":  {Event, true},
	"signal_param": {Signal, true},
}

func parseTSV(rd io.Reader) ([]Def, error) {
	var defs []Def
	col := map[string]int{}
	sc := bufio.NewScanner(rd)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if len(col) == 0 {
			for i, name := range f {
				col[strings.TrimSpace(name)] = i
			}
			for _, need := range []string{"package", "package_id", "kind", "item", "item_id", "param", "param_id"} {
				if _, ok := col[need]; !ok {
					return nil, fmt.Errorf("pkgs: table line %d: header has no %q column", line, need)
				}
			}
			continue
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(f) {
				return strings.TrimSpace(f[i])
			}
			return ""
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("pkgs: table line %d: %s", line, fmt.Sprintf(format, args...))
		}
		k, ok := kinds[get("kind")]
		if !ok {
			return nil, bad("unknown kind %q", get("kind"))
		}
		d := Def{Package: get("package"), Kind: k.kind, Item: get("item"), Type: get("type"), Values: get("values_and_notes")}
		if d.Package == "(none)" {
			d.Package = ""
		}
		var err error
		if d.PackageID, err = parseID(get("package_id")); err != nil {
			return nil, bad("package_id: %v", err)
		}
		if d.ItemID, err = parseID(get("item_id")); err != nil {
			return nil, bad("item_id: %v", err)
		}
		want := fmt.Sprintf("%04X%04X", d.PackageID, d.ItemID)
		if k.param {
			d.Param = get("param")
			if d.ParamID, err = parseID(get("param_id")); err != nil {
				return nil, bad("param_id: %v", err)
			}
			want = fmt.Sprintf("%04X", d.ParamID)
		}
		if bn := get("binary_name"); bn != "" && !strings.EqualFold(bn, want) {
			return nil, bad("binary_name %s does not match the IDs (%s)", bn, want)
		}
		if _, ok := col["otp_v1"]; ok {
			for v := Version(1); v <= 3; v++ {
				if get(fmt.Sprintf("otp_v%d", v)) == "yes" {
					d.Versions = append(d.Versions, v)
				}
			}
			if len(d.Versions) == 0 {
				return nil, bad("no version has %s", d.Item)
			}
		}
		defs = append(defs, d)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(col) == 0 {
		return nil, fmt.Errorf("pkgs: table has no header line")
	}
	return defs, nil
}

func parseID(s string) (uint16, error) {
	v, err := strconv.ParseUint(s, 0, 16)
	if err != nil {
		return 0, fmt.Errorf("%q is not a 16-bit ID", s)
	}
	return uint16(v), nil
}

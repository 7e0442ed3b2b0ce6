// Package archtest holds the import rules of the module (see the layers
// of ../shared/design/layers.md) as a test: it reads the imports of every
// non-test Go file and fails on an import a rule forbids.
package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "megaco/"

// applications are the programs' packages below cmd/megaco: no one of
// them imports another (their subpackages belong to them). capture is not
// one: it is a pcap reader that imports nothing of the module but tpkt,
// used by load's replay and by cmd/megaco's pcap, i.e. a leaf.
var applications = []string{"internal/server", "internal/proxy", "internal/load", "internal/bench"}

// codecs are the codec implementations, which applications other than
// bench reach through internal/codec (Lookup, Transcode, Scan).
var codecs = []string{"internal/codec/text", "internal/codec/ber", "internal/codec/per", "internal/codec/native"}

// leaves are the infrastructure packages any application may import;
// they import no application.
var leaves = []string{
	"internal/tpkt", "internal/udpbatch", "internal/hist", "internal/codecmetrics", "internal/errclass",
	"internal/pprofhttp", "internal/logging", "internal/buildinfo", "internal/tlsconfig", "internal/quote", "internal/monotime",
	"internal/capture",
}

// exceptions are imports that break a rule today, each with why; the test
// names any other. Remove an entry when its import goes.
var exceptions = map[[2]string]string{
	// Rule 4: load builds and patches its BER call-flow templates with the
	// BER codec's own Codec and PutUint.
	{"internal/load", "internal/codec/ber"}: "load's BER templates (ber.Codec, ber.PutUint)",
}

// within reports whether pkg is p or below it.
func within(pkg, p string) bool { return pkg == p || strings.HasPrefix(pkg, p+"/") }

func owner(pkg string, of []string) string {
	for _, p := range of {
		if within(pkg, p) {
			return p
		}
	}
	return ""
}

// rule says why pkg may not import imp, or "" if it may.
func rule(pkg, imp string) string {
	app, impApp := owner(pkg, applications), owner(imp, applications)
	switch {
	case impApp != "" && app != impApp && !within(pkg, "cmd"):
		if app != "" {
			return "rule 2: an application imports another application; move the shared piece into a leaf package"
		}
		if owner(pkg, leaves) != "" {
			return "a leaf package imports an application"
		}
		if within(pkg, "internal/codec") || within(pkg, "internal/mapping") || within(pkg, "internal/model") {
			return "rule 1: a codec or the mapping imports an application"
		}
	case within(pkg, "internal/codec") && (within(imp, "api") || within(imp, "internal/protoconv")):
		return "rule 1: a codec imports api/ or protoconv"
	case within(pkg, "internal/mapping") && !within(imp, "internal/mapping") && !within(imp, "internal/model") && imp != "internal/quote":
		return "rule 3: mapping imports only model, its own packages, quote and the standard library"
	case app != "" && app != "internal/bench" && owner(imp, codecs) != "":
		return "rule 4: an application reaches codecs through internal/codec"
	}
	return ""
}

func TestImportRules(t *testing.T) {
	imports := moduleImports(t)
	if len(imports["internal/proxy"]) == 0 || len(imports["internal/codec"]) == 0 {
		t.Fatalf("read %d packages, without the proxy or the codec pipeline", len(imports))
	}
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, pkg := range pkgs {
		for _, imp := range imports[pkg] {
			why := rule(pkg, imp)
			if why == "" {
				continue
			}
			key := [2]string{owner(pkg, append(applications, "internal/mapping")), imp}
			if key[0] == "internal/mapping" {
				key[0] = pkg
			}
			if known, ok := exceptions[key]; ok {
				t.Logf("known: %s imports %s (%s)", pkg, imp, known)
				continue
			}
			t.Errorf("%s imports %s: %s", pkg, imp, why)
		}
	}
}

// TestRules checks the rules themselves on imports they must refuse and
// allow, so that a rule that stops matching fails here.
func TestRules(t *testing.T) {
	for _, c := range []struct {
		pkg, imp string
		bad      bool
	}{
		{"internal/proxy", "internal/server", true},
		{"internal/load", "internal/proxy/tpkt", true},
		{"internal/server", "internal/proxy", true},
		{"internal/tpkt", "internal/proxy", true},
		{"internal/codec/ber", "internal/protoconv", true},
		{"internal/codec/text", "internal/server", true},
		{"internal/mapping/termid", "internal/codec/codecerr", true},
		{"internal/server", "internal/codec/ber", true},
		{"internal/proxy/abuse", "internal/proxy", false},
		{"internal/proxy", "internal/tpkt", false},
		{"internal/load", "internal/capture", false},
		{"internal/bench", "internal/codec/ber", false},
		{"internal/server", "internal/codec", false},
		{"internal/mapping/termid", "internal/quote", false},
		{"cmd/megaco", "internal/server", false},
	} {
		if got := rule(c.pkg, c.imp) != ""; got != c.bad {
			t.Errorf("%s importing %s: refused %v, want %v", c.pkg, c.imp, got, c.bad)
		}
	}
}

// moduleImports reads the module's imports, by package directory relative
// to the module root, from every non-test Go file (all build tags).
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		for _, is := range f.Imports {
			imp, _ := strconv.Unquote(is.Path.Value)
			if rest, ok := strings.CutPrefix(imp, module); ok && !slices.Contains(out[pkg], rest) {
				out[pkg] = append(out[pkg], rest)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

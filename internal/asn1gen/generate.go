package asn1gen

import (
	"fmt"
	"os"
	"path/filepath"
)

// ModuleFiles are the schema inputs, one per protocol version, relative
// to the repository root.
var ModuleFiles = map[int]string{
	1: "api/asn1/MEDIA-GATEWAY-CONTROL-v1.asn",
	2: "api/asn1/MEDIA-GATEWAY-CONTROL-v2.asn",
	3: "api/asn1/MEDIA-GATEWAY-CONTROL-v3.asn",
}

// ModuleRoot returns the root of the Go module dir is in: the nearest
// directory at or above dir with a go.mod. Generated paths are relative to
// it, so that asn1gen runs the same from any directory of the repository
// (go generate runs it from the package's).
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("no go.mod in %s or above", dir)
		}
		d = up
	}
}

// LoadFamily parses the modules under root.
func LoadFamily(root string) (*Family, error) {
	var vs []*Version
	for n := 1; n <= 3; n++ {
		path := filepath.Join(root, ModuleFiles[n])
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		m, err := Parse(ModuleFiles[n], src)
		if err != nil {
			return nil, err
		}
		vs = append(vs, &Version{N: n, Module: m})
	}
	return NewFamily(vs...)
}

// Generate returns every generated file (path relative to root -> content).
func Generate(root string) (map[string][]byte, error) {
	f, err := LoadFamily(root)
	if err != nil {
		return nil, err
	}
	const model = "megaco/internal/model"
	// Each generated Go file but the proto conversion (made with the
	// .proto file, below): its path, what an error calls it, and how it
	// is made.
	files := []struct {
		path, what string
		emit       func() ([]byte, error)
	}{
		{"internal/model/model_gen.go", "model", func() ([]byte, error) { return f.EmitModel("model") }},
		{"internal/model/walk_gen.go", "walk", func() ([]byte, error) { return f.EmitWalk("model") }},
		{"internal/model/clone_gen.go", "clone", func() ([]byte, error) { return f.EmitClone("model") }},
		{"internal/codec/ber/ber_gen.go", "ber", func() ([]byte, error) { return f.EmitBER("ber", model) }},
		{"internal/codec/ber/enum_gen.go", "ber enums", func() ([]byte, error) { return f.EmitEnumChecks("ber") }},
		{"internal/codec/ber/scantags_gen.go", "ber scan tags", func() ([]byte, error) { return f.EmitScanTags("ber") }},
		{"internal/codec/slab/model_gen.go", "slabs", func() ([]byte, error) { return f.EmitSlabs("slab", model) }},
		{"internal/codec/per/per_gen.go", "per", func() ([]byte, error) { return f.EmitPER("per", model) }},
		{"internal/codec/per/scan_gen.go", "per scan", func() ([]byte, error) { return f.EmitPERScan("per") }},
		{"internal/codec/native/wire_gen.go", "wire", func() ([]byte, error) { return f.EmitWire("native") }},
		{"internal/codec/native/fields_gen.go", "wire fields", func() ([]byte, error) { return f.EmitWireFields("native") }},
		{"internal/codec/native/unwire_gen.go", "unwire", func() ([]byte, error) { return f.EmitUnwire("native") }},
	}
	out := map[string][]byte{}
	for _, g := range files {
		if out[g.path], err = g.emit(); err != nil {
			return nil, fmt.Errorf("%s: %w", g.what, err)
		}
	}
	if out["api/megaco/v1/message.proto"], out["internal/protoconv/convert_gen.go"], err = f.EmitProto(
		"megaco.v1", "megaco/api/megaco/v1;megacov1", "protoconv", "megaco/api/megaco/v1"); err != nil {
		return nil, fmt.Errorf("proto: %w", err)
	}
	return out, nil
}

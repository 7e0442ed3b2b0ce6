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
	out := map[string][]byte{}
	if out["internal/model/model_gen.go"], err = f.EmitModel("model"); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if out["internal/model/walk_gen.go"], err = f.EmitWalk("model"); err != nil {
		return nil, fmt.Errorf("walk: %w", err)
	}
	if out["internal/codec/ber/ber_gen.go"], err = f.EmitBER("ber", "megaco/internal/model"); err != nil {
		return nil, fmt.Errorf("ber: %w", err)
	}
	if out["internal/codec/ber/enum_gen.go"], err = f.EmitEnumChecks("ber"); err != nil {
		return nil, fmt.Errorf("ber enums: %w", err)
	}
	if out["internal/codec/ber/scantags_gen.go"], err = f.EmitScanTags("ber"); err != nil {
		return nil, fmt.Errorf("ber scan tags: %w", err)
	}
	if out["internal/codec/slab/model_gen.go"], err = f.EmitSlabs("slab", "megaco/internal/model"); err != nil {
		return nil, fmt.Errorf("slabs: %w", err)
	}
	if out["internal/codec/per/per_gen.go"], err = f.EmitPER("per", "megaco/internal/model"); err != nil {
		return nil, fmt.Errorf("per: %w", err)
	}
	if out["internal/codec/per/scan_gen.go"], err = f.EmitPERScan("per"); err != nil {
		return nil, fmt.Errorf("per scan: %w", err)
	}
	if out["api/megaco/v1/message.proto"], out["internal/protoconv/convert_gen.go"], err = f.EmitProto(
		"megaco.v1", "megaco/api/megaco/v1;megacov1", "protoconv", "megaco/api/megaco/v1"); err != nil {
		return nil, fmt.Errorf("proto: %w", err)
	}
	if out["internal/codec/native/wire_gen.go"], err = f.EmitWire("native"); err != nil {
		return nil, fmt.Errorf("wire: %w", err)
	}
	if out["internal/codec/native/fields_gen.go"], err = f.EmitWireFields("native"); err != nil {
		return nil, fmt.Errorf("wire fields: %w", err)
	}
	if out["internal/codec/native/unwire_gen.go"], err = f.EmitUnwire("native"); err != nil {
		return nil, fmt.Errorf("unwire: %w", err)
	}
	return out, nil
}

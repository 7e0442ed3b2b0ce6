package load

import (
	"os"
	"path/filepath"
	"testing"

	"megaco/internal/codec"
	"megaco/internal/codec/ber"
)

// TestRegenerateFlow is the last step of flow/regen.sh: it decodes each
// flow/a1-*.txt with our text codec, maps it to binary form (the 8,8,8
// layout) and writes its BER as flow/a1-*.ber.
func TestRegenerateFlow(t *testing.T) {
	if os.Getenv("MEGACO_FLOW_REGEN") == "" {
		t.Skip("run by flow/regen.sh")
	}
	textCodec(t)
	paths, _ := filepath.Glob(filepath.Join("flow", "a1-*.txt"))
	if len(paths) != 28 {
		t.Fatalf("%d flow texts, want 28", len(paths))
	}
	for _, p := range paths {
		m, _, err := codec.DecodeAs(readFile(t, p), "pretty", codec.Binary, Options())
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out, err := ber.Codec{}.Append(nil, m)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		name := filepath.Base(p)
		if err := os.WriteFile(filepath.Join("flow", name[:len(name)-len(".txt")]+".ber"), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

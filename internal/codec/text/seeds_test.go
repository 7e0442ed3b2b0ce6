package text

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seedsDir holds the messages written from the grammar (the oracle
// messages, each rule's valid form, the form messages), one file each:
// FuzzTranscode (internal/codec) seeds its corpus with them.
const seedsDir = "testdata/grammar"

func grammarSeeds() map[string]string {
	s := map[string]string{}
	for name, text := range oracleMessages {
		s["oracle_"+name] = text
	}
	for _, c := range cfRules {
		s["rule_"+c.id] = c.ok
	}
	for name, text := range cfFormMessages {
		s[name] = text
	}
	return s
}

// TestGrammarSeeds: testdata/grammar holds exactly grammarSeeds();
// MEGACO_UPDATE_SEEDS=1 rewrites it.
func TestGrammarSeeds(t *testing.T) {
	seeds := grammarSeeds()
	if os.Getenv("MEGACO_UPDATE_SEEDS") != "" {
		if err := os.RemoveAll(seedsDir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(seedsDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range seeds {
			if err := os.WriteFile(filepath.Join(seedsDir, name+".txt"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(seedsDir, "*.txt"))
	if len(files) != len(seeds) {
		t.Errorf("%s has %d files, want %d: run MEGACO_UPDATE_SEEDS=1 go test -run TestGrammarSeeds", seedsDir, len(files), len(seeds))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if want, ok := seeds[strings.TrimSuffix(filepath.Base(f), ".txt")]; !ok || want != string(data) {
			t.Errorf("%s is stale: run MEGACO_UPDATE_SEEDS=1 go test -run TestGrammarSeeds", f)
		}
	}
}

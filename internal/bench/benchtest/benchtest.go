// Package benchtest gives the tests of megaco bench a tiny corpus laid out
// as corpus/otp-time-test, so that a run takes a fraction of a second.
package benchtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"megaco/internal/corpus"
)

// Msgs are the tiny corpus's messages: a v1 request, a short v1 notify
// and a v3 audit reply.
var Msgs = []string{"msg01a", "msg03", "msg22a"}

// Corpus copies Msgs (every encoding, and their manifest lines) from
// corpus/otp-time-test to a temporary directory and returns it.
func Corpus(t testing.TB) string {
	t.Helper()
	src, dir := corpus.Dir(t), t.TempDir()
	man, err := os.ReadFile(filepath.Join(src, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(man), "\n")
	keep := []string{lines[0]}
	for _, m := range Msgs {
		files, _ := filepath.Glob(filepath.Join(src, m+".*"))
		if len(files) < 2 {
			t.Fatalf("%s: no files in %s", m, src)
		}
		for _, f := range files {
			copyFile(t, f, filepath.Join(dir, filepath.Base(f)))
		}
		for _, l := range lines[1:] {
			if strings.HasPrefix(l, m+"\t") {
				keep = append(keep, l)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "MANIFEST.tsv"), []byte(strings.Join(keep, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func copyFile(t testing.TB, from, to string) {
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

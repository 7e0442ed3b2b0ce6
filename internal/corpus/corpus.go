// Package corpus gives tests the golden corpus (corpus/otp-time-test:
// OTP's encodings of its 149 benchmark messages), whatever package
// directory they run in.
package corpus

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Dir is the corpus directory, found from the working directory upwards
// (tests run in their package's directory).
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		c := filepath.Join(dir, "corpus", "otp-time-test")
		if _, err := os.Stat(filepath.Join(c, "MANIFEST.tsv")); err == nil {
			return c
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("corpus/otp-time-test not found above the working directory")
		}
		dir = up
	}
}

// Read reads one corpus file.
func Read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Files reads every corpus file ending in ext, by message name.
func Files(t testing.TB, ext string) map[string][]byte {
	t.Helper()
	dir := Dir(t)
	paths, err := filepath.Glob(filepath.Join(dir, "*"+ext))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no %s files in %s: %v", ext, dir, err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ext)] = b
	}
	return out
}

// Names returns the message names of files, sorted.
func Names(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

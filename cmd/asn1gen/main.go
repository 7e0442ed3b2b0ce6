// Command asn1gen regenerates the message model and the binary codecs
// from the ASN.1 modules in api/asn1 (run by `make generate`, and by go
// generate in internal/model). Paths are relative to the module root,
// found above the working directory unless -root names it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"megaco/internal/asn1gen"
)

func main() {
	root := flag.String("root", "", "repository root (default: the module root of the working directory)")
	flag.Parse()
	if *root == "" {
		r, err := asn1gen.ModuleRoot(".")
		if err != nil {
			fail(err)
		}
		*root = r
	}
	files, err := asn1gen.Generate(*root)
	if err != nil {
		fail(err)
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(*root, n), files[n], 0o644); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "asn1gen:", err)
	os.Exit(1)
}

// Command asn1gen regenerates the message model and the binary codecs
// from the ASN.1 modules in api/asn1 (run by `make generate`).
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
	root := flag.String("root", ".", "repository root")
	flag.Parse()
	files, err := asn1gen.Generate(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "asn1gen:", err)
		os.Exit(1)
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(*root, n), files[n], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "asn1gen:", err)
			os.Exit(1)
		}
	}
}

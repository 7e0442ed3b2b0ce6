package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"megaco/internal/codec/ber"
)

// Message is one corpus message in every encoding the corpus has.
type Message struct {
	Name string
	// Version is the protocol version: MANIFEST.tsv's megaco_version, or
	// read from the BER encoding when there is no manifest.
	Version int
	// Files holds the message's files by the suffix after "<name>.":
	// "ber", "per", "pretty.txt", "compact.txt".
	Files map[string][]byte
}

// Corpus is a directory of messages, one <name>.ber per message (OTP's
// golden encodings, as corpus/otp-time-test has them) with its other
// encodings beside it.
type Corpus struct {
	Dir  string
	Msgs []Message
}

// LoadCorpus reads every message of dir. The BER file names the message;
// MANIFEST.tsv, if present, gives the versions.
func LoadCorpus(dir string) (*Corpus, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".ber"); ok && !e.IsDir() && n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("corpus: no <message>.ber files in %s", dir)
	}
	sort.Strings(names)
	versions, err := readManifest(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		return nil, err
	}
	c := &Corpus{Dir: dir}
	for _, n := range names {
		m := Message{Name: n, Files: map[string][]byte{}}
		for _, e := range entries {
			suffix, ok := strings.CutPrefix(e.Name(), n+".")
			if !ok || e.IsDir() || strings.Contains(suffix, "~") {
				continue
			}
			// Another message whose name extends this one ("msg1" and
			// "msg1.x.ber") is not this message's file.
			if _, other := strings.CutSuffix(suffix, ".ber"); other {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, fmt.Errorf("corpus: %w", err)
			}
			m.Files[suffix] = b
		}
		if v, ok := versions[n]; ok {
			m.Version = v
		} else if m.Version, err = ber.PeekVersion(m.Files["ber"]); err != nil {
			return nil, fmt.Errorf("corpus: %s.ber: %w", n, err)
		}
		if m.Version < 1 || m.Version > 3 {
			return nil, fmt.Errorf("corpus: %s: protocol version %d", n, m.Version)
		}
		c.Msgs = append(c.Msgs, m)
	}
	return c, nil
}

// File returns the message's encoding for the codec called name: the file
// <msg>.<name> or <msg>.<name>.txt (pretty.txt, compact.txt), or nil.
func (m *Message) File(name string) []byte {
	if b, ok := m.Files[name]; ok {
		return b
	}
	return m.Files[name+".txt"]
}

// readManifest reads the msg -> megaco_version columns of MANIFEST.tsv.
// A missing manifest is no error.
func readManifest(path string) (map[string]int, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	out := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	col := -1
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if col < 0 {
			for i, h := range f {
				if h == "megaco_version" {
					col = i
				}
			}
			if col < 0 {
				return nil, fmt.Errorf("corpus: %s: no megaco_version column", path)
			}
			continue
		}
		if len(f) <= col || f[0] == "" {
			continue
		}
		v, err := strconv.Atoi(f[col])
		if err != nil {
			return nil, fmt.Errorf("corpus: %s: %s: bad version %q", path, f[0], f[col])
		}
		out[f[0]] = v
	}
	return out, sc.Err()
}

package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// docPages are README.md, CHANGELOG.md and the pages under docs/, as
// paths from this directory.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md", "../../CHANGELOG.md"}, pages...)
}

// proseLines are a page's lines outside fenced code blocks, with their
// numbers.
func proseLines(t *testing.T, path string) (lines []string, numbers []int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fenced := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			lines, numbers = append(lines, line), append(numbers, n)
		}
	}
	return lines, numbers
}

// headingAnchors are the anchors GitHub gives a page's headings: the
// text in lower case, punctuation dropped, spaces as hyphens, a repeated
// one with -1, -2...
func headingAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	lines, _ := proseLines(t, path)
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, l := range lines {
		text, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " ")
		if !ok || !strings.HasPrefix(l, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(text)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors[a+"-"+string(rune('0'+n))] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinks checks that every relative link of README.md,
// CHANGELOG.md and docs/*.md names a file of the repository and, with
// #anchor, a heading of that page.
func TestDocsLinks(t *testing.T) {
	checked := 0
	for _, page := range docPages(t) {
		name := strings.TrimPrefix(filepath.ToSlash(page), "../../")
		lines, numbers := proseLines(t, page)
		for i, l := range lines {
			for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				path := page
				if file != "" {
					path = filepath.Join(filepath.Dir(page), file)
				}
				checked++
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: link %s: no such file", name, numbers[i], target)
					continue
				}
				if anchor != "" && !headingAnchors(t, path)[anchor] {
					t.Errorf("%s:%d: link %s: no heading with anchor #%s in %s", name, numbers[i], target, anchor, file)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d relative links found: the pages moved?", checked)
	}
}

// TestReadmeMapsEveryPage checks that README.md's map of the
// documentation links every page under docs/ and the changelog.
func TestReadmeMapsEveryPage(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, docMap, ok := strings.Cut(string(data), "\n## Documentation\n")
	if !ok {
		t.Fatal(`README.md has no "## Documentation" section`)
	}
	pages := docPages(t)[1:]
	for _, page := range pages {
		link := "](" + strings.TrimPrefix(filepath.ToSlash(page), "../../") + ")"
		if !strings.Contains(docMap, link) {
			t.Errorf("README.md's Documentation map lacks a row for %s", link[2:len(link)-1])
		}
	}
}

// helpFlag is a flag as -h shows it.
type helpFlag struct{ def, env string }

// helpFlags runs `megaco cmd -h` and reads its flag lines: the flag and
// type ("--mgc-listen udp|tcp://host:port"), the default and the
// variable.
func helpFlags(t *testing.T, cmd string) (order []string, flags map[string]helpFlag) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{cmd, "-h"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("megaco %s -h: exit %d\n%s", cmd, code, stderr.String())
	}
	_, list, _ := strings.Cut(stdout.String()+stderr.String(), "\nflags:\n")
	flags = map[string]helpFlag{}
	syn := ""
	for _, l := range strings.Split(list, "\n") {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		l = strings.TrimPrefix(l, "  ")
		explain := ""
		if strings.HasPrefix(l, "-") {
			s, rest, _ := strings.Cut(l, "  ")
			syn, explain = s, strings.TrimSpace(rest)
			order = append(order, syn)
		} else {
			explain = strings.TrimSpace(l)
		}
		if explain == "" {
			continue
		}
		var f helpFlag
		if i := strings.LastIndex(explain, " ("); i >= 0 && strings.HasSuffix(explain, ")") {
			meta := explain[i+2 : len(explain)-1]
			if d, ok := strings.CutPrefix(meta, "default "); ok {
				f.def = d
				if j := strings.LastIndex(d, ", env "); j >= 0 {
					f.def, f.env = d[:j], d[j+len(", env "):]
				}
			} else if e, ok := strings.CutPrefix(meta, "env "); ok {
				f.env = e
			}
		}
		flags[syn] = f
	}
	if len(order) == 0 {
		t.Fatalf("megaco %s -h lists no flags", cmd)
	}
	return order, flags
}

// tableCells splits a Markdown table row at its unescaped pipes.
func tableCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	var cells []string
	var b strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			b.WriteByte('|')
			i++
		case row[i] == '|':
			cells, b = append(cells, strings.TrimSpace(b.String())), strings.Builder{}
		default:
			b.WriteByte(row[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// TestDocsFlagTables checks the flag tables of docs/proxy.md,
// service.md, load.md and cli.md (transcode's) against the commands' -h: a row per flag, the
// flag and type written as -h writes them, the same default and
// variable, and no row for a flag -h does not have.
func TestDocsFlagTables(t *testing.T) {
	for page, cmd := range map[string]string{"proxy.md": "proxy", "service.md": "serve", "load.md": "load", "cli.md": "transcode"} {
		order, flags := helpFlags(t, cmd)
		lines, numbers := proseLines(t, filepath.Join("../../docs", page))
		rows := map[string]bool{}
		defCol, envCol := -1, -1
		for i, l := range lines {
			if !strings.HasPrefix(strings.TrimSpace(l), "|") {
				defCol, envCol = -1, -1
				continue
			}
			cells := tableCells(l)
			if cells[0] == "flag" {
				for j, c := range cells {
					switch c {
					case "default":
						defCol = j
					case "env":
						envCol = j
					}
				}
				continue
			}
			if defCol < 0 || !strings.HasPrefix(cells[0], "`-") {
				continue
			}
			syn := strings.Trim(cells[0], "`")
			rows[syn] = true
			f, ok := flags[syn]
			if !ok {
				t.Errorf("docs/%s:%d: %s: megaco %s -h has no such flag (or writes its type otherwise)", page, numbers[i], syn, cmd)
				continue
			}
			if got := strings.Trim(cells[defCol], "`"); got != f.def {
				t.Errorf("docs/%s:%d: %s: default %q, -h says %q", page, numbers[i], syn, got, f.def)
			}
			if envCol >= 0 {
				if got := strings.Trim(cells[envCol], "`"); got != f.env {
					t.Errorf("docs/%s:%d: %s: variable %q, -h says %q", page, numbers[i], syn, got, f.env)
				}
			} else if f.env != "" {
				t.Errorf("docs/%s: the table of %s has no env column, -h names %s", page, syn, f.env)
			}
		}
		for _, syn := range order {
			if !rows[syn] {
				t.Errorf("docs/%s: no row for %s (megaco %s -h)", page, syn, cmd)
			}
		}
	}
}

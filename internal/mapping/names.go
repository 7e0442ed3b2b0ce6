package mapping

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"megaco/internal/mapping/termid"
)

// Names is what a deployment provisions beyond the termination ID layout
// and the package registry: textual termination IDs that no layout
// expresses (RFC 3525's "A4444") and digit map names.
type Names struct {
	TermIDs   *TermIDNames      // nil: none
	DigitMaps map[string]uint16 // nil: none
}

// maxNames bounds a names file.
const maxNames = 1 << 20

// ReadNames reads a names file: an entry a line, fields separated by white
// space, "#" starting a comment.
//
//	termination  A4444       00000001/00000000/00000001   # name, ID in layout text
//	termination  AL{1-2048}  00000001/{n}                 # a range, layout [8,16]
//	digitmap     mydialplan  0x0102                       # name, 16-bit ID
//
// Termination IDs are checked against layout (nil: [8,8,8]) as
// NewTermIDNames does; names ignore case, and no two entries (single or
// range) may share a name or an ID. Errors give the line, and the column
// where a pattern is wrong; an overlap names both lines.
// docs/text-binary-mapping.md describes the patterns.
func ReadNames(r io.Reader, layout termid.Layout) (*Names, error) {
	n := &Names{}
	terms := newTermIDNames(layout)
	digitMaps := map[string]int{} // lower-case name -> line
	sc := bufio.NewScanner(r)
	line, count := 0, 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		f, cols := fields(text)
		if len(f) == 0 {
			continue
		}
		if count++; count > maxNames {
			return nil, fmt.Errorf("line %d: more than %d names", line, maxNames)
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: want 3 fields (kind, name, ID), found %d", line, len(f))
		}
		kind, name, id := f[0], f[1], f[2]
		switch strings.ToLower(kind) {
		case "termination":
			if err := terms.add(name, id, line, cols[1], cols[2]); err != nil {
				return nil, err
			}
			n.TermIDs = terms
		case "digitmap":
			v, err := strconv.ParseUint(id, 0, 16)
			if err != nil {
				return nil, fmt.Errorf("line %d: digit map ID %q is not a number from 0 to 65535 (0x0000 to 0xFFFF)", line, id)
			}
			key := strings.ToLower(name)
			if conv, ok := dialplanID(key); ok && conv != uint16(v) {
				return nil, fmt.Errorf("line %d: digit map name %q means ID 0x%04X by the dialplanXY convention, not %s", line, name, conv, id)
			}
			if prev, dup := digitMaps[key]; dup {
				return nil, fmt.Errorf("line %d: digit map name %q is already on line %d", line, name, prev)
			}
			digitMaps[key] = line
			if n.DigitMaps == nil {
				n.DigitMaps = map[string]uint16{}
			}
			n.DigitMaps[name] = uint16(v)
		default:
			return nil, fmt.Errorf("line %d: unknown kind %q (want termination or digitmap)", line, kind)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if err := terms.finish(); err != nil {
		return nil, err
	}
	return n, nil
}

// fields splits a line at white space, as strings.Fields does, and gives
// each field's 1-based column for errors.
func fields(line string) ([]string, []int) {
	var f []string
	var cols []int
	for i := 0; i < len(line); {
		if isSpace(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		f, cols = append(f, line[i:j]), append(cols, i+1)
		i = j
	}
	return f, cols
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// TermIDCount is the number of termination ID names (n may be nil).
func (n *Names) TermIDCount() int {
	if n == nil {
		return 0
	}
	return n.TermIDs.Len()
}

// DigitMapCount is the number of digit map names (n may be nil).
func (n *Names) DigitMapCount() int {
	if n == nil {
		return 0
	}
	return len(n.DigitMaps)
}

// dialplanID is the ID OTP's convention gives a digit map name of the form
// dialplanX or dialplanXY (lower case): X-'0', Y-'0'.
func dialplanID(name string) (uint16, bool) {
	suffix, ok := strings.CutPrefix(name, dialplan)
	if !ok || len(suffix) < 1 || len(suffix) > 2 {
		return 0, false
	}
	var out [2]byte
	for i := range len(suffix) {
		c := suffix[i]
		if !nameChar(c) {
			return 0, false
		}
		out[2-len(suffix)+i] = c - '0'
	}
	return uint16(out[0])<<8 | uint16(out[1]), true
}

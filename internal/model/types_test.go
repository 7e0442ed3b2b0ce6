package model

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestOctetsJSON(t *testing.T) {
	for _, c := range []struct {
		in   Octets
		want string
	}{
		{Octets("al/on"), `"al/on"`},
		{Octets{0, 9, 0, 5}, `"0x00090005"`},
		{Octets("0x12"), `"0x30783132"`}, // text that looks like hex is written as hex
		{Octets{}, `"0x"`},
		{Octets("say \"hi\""), `"say \"hi\""`},
	} {
		b, err := json.Marshal(c.in)
		if err != nil || string(b) != c.want {
			t.Errorf("%q: %s, %v; want %s", c.in, b, err, c.want)
		}
		var back Octets
		if err := json.Unmarshal(b, &back); err != nil || !bytes.Equal(back, c.in) {
			t.Errorf("%s does not read back: %q %v", b, back, err)
		}
	}
}

func TestOptJSON(t *testing.T) {
	type s struct {
		A Opt[uint32] `json:"a,omitzero"`
		B Opt[uint32] `json:"b,omitzero"`
	}
	b, _ := json.Marshal(s{A: Some[uint32](0)})
	if string(b) != `{"a":0}` {
		t.Errorf("got %s", b)
	}
	var back s
	if err := json.Unmarshal(b, &back); err != nil || !back.A.Present || back.B.Present {
		t.Errorf("read back %+v %v", back, err)
	}
}

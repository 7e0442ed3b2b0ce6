package text

import (
	"bytes"
	"reflect"
	"testing"
)

// TestCodec: a Codec decodes as Decode does, naming its style in errors;
// DecodeReused gives the same message, allocates nothing once warm, and
// has nothing to release after an error; Append writes the Codec's style.
func TestCodec(t *testing.T) {
	corpus := loadCorpus(t)
	for _, style := range []Style{Pretty, Compact} {
		c := Codec{Style: style}
		for _, msg := range corpus[:5] {
			in := msg.pretty
			if style == Compact {
				in = msg.compact
			}
			want, err := Decode(in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Decode(in)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: Codec.Decode differs from Decode (%v)", style, msg.name, err)
			}
			reused, release, err := c.DecodeReused(in)
			if err != nil || !reflect.DeepEqual(reused, want) {
				t.Errorf("%s %s: DecodeReused differs from Decode (%v)", style, msg.name, err)
			}
			release()
			out, err := c.Append(nil, want)
			if err != nil || !bytes.Equal(out, in) {
				t.Errorf("%s %s: Codec.Append: %v\n%s", style, msg.name, err, out)
			}
		}
		_, release, err := c.DecodeReused([]byte("!/1 [1.2.3.4]\nT=1{C=-{Foo=a}}"))
		if err == nil || err.Error() != style.String()+`: 2:9: expected a command, a context property, ContextAudit, O- or W- after '{', found "Foo"` {
			t.Errorf("%s: error %v", style, err)
		}
		release()
	}
	c, in := Codec{Style: Compact}, corpus[0].compact
	if n := testing.AllocsPerRun(20, func() {
		_, release, err := c.DecodeReused(in)
		if err != nil {
			t.Fatal(err)
		}
		release()
	}); n != 0 && !raceEnabled {
		t.Errorf("DecodeReused: %v allocations, want 0", n)
	}
}

package server

import (
	"net/url"
	"slices"
	"testing"
)

// parseQuery reads every query as net/url does: the same first value
// of each name, and the same names, known or not.
func TestParseQuery(t *testing.T) {
	known := []string{"from", "to", "version"}
	for _, raw := range []string{
		"", "to=ber", "from=compact&to=ber&version=3", "to=ber&to=per", "to", "to=", "&&to=ber&",
		"=x", "to=ber&bogus=1", "to=b%65r", "to=a+b", "to=ber;from=text", "to=%zz&from=ber",
		"a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&to=ber", "to=ber&from=a=b",
	} {
		q := parseQuery(raw)
		want, _ := url.ParseQuery(raw)
		for _, name := range append(known, "bogus", "", "a", "h") {
			if got := q.Get(name); got != want.Get(name) {
				t.Errorf("%q: %s=%q, net/url %q", raw, name, got, want.Get(name))
			}
		}
		name, ok := q.unknown(known)
		var unknown []string
		for n := range want {
			if !slices.Contains(known, n) {
				unknown = append(unknown, n)
			}
		}
		if ok != (len(unknown) > 0) || ok && !slices.Contains(unknown, name) {
			t.Errorf("%q: unknown %q, %v; net/url's unknown names %q", raw, name, ok, unknown)
		}
	}
}

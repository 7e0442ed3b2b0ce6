package load

import (
	"strings"
	"testing"
)

func TestParseList(t *testing.T) {
	eps, err := parseList("127.0.0.1:1, [::1]:2,localhost:3")
	if err != nil || len(eps) != 3 || eps[1].Addresses[0].Addr != "[::1]:2" {
		t.Errorf("parseList = %v, %v", eps, err)
	}
	for _, bad := range []string{"", "127.0.0.1", "a:1,,b:2", "a:1,b"} {
		if _, err := parseList(bad); err == nil {
			t.Errorf("parseList(%q): no error", bad)
		}
	}
}

func TestBalanced(t *testing.T) {
	two := []string{"127.0.0.1:1", "127.0.0.1:2"}
	for _, tc := range []struct {
		mode    string
		targets []string
		want    string
	}{
		{"unary", two, "list:///127.0.0.1:1,127.0.0.1:2"},
		{"stream", two, "127.0.0.1:1 127.0.0.1:2"},
		{"unary", []string{"127.0.0.1:1"}, "127.0.0.1:1"},
		{"unary", []string{"dns:///a:1", "b:2"}, "dns:///a:1 b:2"},
	} {
		if got := strings.Join(balanced(tc.mode, tc.targets), " "); got != tc.want {
			t.Errorf("balanced(%s, %v) = %q, want %q", tc.mode, tc.targets, got, tc.want)
		}
	}
}

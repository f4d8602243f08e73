package client

import (
	"maps"
	"testing"
)

func TestParseLink(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]string
	}{
		{"empty", "", map[string]string{}},
		{"github", `<https://api.github.com/orgs/x/repos?page=2>; rel="next", <https://api.github.com/orgs/x/repos?page=5>; rel="last"`,
			map[string]string{"next": "https://api.github.com/orgs/x/repos?page=2", "last": "https://api.github.com/orgs/x/repos?page=5"}},
		{"multiple rels", `<http://h/p?page=3>; rel="next last"`, map[string]string{"next": "http://h/p?page=3", "last": "http://h/p?page=3"}},
		{"bare rel and spaces", "  < http://h/a >  ;  rel = next  ,<http://h/b>;rel=prev", map[string]string{"next": "http://h/a", "prev": "http://h/b"}},
		{"comma and semicolon in URL", `<http://h/p?q=a,b;c&page=2>; rel="next", <http://h/p?q=a,b;c&page=9>; rel="last"`,
			map[string]string{"next": "http://h/p?q=a,b;c&page=2", "last": "http://h/p?q=a,b;c&page=9"}},
		{"other params", `<http://h/x>; title="a, b; c"; rel="next"; type="text/html"`, map[string]string{"next": "http://h/x"}},
		{"case", `<http://h/x>; REL="Next"`, map[string]string{"next": "http://h/x"}},
		{"first wins", `<http://h/1>; rel=next, <http://h/2>; rel=next`, map[string]string{"next": "http://h/1"}},
		{"first rel param wins", `<http://h/1>; rel=next; rel=last`, map[string]string{"next": "http://h/1"}},
		{"no rel", `<http://h/1>; title=x`, map[string]string{}},
		{"empty target", `<>; rel=next`, map[string]string{}},
		{"missing comma", `<http://h/1>; rel=prev <http://h/2>; rel=next`, map[string]string{"prev": "http://h/1", "next": "http://h/2"}},
		{"unterminated target", `<http://h/1; rel=next`, map[string]string{}},
		{"unterminated quote", `<http://h/1>; rel="next`, map[string]string{"next": "http://h/1"}},
		{"escaped quote", `<http://h/1>; title="a\"b"; rel="next"`, map[string]string{"next": "http://h/1"}},
		{"garbage", `;;,,rel=next <http://h/1> junk ; rel=next`, map[string]string{"next": "http://h/1"}},
		{"multiple headers joined", `<http://h/2>; rel="next", <http://h/9>; rel="last"`, map[string]string{"next": "http://h/2", "last": "http://h/9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseLink(tt.in)
			if !maps.Equal(got, tt.want) {
				t.Errorf("ParseLink(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseLinkMalformedNeverPanics(t *testing.T) {
	inputs := []string{"<", ">", "<>", ";", "=", `"`, `<a>;`, `<a>;rel`, `<a>;rel=`, `<a>;rel="`, `<a>;rel="\`, `<a>; =x`, "<a>\x00;rel=next", `<<<>>>;rel=next`, "\xff\xfe<\xff>;rel=\xff"}
	for _, in := range inputs {
		_ = ParseLink(in)
	}
}

func FuzzParseLink(f *testing.F) {
	for _, s := range []string{
		`<https://api.github.com/orgs/x/repos?page=2>; rel="next", <https://api.github.com/orgs/x/repos?page=5>; rel="last"`,
		`<http://h/p?page=3>; rel="next last"`,
		`<http://h/x>; title="a, b; c"; rel="next"`,
		`<http://h/1>; rel="next`,
		`<a>;rel="\`,
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for rel, target := range ParseLink(s) {
			if rel == "" || target == "" {
				t.Fatalf("ParseLink(%q) has empty rel or target: %q -> %q", s, rel, target)
			}
		}
	})
}

package engine

import (
	"regexp"
	"strings"
	"testing"
)

// TestLikeMatcherAgreesWithRegexp compares compileLike with a regexp
// translation of the same patterns.
func TestLikeMatcherAgreesWithRegexp(t *testing.T) {
	names := []string{"", "a", "repos", "Repos", "repo_keys", "pull_requests", "aaa", "abcabc", "x%y", "ß"}
	patterns := []string{"", "%", "%%", "_", "__", "a", "A%", "%s", "%o%", "re%s", "r_p%", "%a%a%", "%a%a%a%a%", "a%c", "%bc%bc", "abc%abc", "%%%_%%%", "x%y", "%_", "_%_%_"}
	for _, p := range patterns {
		var b strings.Builder
		b.WriteString("(?is)^")
		for _, r := range p {
			switch r {
			case '%':
				b.WriteString(".*")
			case '_':
				b.WriteString(".")
			default:
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		b.WriteString("$")
		re := regexp.MustCompile(b.String())
		m := compileLike(p)
		for _, n := range names {
			if got, want := m(n), re.MatchString(n); got != want {
				t.Errorf("LIKE %q on %q: got %v, want %v", p, n, got, want)
			}
		}
	}
}

func BenchmarkLikeHostile(b *testing.B) {
	m := compileLike(strings.Repeat("%", 260000))
	m2 := compileLike(strings.Repeat("%a", 130000))
	m3 := compileLike(strings.Repeat("%_", 20) + "%")
	for i := 0; i < b.N; i++ {
		m("secret_scanning_alerts")
		m2("secret_scanning_alerts")
		m3("secret_scanning_alerts")
	}
}

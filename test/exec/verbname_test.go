package exec_test

import (
	"strings"
	"testing"
)

// A table named by what it returns without its operation's verb
// (github.meta.zen for github.meta.get_zen) gets that table as its
// suggestion, in SELECT and DESCRIBE alike (README, "A short SQL tour").
func TestUnknownTableSuggestsVerbedName(t *testing.T) {
	for _, sql := range []string{`SELECT * FROM github.meta.zen`, `DESCRIBE github.meta.zen`} {
		r := run(t, sql)
		if r.Code != 1 || !strings.Contains(r.Stderr, "did you mean github.meta.get_zen?") {
			t.Errorf("%s: exit %d, stderr %q", sql, r.Code, r.Stderr)
		}
	}
}

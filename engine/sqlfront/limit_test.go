package sqlfront

import "testing"

// LimitZero is the outermost statement's literal LIMIT 0 only.
func TestLimitZero(t *testing.T) {
	for sql, want := range map[string]bool{
		"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 0":                                                             true,
		"SELECT count(*) FROM github.repos.repos WHERE org = 'a' ORDER BY 1 LIMIT 0 OFFSET 3":                                     true,
		"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 5, 0":                                                          true,
		"SELECT name FROM github.repos.repos WHERE org = 'a' UNION SELECT 'x' LIMIT 0":                                            true,
		"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 1":                                                             false,
		"SELECT name FROM github.repos.repos WHERE org = 'a'":                                                                     false,
		"SELECT count(*) FROM (SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 0) AS d":                                 false,
		"SELECT name FROM github.repos.repos WHERE org IN (SELECT 'a' LIMIT 0)":                                                   false,
		"WITH x AS (SELECT name FROM github.repos.repos WHERE org = 'a') SELECT * FROM x LIMIT 0":                                 true,
		"SELECT name FROM github.repos.repos WHERE org = 'a' UNION (SELECT name FROM github.repos.repos WHERE org = 'b' LIMIT 0)": false,
	} {
		st, err := Parse(sql, isGH)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if got := st.Query != nil && st.Query.LimitZero; got != want {
			t.Errorf("%s: LimitZero %t, want %t", sql, got, want)
		}
	}
}

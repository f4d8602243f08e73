package check

import "testing"

// An --only id that names no control says the ids a typo away.
func TestSelectSuggestsNearestID(t *testing.T) {
	src := "controls:\n" +
		"  - id: license\n    sql: SELECT 1\n" +
		"  - id: no-2fa\n    sql: SELECT 1\n" +
		"  - id: branch-protection\n    sql: SELECT 1\n"
	f, ps := Load("c.yaml", []byte(src))
	if len(ps) != 0 {
		t.Fatal(ps)
	}
	for id, want := range map[string]string{
		"licence":          "--only licence: no control has this id; did you mean license?",
		"LICENSE":          "--only LICENSE: no control has this id; did you mean license?",
		"branch-protecton": "--only branch-protecton: no control has this id; did you mean branch-protection?",
		"zzzzzz":           "--only zzzzzz: no control has this id",
	} {
		_, ps := Select(f, []string{id})
		if len(ps) != 1 || ps[0].Message != want {
			t.Errorf("%s: %v, want %q", id, ps, want)
		}
	}
}

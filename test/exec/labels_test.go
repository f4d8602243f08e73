package exec_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
)

// -o json never writes an object with a duplicate key: repeated column
// names get _2, _3 (skipping names already in the result).
func TestJSONOutputKeysAreUnique(t *testing.T) {
	r := run(t, "-o", "json", `SELECT name, name, 1 AS name_2, name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name LIMIT 1`)
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	want := `{"name":"alpha","name_3":"alpha","name_2":1,"name_4":"alpha"}`
	var rows []json.RawMessage
	if err := json.Unmarshal([]byte(r.Stdout), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("output %v: %s", err, r.Stdout)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, rows[0]); err != nil || compact.String() != want {
		t.Fatalf("got %s, want %s", compact.String(), want)
	}
}

// An unterminated string is reported as one, not as a /*! comment.
func TestUnterminatedStringIsNamed(t *testing.T) {
	r := run(t, "-o", "json", `SELECT name FROM github.repos.repos WHERE org = 'tiny`)
	if r.Code != 1 || !strings.Contains(r.Stderr, "unterminated string") || strings.Contains(r.Stderr, "/*!") || !strings.Contains(r.Stderr, `"kind":"sql"`) {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
}

// A response value SQLite cannot hold is the provider's fault: a number
// beyond a 64-bit float (1e999) and JSON nested deeper than SQLite's JSON
// functions read are kind provider (exit 2), naming the request, not
// internal or sql.
func TestUnusableResponseValuesAreProviderErrors(t *testing.T) {
	cases := []struct {
		kind      fakegithub.FaultKind
		sql, want string
	}{
		{fakegithub.KindHugeNumber, `SELECT name, stargazers_count FROM github.repos.repos WHERE org = 'tiny'`, "property stargazers_count: the number 1e999 is out of the range"},
		{fakegithub.KindDeepNesting, `SELECT name, json_array_length(topics) AS n FROM github.repos.repos WHERE org = 'tiny'`, "property topics: JSON nested 1500 levels deep"},
	}
	for _, c := range cases {
		t.Run(string(c.kind), func(t *testing.T) {
			fake.ClearFaults()
			defer fake.ClearFaults()
			fake.Inject(fakegithub.Fault{Path: "^/orgs/tiny/repos$", Kind: c.kind})
			r := run(t, "-o", "json", c.sql)
			var body errorBody
			if err := json.Unmarshal([]byte(r.Stderr), &body); err != nil {
				t.Fatalf("exit %d, stderr %s", r.Code, r.Stderr)
			}
			e := body.Error
			if r.Code != 2 || e.Kind != "provider" || e.Provider != "github" || !strings.Contains(e.Message, "GET /orgs/tiny/repos") || !strings.Contains(e.Message, c.want) {
				t.Fatalf("exit %d: %+v", r.Code, e)
			}
		})
	}
}

package exec_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// A LIMIT is pushed into pagination only when SQLite runs the statement
// as a plain scan. Aggregates and window functions that vitess's MySQL
// list does not know (json_group_array, string_agg, json_group_object)
// need every row: the fake's org acme has 250 repositories over 3 pages.
func TestLimitPushdownFollowsSQLite(t *testing.T) {
	all := names(func(int) bool { return true })
	cases := []struct {
		name, sql string
		requests  int
		check     func(t *testing.T, out string)
	}{
		{"json_group_array", `SELECT json_group_array(name) AS a FROM github.repos.repos WHERE org = 'acme' LIMIT 1`, 3,
			func(t *testing.T, out string) {
				var rows []struct{ A string }
				var got []string
				if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 {
					t.Fatalf("bad output %v: %.200s", err, out)
				}
				if err := json.Unmarshal([]byte(rows[0].A), &got); err != nil {
					t.Fatal(err)
				}
				sort.Strings(got)
				if strings.Join(got, ",") != strings.Join(all, ",") {
					t.Fatalf("json_group_array LIMIT 1 returned %d names, want all %d", len(got), len(all))
				}
			}},
		{"string_agg", `SELECT length(string_agg(name, ',')) AS n FROM github.repos.repos WHERE org = 'acme' LIMIT 1`, 3,
			wantJSON(`[{"n":` + itoa(len(strings.Join(all, ","))) + `}]`)},
		{"group_concat", `SELECT length(group_concat(name)) AS n FROM github.repos.repos WHERE org = 'acme' LIMIT 1`, 3,
			wantJSON(`[{"n":` + itoa(len(strings.Join(all, ","))) + `}]`)},
		{"json_group_object", `SELECT json_group_object(name, id) AS o FROM github.repos.repos WHERE org = 'acme' LIMIT 1`, 3,
			func(t *testing.T, out string) {
				var rows []struct{ O string }
				var got map[string]any
				if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 {
					t.Fatalf("bad output %v: %.200s", err, out)
				}
				if err := json.Unmarshal([]byte(rows[0].O), &got); err != nil || len(got) != 250 {
					t.Fatalf("json_group_object LIMIT 1 has %d keys (%v), want 250", len(got), err)
				}
			}},
		{"window count", `SELECT count(*) OVER () AS n FROM github.repos.repos WHERE org = 'acme' LIMIT 1`, 3,
			wantJSON(`[{"n":250}]`)},
		{"total", `SELECT total(stargazers_count) > 0 AS t, count(*) AS n FROM github.repos.repos WHERE org = 'acme' LIMIT 1`, 3,
			wantJSON(`[{"t":1,"n":250}]`)},
		{"plain scan still stops", `SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 5`, 1,
			wantJSON(`[{"name":"repo-249"},{"name":"repo-248"},{"name":"repo-247"},{"name":"repo-246"},{"name":"repo-245"}]`)},
		{"plain scan with expressions still stops", `SELECT upper(name) || '!' AS n, json_extract(owner, '$.login') AS o FROM github.repos.repos WHERE org = 'acme' LIMIT 2`, 1,
			wantJSON(`[{"n":"REPO-249!","o":"acme"},{"n":"REPO-248!","o":"acme"}]`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake.ResetRequests()
			r := run(t, "-o", "json", c.sql)
			if r.Code != 0 {
				t.Fatalf("exit %d: %s", r.Code, r.Stderr)
			}
			c.check(t, r.Stdout)
			if n := requestsTo("/orgs/acme/repos"); n != c.requests {
				t.Fatalf("%d requests, want %d", n, c.requests)
			}
			// EXPLAIN tells the same, without a request.
			fake.ResetRequests()
			e := run(t, "-o", "csv", "EXPLAIN "+c.sql)
			if stops := strings.Contains(e.Stdout, "stops after"); e.Code != 0 || stops != (c.requests == 1) || len(fake.Requests()) != 0 {
				t.Fatalf("EXPLAIN (exit %d, %d requests): %s", e.Code, len(fake.Requests()), e.Stdout)
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// wantJSON compares the output with want as JSON values.
func wantJSON(want string) func(t *testing.T, out string) {
	return func(t *testing.T, out string) {
		t.Helper()
		var got, exp any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("output is not JSON: %v: %.300s", err, out)
		}
		if err := json.Unmarshal([]byte(want), &exp); err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		e, _ := json.Marshal(exp)
		if string(g) != string(e) {
			t.Fatalf("got  %s\nwant %s", g, e)
		}
	}
}

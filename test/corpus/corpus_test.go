// Package corpus_test loads real public OpenAPI descriptions of well-known
// APIs (test/testdata/openapi, see its README for sources and licences)
// with --provider through the built binary and checks that every table's
// DESCRIBE works, every printed name parses back, and every GET method
// plans (EXPLAIN) with its required parameters bound. No request is made:
// EXPLAIN and discovery are answered from the derived index.
package corpus_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// minShare is, per document, the share of GET methods that plan, as
// measured (docs/reliability.md); the test fails below it. A document
// listed with 0 is refused as a whole, and must be refused as a problem
// with the document (exit 1), never as an internal error.
var minShare = map[string]float64{
	"asana":        1,
	"box":          1,
	"discourse":    1,
	"jira":         1,
	"launchdarkly": 1,
	"twilio":       1,
	"digitalocean": 0, // external $refs to files the description does not ship
}

func TestCorpusPlans(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testutil.RepoRoot(), "test", "testdata", "openapi", "*.json.gz"))
	if err != nil || len(files) < 5 {
		t.Fatalf("want at least 5 documents in test/testdata/openapi, got %d (%v)", len(files), err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json.gz")
		want, ok := minShare[name]
		if !ok {
			t.Fatalf("%s: no expected share in minShare", name)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkDocument(t, name, f, want)
		})
	}
}

func checkDocument(t *testing.T, name, file string, want float64) {
	s := &session{t: t, args: []string{"shell", "-o", "json", "--provider", "p=" + file}, env: testutil.Env(t)}
	res, fails := s.run([]string{"SHOW RESOURCES IN p"})
	if want == 0 {
		if len(fails) != 1 || !strings.Contains(fails[0], "error (plan): provider p: ") || strings.Contains(fails[0], "bug") || strings.Count(fails[0], "provider p:") != 1 {
			t.Fatalf("%s: want the document refused as a plan error naming it once, got %q", name, fails)
		}
		t.Logf("%s: refused as a whole: %s", name, firstLine(fails[0]))
		return
	}
	if len(fails) > 0 {
		t.Fatalf("SHOW RESOURCES: %s", fails[0])
	}
	var tables []string
	for _, row := range res[0] {
		tables = append(tables, fmt.Sprint(row["full_name"]))
	}
	if len(tables) == 0 {
		t.Fatal("no tables")
	}
	// Every printed name parses: DESCRIBE and SHOW METHODS take it as printed.
	var stmts []string
	for _, tb := range tables {
		stmts = append(stmts, "DESCRIBE "+tb, "SHOW METHODS IN "+tb)
	}
	res, fails = s.run(stmts)
	if len(fails) > 0 {
		t.Fatalf("%d of %d DESCRIBE/SHOW METHODS statements fail, e.g. %s", len(fails), len(stmts), fails[0])
	}
	// One EXPLAIN per method, every required parameter bound with a
	// literal of its type, names quoted with backticks as written.
	stmts = stmts[:0]
	for i, tb := range tables {
		types := map[string]string{}
		for _, row := range res[2*i] {
			if k := fmt.Sprint(row["kind"]); k == "required key" || k == "optional key" {
				types[fmt.Sprint(row["name"])] = fmt.Sprint(row["type"])
			}
		}
		for _, m := range res[2*i+1] {
			var conds []string
			if req := fmt.Sprint(m["required_params"]); req != "" {
				for _, p := range strings.Split(req, ", ") {
					conds = append(conds, "`"+p+"` = "+literal(types[p]))
				}
			}
			q := "EXPLAIN SELECT * FROM " + tb + "." + fmt.Sprint(m["method"])
			if len(conds) > 0 {
				q += " WHERE " + strings.Join(conds, " AND ")
			}
			stmts = append(stmts, q)
		}
	}
	_, fails = s.run(stmts)
	share := float64(len(stmts)-len(fails)) / float64(len(stmts))
	t.Logf("%s: %d tables, %d GET methods, %d plan (%.1f%%)", name, len(tables), len(stmts), len(stmts)-len(fails), 100*share)
	for i, f := range fails {
		if i < 5 {
			t.Logf("  fails: %s", firstLine(f))
		}
	}
	if share < want {
		t.Fatalf("%s: %.1f%% of methods plan, want at least %.1f%%", name, 100*share, 100*want)
	}
}

func literal(typ string) string {
	switch typ {
	case "INTEGER", "REAL":
		return "1"
	case "BOOLEAN":
		return "true"
	}
	return "'x'"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// session runs statements through `engine shell` with stdin, one per
// line; the shell stops at the first error, so the rest is run again in
// a new process after it.
type session struct {
	t    *testing.T
	args []string
	env  []string
}

// run returns one decoded JSON result per statement (nil for a failed
// one) and the error text of each failed statement.
func (s *session) run(stmts []string) ([][]map[string]any, []string) {
	out := make([][]map[string]any, len(stmts))
	var fails []string
	for start := 0; start < len(stmts); {
		r := testutil.Run(s.t, s.env, strings.Join(stmts[start:], ";\n")+";\n", s.args...)
		if strings.Contains(r.Stderr, "panic") || strings.Contains(r.Stderr, "this is a bug") {
			s.t.Fatalf("internal error after %q:\n%s", stmts[start], r.Stderr)
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(r.Stdout)))
		n := 0
		for ; start+n < len(stmts); n++ {
			var rows []map[string]any
			if err := dec.Decode(&rows); err == io.EOF {
				break
			} else if err != nil {
				s.t.Fatalf("stdout is not a stream of JSON arrays: %v\n%s", err, r.Stdout)
			}
			out[start+n] = rows
		}
		if r.Code == 0 {
			if start+n != len(stmts) {
				s.t.Fatalf("exit 0 with %d of %d results", start+n, len(stmts))
			}
			break
		}
		if start+n >= len(stmts) {
			s.t.Fatalf("exit %d after every result:\n%s", r.Code, r.Stderr)
		}
		msg := r.Stderr
		if i := strings.Index(msg, "error ("); i >= 0 {
			msg = msg[i:]
		}
		fails = append(fails, stmts[start+n]+": "+strings.TrimSpace(msg))
		start += n + 1
	}
	return out, fails
}

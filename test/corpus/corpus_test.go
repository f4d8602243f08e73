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
	"regexp"
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
	"digitalocean": 1, // external $refs to files it does not ship, none needed by a GET
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
	f := measure(t, file)
	if want == 0 {
		if f.refused == "" || !strings.Contains(f.refused, "error (plan): provider p: ") || strings.Contains(f.refused, "bug") || strings.Count(f.refused, "provider p:") != 1 {
			t.Fatalf("%s: want the document refused as a plan error naming it once, got %q", name, f.refused)
		}
		t.Logf("%s: refused as a whole: %s", name, firstLine(f.refused))
		return
	}
	if f.refused != "" {
		t.Fatalf("SHOW RESOURCES: %s", f.refused)
	}
	if f.tables == 0 {
		t.Fatal("no tables")
	}
	if len(f.nameFails) > 0 {
		t.Fatalf("%d of %d DESCRIBE/SHOW METHODS statements fail, e.g. %s", len(f.nameFails), 2*f.tables, f.nameFails[0])
	}
	share := f.share()
	t.Logf("%s: %d tables, %d GET methods, %d plan (%.1f%%)", name, f.tables, f.methods, f.planned, 100*share)
	for i, x := range f.planFails {
		if i < 5 {
			t.Logf("  fails: %s", firstLine(x))
		}
	}
	if share < want {
		t.Fatalf("%s: %.1f%% of methods plan, want at least %.1f%%", name, 100*share, 100*want)
	}
}

// figures of one document.
type figures struct {
	refused          string // the error of SHOW RESOURCES, when the document is refused
	tables           int
	nameFails        []string // DESCRIBE / SHOW METHODS of a printed name that failed
	methods, planned int
	planFails        []string
}

func (f figures) share() float64 {
	if f.methods == 0 {
		return 1
	}
	return float64(f.planned) / float64(f.methods)
}

// measure loads file as provider p through the binary: SHOW RESOURCES,
// then DESCRIBE and SHOW METHODS of every printed name, then one EXPLAIN
// per method with every required parameter bound by a literal of its
// type (names quoted with backticks as printed).
func measure(t *testing.T, file string) figures {
	var f figures
	s := &session{t: t, args: []string{"shell", "-o", "json", "--provider", "p=" + file}, env: testutil.Env(t)}
	res, fails := s.run([]string{"SHOW RESOURCES IN p"})
	if len(fails) > 0 {
		f.refused = fails[0]
		return f
	}
	var tables []string
	for _, row := range res[0] {
		tables = append(tables, fmt.Sprint(row["full_name"]))
	}
	f.tables = len(tables)
	var stmts []string
	for _, tb := range tables {
		stmts = append(stmts, "DESCRIBE "+tb, "SHOW METHODS IN "+tb)
	}
	res, f.nameFails = s.run(stmts)
	stmts = stmts[:0]
	for i, tb := range tables {
		types, values := map[string]string{}, map[string]string{}
		for _, row := range res[2*i] {
			if k := fmt.Sprint(row["kind"]); k == "required key" || k == "optional key" {
				types[fmt.Sprint(row["name"])] = fmt.Sprint(row["type"])
				// a key that takes listed values is bound with one of them
				if m := oneOf.FindStringSubmatch(fmt.Sprint(row["description"])); m != nil {
					values[fmt.Sprint(row["name"])] = m[1]
				}
			}
		}
		for _, m := range res[2*i+1] {
			var conds []string
			if req := fmt.Sprint(m["required_params"]); req != "" {
				for _, p := range strings.Split(req, ", ") {
					conds = append(conds, "`"+p+"` = "+literal(types[p], values[p]))
				}
			}
			q := "EXPLAIN SELECT * FROM " + tb + "." + fmt.Sprint(m["method"])
			if len(conds) > 0 {
				q += " WHERE " + strings.Join(conds, " AND ")
			}
			stmts = append(stmts, q)
		}
	}
	_, f.planFails = s.run(stmts)
	f.methods, f.planned = len(stmts), len(stmts)-len(f.planFails)
	return f
}

// oneOf reads the first value of a key DESCRIBE lists the values of
// ("One of open, closed, all (default open).").
var oneOf = regexp.MustCompile(`(?i)one of ([^,.() ]+)`)

// literal is a value of a key of the type: value when DESCRIBE lists the
// values it takes.
func literal(typ, value string) string {
	if value != "" {
		if typ == "INTEGER" {
			return value
		}
		return "'" + strings.ReplaceAll(value, "'", "''") + "'"
	}
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

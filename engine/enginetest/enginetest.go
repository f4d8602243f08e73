// Package enginetest runs SQL statements through the engine in-process,
// against a Fake fetcher that serves pages from memory instead of the
// providers' HTTP clients (engine.Options.Fetch): tables of statement ->
// expected rows, requests and errors test the planner and the runner
// (fan-out, bindings from other tables, LIMIT pushdown, request limits,
// faults) without a server or a binary, in milliseconds, as
// go-mysql-server's enginetest does for its engine. The providers are the
// embedded definitions; the suites under test/ drive the built binary
// against fake servers instead.
package enginetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/exec"
	"github.com/enginehq/engine/engine/result"
)

// Case is one statement and what it must give.
type Case struct {
	Name string
	SQL  string
	// Pages are added to (and override) the pages Run was given, for this
	// case.
	Pages map[string][]Page
	// Want are the result's rows in order, each the text of its cells
	// (result.Text) joined by tabs. Ignored when Err is set.
	Want []string
	// Err, when set, is a part of the error the statement must fail
	// with; it must return no row.
	Err string
	// Sent, when set, are the pages the statement must have requested
	// (Fake.Sent: sorted); empty with NoneSent.
	Sent []string
	// NoneSent requires that no page was requested.
	NoneSent bool
	// Explain, when set, is a part of the prepared plan's text.
	Explain string
	// MaxRequests is the engine's request limit (0: its default).
	MaxRequests int
	// NullIsError runs the statement as engine check does
	// (engine.QueryOptions.NullIsError).
	NullIsError bool
	// Notice, when set, is a part of the result's notice; "-" requires
	// none.
	Notice string
}

// Run runs every case on its own engine whose fetcher, for every
// provider, is a Fake serving pages (then the case's Pages). Each
// statement is prepared (its plan's text checked against Explain), then
// run, and its rows streamed out as a surface reads them.
func Run(t *testing.T, pages map[string][]Page, cases []Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			all := make(map[string][]Page, len(pages)+len(c.Pages))
			for k, v := range pages {
				all[k] = v
			}
			for k, v := range c.Pages {
				all[k] = v
			}
			fake := NewFake(all)
			eng, err := engine.New(engine.Options{
				Getenv:      func(string) string { return "" },
				MaxRequests: c.MaxRequests,
				Fetch:       func(string) (exec.Fetcher, error) { return fake, nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			rows, notice, err := run(eng, c)
			switch {
			case err == nil && c.Notice == "-" && notice != "":
				t.Errorf("%s: notice %q, want none", c.SQL, notice)
			case err == nil && c.Notice != "" && c.Notice != "-" && !strings.Contains(notice, c.Notice):
				t.Errorf("%s: notice %q, want one with %q", c.SQL, notice, c.Notice)
			}
			switch {
			case c.Err != "" && err == nil:
				t.Errorf("%s: no error, want one with %q; rows %q", c.SQL, c.Err, rows)
			case c.Err != "" && !strings.Contains(err.Error(), c.Err):
				t.Errorf("%s: error %q, want one with %q", c.SQL, err, c.Err)
			case c.Err != "" && len(rows) > 0:
				t.Errorf("%s: failed with %d rows out: %q", c.SQL, len(rows), rows)
			case c.Err == "" && err != nil:
				t.Errorf("%s: %v", c.SQL, err)
			case c.Err == "" && !slices.Equal(rows, c.Want):
				t.Errorf("%s:\n got rows %q\nwant rows %q", c.SQL, rows, c.Want)
			}
			sent := fake.Sent()
			if (c.Sent != nil || c.NoneSent) && !slices.Equal(sent, c.Sent) {
				t.Errorf("%s:\n sent %q\nwant %q", c.SQL, sent, c.Sent)
			}
		})
	}
}

// run prepares and runs one case's statement and returns its rows and
// notice.
func run(eng *engine.Engine, c Case) ([]string, string, error) {
	ctx := context.Background()
	ps, err := eng.Prepare(ctx, c.SQL)
	if err != nil {
		return nil, "", err
	}
	if c.Explain != "" && !strings.Contains(ps.Explain(), c.Explain) {
		return nil, "", fmt.Errorf("the plan lacks %q:\n%s", c.Explain, ps.Explain())
	}
	var rows []string
	res, err := ps.Run(ctx, engine.QueryOptions{NullIsError: c.NullIsError, Rows: func(row []any) error {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = result.Text(v)
		}
		rows = append(rows, strings.Join(cells, "\t"))
		return nil
	}})
	if err != nil {
		return rows, "", err
	}
	return rows, res.Notice, nil
}

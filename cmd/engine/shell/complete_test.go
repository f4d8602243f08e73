package shell

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/registry"
)

func complete(t *testing.T, c *completer, line string) []string {
	t.Helper()
	cands, n := c.Do([]rune(line), len([]rune(line)))
	var out []string
	for _, s := range cands {
		out = append(out, line[len(line)-n:]+string(s))
	}
	sort.Strings(out)
	return out
}

func newTestCompleter(t *testing.T, pending string) *completer {
	eng, err := engine.New(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return newCompleter(eng, func() string { return pending })
}

// completion is a line and the completions it should get (nil: none).
type completion struct {
	line string
	want []string
}

// wantCompletions fails for each case whose completions differ.
func wantCompletions(t *testing.T, c *completer, cases []completion) {
	t.Helper()
	for _, tc := range cases {
		if got := complete(t, c, tc.line); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q -> %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestCompleteQualifiedNames(t *testing.T) {
	wantCompletions(t, newTestCompleter(t, ""), []completion{
		{"SELECT * FROM github.pulls.pu", []string{"github.pulls.pulls"}},
		{"SELECT * FROM github.branc", []string{"github.branches."}},
		{"SELECT * FROM gith", []string{"github."}},
		{"SELECT * FROM nope.re", nil}, // unknown provider
	})
}

func TestCompleteKeywordsKeepCase(t *testing.T) {
	wantCompletions(t, newTestCompleter(t, ""), []completion{
		{"SEL", []string{"SELECT"}},
		{"sel", []string{"select"}},
		{".ti", []string{".timer"}},
	})
}

func TestCompleteColumnsOfMentionedTables(t *testing.T) {
	// the table is on an earlier line of the statement
	c := newTestCompleter(t, "SELECT name\nFROM github.repos.repos\n")
	got := complete(t, c, "WHERE stargaz")
	if !reflect.DeepEqual(got, []string{"stargazers_count", "stargazers_url"}) {
		t.Errorf("stargaz -> %q", got)
	}
	// WHERE keys (method parameters) complete too
	if got := complete(t, c, "WHERE or"); !contains(got, "org") {
		t.Errorf("or -> %q", got)
	}
	// no table, no columns
	if got := complete(t, newTestCompleter(t, ""), "SELECT stargaz"); got != nil {
		t.Errorf("without a table: %q", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestFooter(t *testing.T) {
	r := &result.Result{Stats: result.Stats{HTTPRequests: 3, Pages: 3, Elapsed: 420 * time.Millisecond}}
	if got := footer(r, 250, true); got != "250 rows (3 HTTP requests, 3 pages, 0.42 s)" {
		t.Errorf("footer = %q", got)
	}
	r = &result.Result{Stats: result.Stats{HTTPRequests: 1, Pages: 1, CacheHits: 1}}
	if got := footer(r, 1, false); got != "1 row (1 HTTP request, 1 page, 1 from cache)" {
		t.Errorf("footer = %q", got)
	}
}

func TestHistoryPathAndMode(t *testing.T) {
	env := map[string]string{"XDG_STATE_HOME": "/x/state", "HOME": "/home/u"}
	getenv := func(k string) string { return env[k] }
	if p, _ := HistoryPath(getenv); p != "/x/state/engine/history" {
		t.Errorf("XDG: %s", p)
	}
	env["XDG_STATE_HOME"] = "relative"
	if p, _ := HistoryPath(getenv); p != "/home/u/.local/state/engine/history" {
		t.Errorf("fallback: %s", p)
	}
	path := filepath.Join(t.TempDir(), "state", "engine", "history")
	if err := prepareHistory(path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("history file: %v %v", fi, err)
	}
	di, _ := os.Stat(filepath.Dir(path))
	if di.Mode().Perm() != 0o700 {
		t.Errorf("history dir mode %v", di.Mode().Perm())
	}
}

// TestCompleteViewNames: the views of the data directory (and a
// caller's) are completed like table names, read at each completion, so
// one created after the shell started is offered too.
func TestCompleteViewNames(t *testing.T) {
	store, err := registry.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Options{Store: store, Views: map[string]string{"file_view": "SELECT 1"}})
	if err != nil {
		t.Fatal(err)
	}
	c := newCompleter(eng, func() string { return "" })
	wantCompletions(t, c, []completion{{"SELECT * FROM repo_l", nil}, {"SELECT * FROM file_", []string{"file_view"}}})
	if err := store.PutView(registry.StoredView{Name: "repo_langs", Query: "SELECT 1"}); err != nil {
		t.Fatal(err)
	}
	wantCompletions(t, c, []completion{{"SELECT * FROM repo_l", []string{"repo_langs"}}, {"show vie", []string{"view", "views"}}})
}

package exec_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// GitHub serves at most the first 1,000 results of a search (the fake
// models it: Link stops at result 1,000, a page past it answers 422, and
// total_count counts every match). Org "sprawl" has 2,500 repositories
// created one every 17 hours from 2020-01-01, so a search for all of them
// must be split by created: ranges, or fail; never 1,000 rows and exit 0.

// sprawlCreated is the creation time of sprawl's repository i.
func sprawlCreated(i int) time.Time {
	return time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * fakegithub.SprawlSpacing)
}

// sprawlSince counts sprawl's repositories created at or after t.
func sprawlSince(t time.Time) int {
	n := 0
	for i := range fakegithub.SprawlRepos {
		if !sprawlCreated(i).Before(t) {
			n++
		}
	}
	return n
}

// searchQs returns the q of every repository search the fake answered,
// with its status and page.
func searchQs(s *fakegithub.Server) (qs []string, statuses []int, pages []int) {
	for _, r := range s.Requests() {
		if r.Path != "/search/repositories" {
			continue
		}
		v, _ := url.ParseQuery(r.RawQuery)
		qs = append(qs, v.Get("q"))
		statuses = append(statuses, r.Status)
		pages = append(pages, r.Page)
	}
	return qs, statuses, pages
}

func TestSearchOverCapIsSplit(t *testing.T) {
	s := ownFake(t)
	r, _ := execOn(t, s, "--stats", `SELECT count(*) AS n, count(DISTINCT id) AS d, min(created_at) AS first, max(created_at) AS last FROM github.search.repos WHERE q = 'org:sprawl'`)
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	rows := testutil.JSONRows(t, r)
	if len(rows) != 1 || rows[0]["n"] != float64(fakegithub.SprawlRepos) || rows[0]["d"] != float64(fakegithub.SprawlRepos) ||
		rows[0]["first"] != "2020-01-01T00:00:00Z" || rows[0]["last"] != sprawlCreated(fakegithub.SprawlRepos-1).Format(time.RFC3339) {
		t.Fatalf("rows %v, want all %d repositories once", rows, fakegithub.SprawlRepos)
	}
	qs, statuses, pages := searchQs(s)
	for i, q := range qs {
		if statuses[i] != 200 || pages[i] > 10 {
			t.Errorf("request %d (q %q, page %d) answered %d: the engine asked past the cap", i, q, pages[i], statuses[i])
		}
		if i > 0 && !strings.Contains(q, " created:") {
			t.Errorf("request %d has no created: range: %q", i, q)
		}
	}
	// Stats show the split: its parts and its requests.
	var st struct {
		Stats struct {
			HTTPRequests int      `json:"http_requests"`
			Parts        int      `json:"parts"`
			Methods      []string `json:"methods"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(r.Stderr), &st); err != nil {
		t.Fatalf("stats: %v\n%s", err, r.Stderr)
	}
	if st.Stats.Parts < 3 || st.Stats.HTTPRequests != len(qs) || len(st.Stats.Methods) != 1 || !strings.Contains(st.Stats.Methods[0], "split by created: into") {
		t.Fatalf("stats %+v (%d search requests)", st.Stats, len(qs))
	}
	// 2,500 rows need at least 25 pages of 100; the split costs some more.
	if len(qs) < 25 || len(qs) > 60 {
		t.Errorf("%d requests for %d rows", len(qs), fakegithub.SprawlRepos)
	}
	t.Logf("%d rows in %d requests, %d parts", fakegithub.SprawlRepos, len(qs), st.Stats.Parts)
}

// The second example: a filter SQLite applies after the search
// (created_at >= '2023') counted 0 when only the 1,000 oldest were read.
func TestSearchOverCapFilterAfter(t *testing.T) {
	s := ownFake(t)
	r, _ := execOn(t, s, `SELECT count(DISTINCT id) AS n FROM github.search.repos WHERE q = 'org:sprawl' AND created_at >= '2023'`)
	want := sprawlSince(time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC))
	if rows := testutil.JSONRows(t, r); r.Code != 0 || len(rows) != 1 || rows[0]["n"] != float64(want) {
		t.Fatalf("exit %d rows %s, want n=%d", r.Code, r.Stdout, want)
	}
}

// The user's own created: qualifier stays in every request and bounds the
// ranges the engine adds.
func TestSearchOverCapUserRange(t *testing.T) {
	s := ownFake(t)
	since := time.Date(2021, 6, 1, 0, 0, 0, 0, time.UTC)
	want := sprawlSince(since)
	if want <= fakegithub.SearchCap {
		t.Fatalf("test data: %d matches do not exceed the cap", want)
	}
	r, _ := execOn(t, s, `SELECT count(*) AS n, count(DISTINCT id) AS d, min(created_at) AS first FROM github.search.repos WHERE q = 'org:sprawl created:>=2021-06-01'`)
	rows := testutil.JSONRows(t, r)
	if r.Code != 0 || len(rows) != 1 || rows[0]["n"] != float64(want) || rows[0]["d"] != float64(want) || rows[0]["first"].(string) < "2021-06-01" {
		t.Fatalf("exit %d rows %v, want %d", r.Code, rows, want)
	}
	qs, _, _ := searchQs(s)
	for _, q := range qs {
		if !strings.Contains(q, "created:>=2021-06-01") {
			t.Errorf("the user's qualifier was dropped: %q", q)
		}
		if i := strings.Index(q, " created:20"); i >= 0 && q[i+9:i+19] < "2021-05-31" {
			t.Errorf("range %q starts before the user's bound (less a day)", q[i:])
		}
		if strings.Contains(q, "created:*..") {
			t.Errorf("open range before the user's bound: %q", q)
		}
	}
}

// LIMIT pushed down: n <= 1,000 is read without a split, n > 1,000 with
// one; both succeed with n rows.
func TestSearchOverCapLimit(t *testing.T) {
	s := ownFake(t)
	r, _ := execOn(t, s, `SELECT id FROM github.search.repos WHERE q = 'org:sprawl' LIMIT 150`)
	if rows := testutil.JSONRows(t, r); r.Code != 0 || len(rows) != 150 {
		t.Fatalf("LIMIT 150: exit %d, %d rows\n%s", r.Code, len(rows), r.Stderr)
	}
	if qs, _, _ := searchQs(s); len(qs) != 2 || strings.Contains(strings.Join(qs, ""), "created:") {
		t.Fatalf("LIMIT 150 sent %q, want two pages of the search as written", qs)
	}
	s.ResetRequests()
	r, _ = execOn(t, s, `SELECT id FROM github.search.repos WHERE q = 'org:sprawl' LIMIT 1500`)
	rows := testutil.JSONRows(t, r)
	if r.Code != 0 || len(rows) != 1500 {
		t.Fatalf("LIMIT 1500: exit %d, %d rows\n%s", r.Code, len(rows), r.Stderr)
	}
	seen := map[float64]bool{}
	for _, row := range rows {
		seen[row["id"].(float64)] = true
	}
	if len(seen) != 1500 {
		t.Fatalf("LIMIT 1500: %d distinct ids", len(seen))
	}
}

// Code search has no date qualifier: past the cap it fails with kind
// incomplete (exit 2, no rows), naming both counts and the way out; a
// LIMIT within the cap still succeeds.
func TestSearchOverCapUnsplittable(t *testing.T) {
	s := ownFake(t)
	sql := `SELECT count(*) AS n FROM github.search.code WHERE q = 'org:sprawl'`
	r, eb := execOn(t, s, sql)
	if r.Code != 2 || r.Stdout != "" {
		t.Fatalf("exit %d, want 2 and no rows\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	e := eb.Error
	if e.Kind != "incomplete" || e.Retryable || e.Provider != "github" {
		t.Fatalf("error %+v", e)
	}
	for _, want := range []string{"2500", "first 1000", "date qualifier", "narrow the search", "LIMIT"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message lacks %q: %s", want, e.Message)
		}
	}
	for _, req := range s.Requests() {
		if req.Status != 200 {
			t.Errorf("request %s?%s answered %d", req.Path, req.RawQuery, req.Status)
		}
	}
	rt := testutil.Run(t, execEnvOn(t, s), "", "exec", sql)
	if rt.Code != 2 || !strings.Contains(rt.Stderr, "error (incomplete)") || !strings.Contains(rt.Stderr, "not retryable") {
		t.Fatalf("text error: exit %d\n%s", rt.Code, rt.Stderr)
	}
	r, _ = execOn(t, s, `SELECT path FROM github.search.code WHERE q = 'org:sprawl' LIMIT 20`)
	if rows := testutil.JSONRows(t, r); r.Code != 0 || len(rows) != 20 {
		t.Fatalf("LIMIT 20: exit %d, %d rows\n%s", r.Code, len(rows), r.Stderr)
	}
}

// EXPLAIN says what happens past the cap, without a request.
func TestSearchOverCapExplain(t *testing.T) {
	s := ownFake(t)
	r := testutil.Run(t, execEnvOn(t, s), "", "exec", "-o", "csv", `EXPLAIN SELECT count(*) FROM github.search.repos WHERE q = 'org:sprawl'`)
	testutil.WantRun(t, "exec", r, 0, "over 1000 matches (total_count): split by created: ranges", "")
	r = testutil.Run(t, execEnvOn(t, s), "", "exec", "-o", "csv", `EXPLAIN SELECT count(*) FROM github.search.code WHERE q = 'org:sprawl'`)
	testutil.WantRun(t, "exec", r, 0, "error (incomplete)", "")
	if n := len(s.Requests()); n != 0 {
		t.Errorf("EXPLAIN sent %d requests", n)
	}
}

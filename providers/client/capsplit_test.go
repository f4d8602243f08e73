package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/enginehq/engine/providers"
)

// capSearch is a search server serving at most max results of a query
// (Link stops there, a page past it is 422), over n items created one a
// day from 2015-01-01, filtered by "created:A..B" qualifiers (A, B a time
// or *). lose drops item lose (1-based) from ranged queries; dup serves
// item dup in every ranged query's first page too.
type capSearch struct {
	n, max, lose, dup int
	mu                sync.Mutex // pages of a range are fetched concurrently
	queries           []string
}

// sent returns the queries served so far.
func (s *capSearch) sent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.queries)
}

func (s *capSearch) created(id int) time.Time {
	return time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, id-1)
}

func (s *capSearch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query().Get("q")
	s.mu.Lock()
	s.queries = append(s.queries, q)
	s.mu.Unlock()
	lo, hi := time.Time{}, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	ranged := false
	for _, f := range strings.Fields(q) {
		v, ok := strings.CutPrefix(f, "created:")
		if !ok {
			continue
		}
		a, b, _ := strings.Cut(v, "..")
		ranged = true
		if a != "*" {
			lo, _ = time.Parse(time.RFC3339, a)
		}
		if b != "*" {
			hi, _ = time.Parse(time.RFC3339, b)
		}
	}
	var ids []int
	for id := 1; id <= s.n; id++ {
		if c := s.created(id); !c.Before(lo) && !c.After(hi) && !(ranged && id == s.lose) {
			ids = append(ids, id)
		}
	}
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	start := (page - 1) * per
	if start >= s.max {
		w.WriteHeader(http.StatusUnprocessableEntity)
		fmt.Fprintf(w, `{"message": "Only the first %d search results are available"}`, s.max)
		return
	}
	served := min(len(ids), s.max)
	last := max((served+per-1)/per, 1)
	var items []string
	for k := start; k < min(start+per, served); k++ {
		items = append(items, fmt.Sprintf(`{"id": %d, "created_at": %q}`, ids[k], s.created(ids[k]).Format(time.RFC3339)))
	}
	if ranged && page == 1 && s.dup > 0 {
		items = append(items, fmt.Sprintf(`{"id": %d}`, s.dup))
	}
	if page < last {
		next := *r.URL
		v := next.Query()
		v.Set("page", strconv.Itoa(page+1))
		next.RawQuery = v.Encode()
		lastURL := *r.URL
		v.Set("page", strconv.Itoa(last))
		lastURL.RawQuery = v.Encode()
		w.Header().Set("Link", fmt.Sprintf(`<http://%s%s>; rel="next", <http://%s%s>; rel="last"`, r.Host, next.RequestURI(), r.Host, lastURL.RequestURI()))
	}
	fmt.Fprintf(w, `{"total_count": %d, "incomplete_results": false, "items": [%s]}`, len(ids), strings.Join(items, ","))
}

func capMethod(split bool) *providers.Method {
	m := &providers.Method{
		Name: "repos", OperationID: "search/repos", Path: "/search/repositories",
		Params: []providers.Param{{Name: "q", In: providers.InQuery, Required: true}},
		Shape:  providers.ShapeWrapped, ItemKey: "items", Paginated: true,
		Cap:            &providers.ResultCap{Max: 5, Total: "total_count", Advice: "narrow it"},
		IncompleteFlag: "incomplete_results",
	}
	if split {
		m.Cap.Split = &providers.CapSplit{Param: "q", Qualifier: "created", Key: []string{"id"}, From: "2014-01-01"}
	}
	return m
}

func capIDs(t *testing.T, items []json.RawMessage) map[int]bool {
	t.Helper()
	ids := map[int]bool{}
	for _, it := range items {
		var v struct{ ID int }
		if err := json.Unmarshal(it, &v); err != nil {
			t.Fatal(err)
		}
		if ids[v.ID] {
			t.Errorf("id %d emitted twice", v.ID)
		}
		ids[v.ID] = true
	}
	return ids
}

// capClient is a client of s, two results a page (mod, when set, adds
// options).
func capClient(t *testing.T, s *capSearch, mod func(*Options)) *Client {
	t.Helper()
	return newTestClient(t, serve(t, s), func(o *Options) {
		o.PerPage = 2
		if mod != nil {
			mod(o)
		}
	})
}

// capIncomplete searches s for q (split: the method may split it) and
// wants the search to fail as incomplete, retryable or not, with a
// message that says each of says.
func capIncomplete(t *testing.T, s *capSearch, split bool, q string, retryable bool, says ...string) {
	t.Helper()
	_, _, err := collect(t, capClient(t, s, nil), Call{Method: capMethod(split), Params: map[string]string{"q": q}})
	var pe *providers.ProviderError
	if !errors.As(err, &pe) || pe.Kind != "incomplete" || pe.Retryable != retryable {
		t.Fatalf("err %v; want incomplete, retryable %t", err, retryable)
	}
	for _, w := range says {
		if !strings.Contains(pe.Message, w) {
			t.Errorf("err %v; want it to say %q", err, w)
		}
	}
}

func TestCapSplitGetsEveryResult(t *testing.T) {
	s := &capSearch{n: 23, max: 5, dup: 7}
	c := capClient(t, s, nil)
	items, st, err := collect(t, c, Call{Method: capMethod(true), Params: map[string]string{"q": "org:x"}})
	if err != nil {
		t.Fatal(err)
	}
	if ids := capIDs(t, items); len(ids) != 23 {
		t.Fatalf("%d distinct results, want 23", len(ids))
	}
	if st.Parts < 5 || st.Requests != len(s.sent()) {
		t.Errorf("stats %+v, %d queries", st, len(s.sent()))
	}
	for _, q := range s.sent()[1:] {
		if !strings.HasPrefix(q, "org:x created:") {
			t.Errorf("query %q", q)
		}
	}
}

// With a LIMIT within the cap the query is read as written; above it,
// split, stopping at the limit.
func TestCapSplitLimit(t *testing.T) {
	s := &capSearch{n: 23, max: 5}
	c := capClient(t, s, nil)
	items, _, err := collect(t, c, Call{Method: capMethod(false), Params: map[string]string{"q": "org:x"}, Limit: 4})
	if err != nil || len(items) != 4 || len(s.sent()) != 2 {
		t.Fatalf("limit 4: %d items, %d queries, %v", len(items), len(s.sent()), err)
	}
	items, _, err = collect(t, c, Call{Method: capMethod(true), Params: map[string]string{"q": "org:x"}, Limit: 9})
	if err != nil || len(capIDs(t, items)) < 9 {
		t.Fatalf("limit 9: %d items, %v", len(items), err)
	}
}

func TestCapWithoutSplitIsIncomplete(t *testing.T) {
	capIncomplete(t, &capSearch{n: 23, max: 5}, false, "org:x", false, "matched 23", "narrow it")
}

// Parts that hold fewer distinct results than the first page counted
// fail as incomplete (retryable): never a silent gap.
func TestCapSplitMissingResultIsIncomplete(t *testing.T) {
	capIncomplete(t, &capSearch{n: 23, max: 5, lose: 11}, true, "org:x", true, "only 22 distinct")
}

// A split whose matches need more pages than max-pages is refused at the
// first page.
func TestCapSplitOverMaxPages(t *testing.T) {
	s := &capSearch{n: 23, max: 5}
	c := capClient(t, s, func(o *Options) { o.MaxPages = 6 })
	_, _, err := collect(t, c, Call{Method: capMethod(true), Params: map[string]string{"q": "org:x"}})
	var le *PageLimitError
	if !errors.As(err, &le) || le.Total != 12 || !strings.Contains(le.Error(), "12 pages") || len(s.sent()) != 1 {
		t.Fatalf("err %v after %d queries", err, len(s.sent()))
	}
}

// A query with OR cannot take an added range: incomplete, not retryable.
func TestCapSplitRefusesOr(t *testing.T) {
	capIncomplete(t, &capSearch{n: 23, max: 5}, true, "org:x OR org:y", false, "OR operator")
}

// An operator is a word of its own whatever separates it: Unicode white
// space or any non-word character (issue 32, red-team finding); words
// that merely contain the letters, and quoted operators, are not.
func TestUnsplittableSeparators(t *testing.T) {
	for _, q := range []string{"org:x\u00a0OR\u00a0org:y", "org:x\u3000NOT\u2003y", "a\tAND\nb", "(a)OR(b)", "a,OR,b", "OR org:x", "org:x NOT", "a\u2028OR\u2029b", "a/OR/b", "a (b c)"} {
		if unsplittable(q) == "" {
			t.Errorf("%q: splittable, want refused", q)
		}
	}
	for _, q := range []string{"org:x", "ORACLE org:x", "org:x NOTES", "FOR_OR org:x", `"a OR b" org:x`, `"(x)" org:x`, "or not and", "created:>=2020-01-01 org:x"} {
		if why := unsplittable(q); why != "" {
			t.Errorf("%q: refused (%s), want splittable", q, why)
		}
	}
	if got := searchTokens("org:x\u00a0created:>2020-01-01\u3000y"); len(got) != 3 {
		t.Errorf("tokens %q, want 3 (Unicode white space separates)", got)
	}
}

// The split never asks for the time before the provider's epoch: the
// open lower end starts at it (before: a first range *..epoch-1s).
func TestCapSplitStartsAtEpoch(t *testing.T) {
	s := &capSearch{n: 23, max: 5}
	items, _, err := collect(t, capClient(t, s, nil), Call{Method: capMethod(true), Params: map[string]string{"q": "org:x"}})
	if err != nil || len(capIDs(t, items)) != 23 {
		t.Fatalf("%d results, err %v", len(items), err)
	}
	for _, q := range s.sent() {
		if strings.Contains(q, "created:*..") {
			t.Fatalf("a range before the epoch was asked for: %q (all: %q)", q, s.sent())
		}
	}
}

func TestUserSpan(t *testing.T) {
	day := func(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }
	for q, want := range map[string]span{
		"cats":                                      {openLo: true, openHi: true},
		"cats created:>=2023-01-01":                 {lo: day("2022-12-31"), openHi: true},
		"created:<2020-06-01 cats":                  {hi: day("2020-06-03"), openLo: true},
		"created:2020-01-01..2020-12-31":            {lo: day("2019-12-31"), hi: day("2021-01-02")},
		"created:2020-01-01..*":                     {lo: day("2019-12-31"), openHi: true},
		"created:2020-03-04":                        {lo: day("2020-03-03"), hi: day("2020-03-06")},
		"-created:>2020-01-01":                      {openLo: true, openHi: true},
		"created:>=2020-01-01 created:<=2019-01-01": {openLo: true, openHi: true},
		"created:>2021-01-01T10:00:00+02:00":        {lo: time.Date(2020, 12, 31, 8, 0, 0, 0, time.UTC), openHi: true},
		`"created:>2021-01-01 in quotes"`:           {openLo: true, openHi: true},
		"created:yesterday":                         {openLo: true, openHi: true},
	} {
		got := userSpan(q, "created")
		if got.openLo != want.openLo || got.openHi != want.openHi || !got.lo.Equal(want.lo) || !got.hi.Equal(want.hi) {
			t.Errorf("userSpan(%q) = %+v, want %+v", q, got, want)
		}
	}
}

func TestSpanHalves(t *testing.T) {
	from := time.Date(2007, 10, 1, 0, 0, 0, 0, time.UTC)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a, b, ok := span{openLo: true, openHi: true}.halves(from, now)
	if !ok || a.qualifier("created") != "created:*..2007-09-30T23:59:59+00:00" || b.qualifier("created") != "created:2007-10-01T00:00:00+00:00..*" {
		t.Fatalf("%s %s", a.qualifier("created"), b.qualifier("created"))
	}
	a, b, _ = b.halves(from, now)
	if a.qualifier("c") != "c:2007-10-01T00:00:00+00:00..2026-01-01T00:00:00+00:00" || b.qualifier("c") != "c:2026-01-01T00:00:01+00:00..*" {
		t.Fatalf("%s %s", a.qualifier("c"), b.qualifier("c"))
	}
	one := span{lo: now, hi: now}
	if _, _, ok := one.halves(from, now); ok {
		t.Fatal("a one-second range was split")
	}
	a, b, ok = span{lo: now, hi: now.Add(time.Second)}.halves(from, now)
	if !ok || !a.hi.Equal(now) || !b.lo.Equal(now.Add(time.Second)) {
		t.Fatalf("%+v %+v", a, b)
	}
}

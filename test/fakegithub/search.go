package fakegithub

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// SearchCap is how many results of one search GitHub serves: the Link
// header of a search stops at the page holding result 1,000 and a page
// past it answers 422 "Only the first 1000 search results are
// available", while "total_count" counts every match.
const SearchCap = 1000

// searchSpec is a parsed search q: org:NAME, topic:T and created:
// qualifiers, and words (matched against repository names).
type searchSpec struct {
	org     *orgSpec
	topics  []string
	words   []string
	created []func(time.Time) bool // every one must hold
}

// handleSearchRepos is GET /search/repositories?q=org:NAME [topic:T]
// [created:RANGE] [WORDS] (see searchQuery): the org's repositories whose
// name contains every word, that carry every topic and whose creation
// time is in every created: range, in index order.
func (s *Server) handleSearchRepos(w http.ResponseWriter, r *http.Request) {
	sq, ok := s.searchQuery(w, r)
	if !ok {
		return
	}
	idx := sq.org.searchRepos(sq)
	s.writeSearch(w, r, len(idx), func(k int) any { return sq.org.repo(idx[k]).repoJSON() })
}

// searchQuery reads a search's q: org:NAME, topic:T and created:
// qualifiers and words. It answers 422 itself (ok false) as GitHub does:
// with GitHub's errors array when q is missing, and "Validation Failed"
// for an org that cannot be searched (unknown here) or a created: value
// that is not a date or range of dates.
func (s *Server) searchQuery(w http.ResponseWriter, r *http.Request) (sq searchSpec, ok bool) {
	q := r.URL.Query().Get("q")
	if strings.TrimSpace(q) == "" {
		body := errorBody(http.StatusUnprocessableEntity, "Validation Failed")
		body["errors"] = []obj{{"resource": "Search", "field": "q", "code": "missing"}}
		writeJSON(s, w, http.StatusUnprocessableEntity, body)
		return sq, false
	}
	var org string
	for _, f := range strings.Fields(q) {
		switch {
		case strings.HasPrefix(f, "org:"):
			org = strings.TrimPrefix(f, "org:")
		case strings.HasPrefix(f, "topic:"):
			sq.topics = append(sq.topics, strings.TrimPrefix(f, "topic:"))
		case f == "OR" || f == "AND" || f == "NOT":
			// GitHub's operators: the fake reads "a OR b" as "a b" (its
			// words all match), which is enough for the tests that an
			// operator is never split (issue 32).
		case strings.HasPrefix(f, "created:"):
			in, ok := dateRange(strings.TrimPrefix(f, "created:"))
			if !ok {
				writeError(s, w, r, http.StatusUnprocessableEntity, "Validation Failed")
				return sq, false
			}
			sq.created = append(sq.created, in)
		default:
			sq.words = append(sq.words, f)
		}
	}
	if sq.org, ok = s.org(org); !ok {
		writeError(s, w, r, http.StatusUnprocessableEntity, "Validation Failed")
		return sq, false
	}
	return sq, true
}

// searchRepos lists the indexes of the org's repositories that match the
// search's words, topics and created: ranges.
func (o *orgSpec) searchRepos(sq searchSpec) []int {
	var idx []int
	for i := 0; i < o.repos; i++ {
		rp := o.repo(i)
		if !searchMatch(rp, sq.topics, sq.words) {
			continue
		}
		in := true
		for _, f := range sq.created {
			in = in && f(rp.created())
		}
		if in {
			idx = append(idx, i)
		}
	}
	return idx
}

// dateRange reads a created: value as GitHub documents it: >D, >=D, <D,
// <=D, A..B (either side may be *) or D, where a date is YYYY-MM-DD (a
// whole day, UTC) or a time YYYY-MM-DDTHH:MM:SS with a UTC offset (that
// second).
func dateRange(v string) (func(time.Time) bool, bool) {
	switch {
	case strings.HasPrefix(v, ">="):
		lo, _, ok := searchDate(v[2:])
		return func(t time.Time) bool { return !t.Before(lo) }, ok
	case strings.HasPrefix(v, ">"):
		_, hi, ok := searchDate(v[1:])
		return func(t time.Time) bool { return !t.Before(hi) }, ok
	case strings.HasPrefix(v, "<="):
		_, hi, ok := searchDate(v[2:])
		return func(t time.Time) bool { return t.Before(hi) }, ok
	case strings.HasPrefix(v, "<"):
		lo, _, ok := searchDate(v[1:])
		return func(t time.Time) bool { return t.Before(lo) }, ok
	case strings.Contains(v, ".."):
		a, b, _ := strings.Cut(v, "..")
		lo, hi := time.Time{}, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
		ok := true
		if a != "*" {
			lo, _, ok = searchDate(a)
		}
		if b != "*" && ok {
			_, hi, ok = searchDate(b)
		}
		return func(t time.Time) bool { return !t.Before(lo) && t.Before(hi) }, ok
	}
	lo, hi, ok := searchDate(v)
	return func(t time.Time) bool { return !t.Before(lo) && t.Before(hi) }, ok
}

// searchDate reads a date (its day, UTC) or a time (its second) as the
// half-open interval [lo, hi) it stands for.
func searchDate(v string) (lo, hi time.Time, ok bool) {
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, t.AddDate(0, 0, 1), true
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, t.Add(time.Second), true
	}
	return time.Time{}, time.Time{}, false
}

// writeSearch answers a search as GitHub does: {"total_count",
// "incomplete_results", "items"} with Cache-Control: no-cache and no ETag;
// incomplete_results is true under the KindIncompleteResults fault. Only
// the first SearchCap results are served: the Link header ends at the
// page holding the last of them, and a page starting past them answers
// 422 "Only the first 1000 search results are available".
func (s *Server) writeSearch(w http.ResponseWriter, r *http.Request, n int, item func(k int) any) {
	if (pageParam(r)-1)*perPageParam(r) >= SearchCap {
		writeError(s, w, r, http.StatusUnprocessableEntity, "Only the first "+strconv.Itoa(SearchCap)+" search results are available")
		return
	}
	w.Header().Set("Cache-Control", cacheControlNoCache)
	incomplete := strconv.FormatBool(isIncomplete(r))
	s.writeListServed(w, r, n, min(n, SearchCap), "items", `"incomplete_results":`+incomplete+`,`, item)
}

package check

import (
	"strconv"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/enginehq/engine/engine/result"
)

// Stats sums the HTTP work of every control, errored or not: requests, and pages
// fetched, revalidated (304 from the response cache; check always
// revalidates, it never serves an entry without asking) or served from
// the cache.
func (r *Report) Stats() result.Stats {
	s := result.Stats{ElapsedMS: r.Duration.Milliseconds()}
	for _, o := range r.Outcomes {
		s.Add(o.Stats) // an errored control's requests were sent too
	}
	return s
}

// statsProperties are the JUnit suite properties of Stats.
func statsProperties(s result.Stats) []junit.Property {
	return []junit.Property{
		{Name: "http_requests", Value: strconv.Itoa(s.HTTPRequests)},
		{Name: "pages", Value: strconv.Itoa(s.Pages)},
		{Name: "fetched", Value: strconv.Itoa(s.Fetched)},
		{Name: "revalidated", Value: strconv.Itoa(s.Revalidated)},
		{Name: "cache_hits", Value: strconv.Itoa(s.CacheHits)},
		{Name: "shared", Value: strconv.Itoa(s.Shared)},
	}
}

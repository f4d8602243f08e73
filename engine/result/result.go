package result

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/enginehq/engine/providers"
)

// Column types reported in results: the provider column types (defined
// once, in providers) plus SQLite's BLOB and NULL storage classes.
const (
	TypeText    = providers.TypeText
	TypeInteger = providers.TypeInteger
	TypeReal    = providers.TypeReal
	TypeBoolean = providers.TypeBoolean
	TypeJSON    = providers.TypeJSON
	TypeBlob    = "BLOB"
	TypeNull    = "NULL"
)

// Column is one result column.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Stats describe what a statement (or, summed with Add, a run of
// several) cost: the one stats type every surface prints (exec's stats
// line, the shell's footer, the MCP result's stats and summary, check's
// report). Every page is one of: Fetched (its body came from the
// provider), Revalidated (the provider answered 304 Not Modified to a
// conditional request and the cached body was used: free of GitHub's rate
// limit) or a CacheHit (answered by the response cache without a request,
// only with a cache TTL) or Shared (read from an identical GET that
// another asker of the same run, or in flight at the same time, sent:
// no request of its own).
type Stats struct {
	HTTPRequests int           `json:"http_requests"`
	Pages        int           `json:"pages"`
	Fetched      int           `json:"fetched" jsonschema:"pages whose body came from the provider"`
	Revalidated  int           `json:"revalidated" jsonschema:"pages answered 304 Not Modified from the response cache (no rate limit)"`
	CacheHits    int           `json:"cache_hits" jsonschema:"pages served by the response cache without a request (the server's cache TTL)"`
	Shared       int           `json:"shared" jsonschema:"pages read from an identical request of the same run or in flight at the same time (sent once)"`
	Elapsed      time.Duration `json:"-"`
	ElapsedMS    int64         `json:"elapsed_ms"`
	// RateLimit is the statement's use of each provider rate-limit bucket
	// it touched.
	RateLimit []RateLimit `json:"rate_limit,omitempty" jsonschema:"per rate-limit bucket: requests this statement used, what remains and when it resets"`

	// Methods names the API method each provider table was read with, in
	// scan order: "github.repos.repos: GET /user/repos", and how a query
	// over the provider's result cap was split ("(over the 1000-result
	// cap: split by created: into 7 parts)").
	Methods []string `json:"methods,omitempty" jsonschema:"the API method each table was read with"`
	// Parts counts the date ranges that queries over the provider's result
	// cap were split into (0: none was).
	Parts int `json:"parts,omitempty" jsonschema:"date ranges that searches over the provider's result cap (GitHub: 1000) were split into"`
}

// Add adds the counts of o (requests, pages, parts) to s. Elapsed time,
// rate-limit use and methods are a statement's own and are not summed.
func (s *Stats) Add(o Stats) {
	s.HTTPRequests += o.HTTPRequests
	s.Pages += o.Pages
	s.Fetched += o.Fetched
	s.Revalidated += o.Revalidated
	s.CacheHits += o.CacheHits
	s.Shared += o.Shared
	s.Parts += o.Parts
}

// Cost is the summary of the HTTP work every surface prints:
// "3 HTTP requests, 3 pages, 1 revalidated, 1 from cache, 2 shared"
// (pages, revalidated, from cache and shared only when not 0).
func (s Stats) Cost() string {
	parts := []string{Plural(s.HTTPRequests, "HTTP request")}
	if s.Pages > 0 {
		parts = append(parts, Plural(s.Pages, "page"))
	}
	if s.Revalidated > 0 {
		parts = append(parts, fmt.Sprintf("%d revalidated", s.Revalidated))
	}
	if s.CacheHits > 0 {
		parts = append(parts, fmt.Sprintf("%d from cache", s.CacheHits))
	}
	if s.Shared > 0 {
		parts = append(parts, fmt.Sprintf("%d shared", s.Shared))
	}
	return strings.Join(parts, ", ")
}

// RateLimit is a statement's use of one rate-limit bucket (GitHub's
// x-ratelimit-resource: core, search, code_search, ...): the requests it
// spent (304 revalidations are free and not counted) and, when the
// provider reported them, the bucket's limit, what remains and when it
// resets (RFC 3339, UTC).
type RateLimit struct {
	Provider  string `json:"provider"`
	Bucket    string `json:"bucket" jsonschema:"e.g. core, search, code_search"`
	Used      int    `json:"used" jsonschema:"requests of this statement"`
	Limit     int    `json:"limit,omitempty"`
	Remaining *int   `json:"remaining,omitempty"`
	Reset     string `json:"reset,omitempty" jsonschema:"RFC 3339, UTC"`
}

// Result is a complete result. Values are nil, int64, float64, string or
// bool; JSON columns hold their JSON text as a string.
type Result struct {
	Columns []Column
	Rows    [][]any
	Stats   Stats
	// Notice is an optional human note (e.g. EXPLAIN, "no rows").
	Notice string
	// Unordered is set for a SELECT over provider tables whose outermost
	// LIMIT/OFFSET has no ORDER BY: which rows it keeps is not guaranteed
	// (surfaces may say so).
	Unordered bool
}

// Finish records the elapsed time.
func (r *Result) Finish(start time.Time) {
	r.Stats.Elapsed = time.Since(start)
	r.Stats.ElapsedMS = r.Stats.Elapsed.Milliseconds()
	r.Stats.Fetched = max(r.Stats.Pages-r.Stats.Revalidated-r.Stats.CacheHits-r.Stats.Shared, 0)
}

// JSONValue returns v for a JSON encoding: JSON columns whose text is
// valid JSON become raw JSON, everything else stays as is.
func JSONValue(col Column, v any) any {
	if s, ok := v.(string); ok && col.Type == TypeJSON && json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	return v
}

// RateLimitSummary renders the statement's rate-limit use for humans, e.g.
// "rate limit github core: 13 used, 4987 of 5000 left, resets 15:58 UTC";
// "" when the statement touched no bucket.
func (s Stats) RateLimitSummary() string {
	var parts []string
	for _, rl := range s.RateLimit {
		p := fmt.Sprintf("%s %s: %d used", rl.Provider, rl.Bucket, rl.Used)
		if rl.Remaining != nil {
			p += fmt.Sprintf(", %d of %d left", *rl.Remaining, rl.Limit)
		}
		if t, err := time.Parse(time.RFC3339, rl.Reset); err == nil {
			p += ", resets " + t.UTC().Format("15:04:05") + " UTC"
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return "rate limit " + strings.Join(parts, "; ")
}

// Plural is a count with its noun: "1 row", "3 rows".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

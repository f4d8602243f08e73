package result

import (
	"encoding/json"
	"time"
)

// Column types reported in results (the SQLite storage classes plus the
// engine's BOOLEAN and JSON).
const (
	TypeText    = "TEXT"
	TypeInteger = "INTEGER"
	TypeReal    = "REAL"
	TypeBoolean = "BOOLEAN"
	TypeJSON    = "JSON"
	TypeBlob    = "BLOB"
	TypeNull    = "NULL"
)

// Column is one result column.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Stats describe what a statement cost. Every page is one of: Fetched
// (its body came from the provider), Revalidated (the provider answered
// 304 Not Modified to a conditional request and the cached body was used:
// free of GitHub's rate limit) or a CacheHit (answered by the response
// cache without a request, only with --cache-ttl).
type Stats struct {
	HTTPRequests int           `json:"http_requests"`
	Pages        int           `json:"pages"`
	Fetched      int           `json:"fetched"`
	Revalidated  int           `json:"revalidated"`
	CacheHits    int           `json:"cache_hits"`
	Elapsed      time.Duration `json:"-"`
	ElapsedMS    int64         `json:"elapsed_ms"`

	// Methods names the API method each provider table was read with, in
	// scan order: "github.repos.repos: GET /user/repos".
	Methods []string `json:"methods,omitempty"`
}

// Result is a complete result. Values are nil, int64, float64, string or
// bool; JSON columns hold their JSON text as a string.
type Result struct {
	Columns []Column
	Rows    [][]any
	Stats   Stats
	// Notice is an optional human note (e.g. EXPLAIN, "no rows").
	Notice string
}

// Finish records the elapsed time.
func (r *Result) Finish(start time.Time) {
	r.Stats.Elapsed = time.Since(start)
	r.Stats.ElapsedMS = r.Stats.Elapsed.Milliseconds()
	r.Stats.Fetched = max(r.Stats.Pages-r.Stats.Revalidated-r.Stats.CacheHits, 0)
}

// JSONValue returns v for a JSON encoding: JSON columns whose text is
// valid JSON become raw JSON, everything else stays as is.
func JSONValue(col Column, v any) any {
	if s, ok := v.(string); ok && col.Type == TypeJSON && json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	return v
}

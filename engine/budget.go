package engine

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/providers"
)

// The budget of several statements (engine check's whole file, docs/check.md
// "The budget of a run"): each statement's first-page requests as planned
// (Prepared.Fetches), one key per request so that a caller can count the
// distinct URLs of many statements (identical GETs are sent once per run),
// and what the credential has left (Engine.RateBudget).

// Fetch is the first-page requests of one scan of a statement.
type Fetch struct {
	Provider string
	// Bucket is the rate-limit bucket of the method's path ("" for free
	// requests); Path the method's path template.
	Bucket, Path string
	// Keys name each first-page request (provider, path, parameters):
	// equal keys are one URL. Set for a scan whose bindings are literal
	// (at most MaxFetchKeys of them), and for a dependent scan once its
	// bindings are known (QueryOptions.Fetch).
	Keys []string
	// Count is the number of first-page requests when known.
	Count int
	// Dependent: bound from another table's rows, the count is known
	// only once those rows are; Source then identifies the fan-out (its
	// method and where its keys come from), equal for identical fan-outs
	// of different statements.
	Dependent bool
	Source    string
}

// MaxFetchKeys bounds the keys listed for one scan (an IN product can be
// large); past it, Count alone is given.
const MaxFetchKeys = 100000

// Fetches lists the first-page requests of a prepared SELECT, scan by
// scan (none for other statements). Nothing is sent.
func (ps *Prepared) Fetches() []Fetch {
	if ps.plan == nil || ps.st.Query == nil {
		return nil
	}
	var out []Fetch
	for _, s := range ps.plan.Scans {
		if s.NoRequest != "" {
			continue
		}
		f := Fetch{Provider: s.Resource.Provider, Path: s.Method.Path, Bucket: ps.e.bucketOf(s.Resource.Provider, s.Method.Path)}
		if s.Dependent() {
			f.Dependent = true
			f.Source = fanOutSource(s)
		} else {
			f.Count = s.EstimatedRequests()
			if f.Count <= MaxFetchKeys {
				f.Keys = fetchKeys(s, s.Calls())
			}
		}
		out = append(out, f)
	}
	return out
}

// bucketOf is the rate-limit bucket of path, or "" when the provider's
// client cannot be made (its statement fails on that anyway).
func (e *Engine) bucketOf(provider, path string) string {
	if e.opts.Fetch != nil {
		return ""
	}
	c, err := e.Client(provider)
	if err != nil {
		return ""
	}
	return c.BucketOf(path)
}

// fetchKeys are the keys of a scan's calls.
func fetchKeys(s *plan.Scan, calls []map[string]string) []string {
	keys := make([]string, len(calls))
	for i, c := range calls {
		keys[i] = fetchKey(s.Resource.Provider, s.Method.Path, c)
	}
	return keys
}

func fetchKey(provider, path string, params map[string]string) string {
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString(provider + " " + path)
	for _, k := range names {
		b.WriteString("\x00" + k + "=" + params[k])
	}
	return b.String()
}

// fanOutSource identifies a dependent scan's fan-out: its method, its
// literal bindings and its sources' methods, bindings and expressions.
func fanOutSource(s *plan.Scan) string {
	var b strings.Builder
	b.WriteString(s.Resource.Provider + " " + s.Method.Path)
	for _, bd := range s.Bindings {
		b.WriteString(" " + bd.Param.Name + "=" + strings.Join(bd.Values, "|"))
	}
	for _, d := range s.Deps {
		b.WriteString(" " + d.Param.Name + "<-" + d.Source.Method.Path + "[")
		for _, sb := range d.Source.Bindings {
			b.WriteString(sb.Param.Name + "=" + strings.Join(sb.Values, "|") + ";")
		}
		b.WriteString("]" + d.Expr + " where " + strings.Join(d.Filter, " AND "))
	}
	for _, sb := range s.Subs {
		b.WriteString(" " + sb.Param.Name + "<-(" + sb.SQL + ")")
	}
	return b.String()
}

// RateBudget is what the engine knows of a credential's budgets for one
// path: its primary bucket (asked of the provider's free rate-limit
// endpoint, GitHub's /rate_limit, when nothing is known yet) and the
// governor's windows that pace it.
type RateBudget struct {
	Provider string
	// Bucket: the primary bucket; Known when the provider said what
	// remains.
	Bucket providers.BucketBudget
	Known  bool
	// Windows pace the path's requests: every request (GitHub: 900/min)
	// and the bucket's own (search: 30/min); empty without pacing.
	Windows []Window
}

// Window is one pacing window: N requests per Per, counted against
// Bucket ("" for every request of the credential).
type Window struct {
	Bucket string
	N      int
	Per    time.Duration
}

// RateBudget returns what is known of provider's budgets for path,
// asking the provider's free rate-limit endpoint when its bucket is not
// known yet (never a request that costs rate limit).
func (e *Engine) RateBudget(ctx context.Context, provider, path string) (RateBudget, error) {
	c, err := e.Client(provider)
	if err != nil {
		return RateBudget{}, err
	}
	rb := RateBudget{Provider: provider}
	rb.Bucket, rb.Known = c.ProbedBudget(ctx, path)
	for _, w := range c.Windows(path) {
		rb.Windows = append(rb.Windows, Window{Bucket: w.Bucket, N: w.N, Per: w.Per})
	}
	return rb, nil
}

// planned turns the runner's dependent calls into QueryOptions.Fetch's.
func (e *Engine) planned(f func(Fetch)) func(*plan.Scan, []map[string]string) {
	if f == nil {
		return nil
	}
	return func(s *plan.Scan, calls []map[string]string) {
		f(Fetch{Provider: s.Resource.Provider, Path: s.Method.Path, Bucket: e.bucketOf(s.Resource.Provider, s.Method.Path),
			Keys: fetchKeys(s, calls), Count: len(calls), Dependent: true, Source: fanOutSource(s)})
	}
}

package exec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/engine/store"
	"github.com/enginehq/engine/providers"
)

// Fetcher is what the runner needs of a provider's HTTP client
// (*client.Client; engine/enginetest has an in-memory one).
type Fetcher interface {
	// Do fetches a call's pages (following pagination, retrying, caching)
	// and hands each page's items to emit in order; an error of any page
	// is the call's error.
	Do(ctx context.Context, call providers.Call, emit func(items []json.RawMessage) error) (providers.FetchStats, error)
	// BucketOf names the rate-limit bucket of a path ("" when the
	// provider has none).
	BucketOf(path string) string
	// CheckBudget refuses n more requests of path's bucket when the
	// provider says fewer remain.
	CheckBudget(ctx context.Context, path string, n int) error
	// Budget is what remains of path's bucket, when known.
	Budget(path string) (providers.BucketBudget, bool)
	// Cached reports whether the call's first page is in the response
	// cache, so that it costs no rate limit (a revalidation answered 304).
	Cached(call providers.Call) bool
}

// Fetchers are the fetchers of a plan's providers, by provider name,
// resolved by the caller before the run: the runner calls back into
// nothing.
type Fetchers map[string]Fetcher

func (fs Fetchers) of(provider string) (Fetcher, error) {
	if f := fs[provider]; f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("internal: no fetcher for provider %s", provider)
}

// Options tune execution.
type Options struct {
	// Concurrency bounds concurrent requests of one fan-out (default 8).
	Concurrency int
	// Progress, when set, is called after each page with the running
	// number of pages fetched by the statement.
	Progress func(pages int)
	// Rows, when set, receives the result's rows as SQLite produces them
	// (store.QueryRows) and the returned result holds none.
	Rows func(row []any) error
	// Columns, when set with Rows, receives the result's columns before
	// the first row (see store.QueryRows).
	Columns func(cols []result.Column) error
	// MaxValueBytes bounds one value, stored row and result row of the
	// statement's database (store.SetMaxValueBytes; 0: the default).
	MaxValueBytes int
	// Planned, when set, receives each dependent scan's calls once its
	// bindings are known, before any of them is sent (engine check adds
	// them to its run's estimate).
	Planned func(s *plan.Scan, calls []map[string]string)
	// Failed, when set, receives what a statement that ends in an error
	// cost before it did (requests, pages, methods): a compliance report
	// shows the stats of every control, errored or not.
	Failed func(result.Stats)
	// NullIsError makes a column that WHERE or HAVING reads without
	// saying what NULL means, and that is NULL in every row read, an
	// error (*NullColumnsError; engine check); without it the result's
	// notice says so (nullrule.go).
	NullIsError bool
}

// Run executes p and returns its result.
func Run(ctx context.Context, p *plan.Plan, fetchers Fetchers, opts Options) (_ *result.Result, err error) {
	start := time.Now()
	if opts.Concurrency <= 0 {
		opts.Concurrency = 8
	}
	var stats result.Stats
	if opts.Failed != nil {
		defer func() {
			if err != nil {
				stats.Elapsed = time.Since(start)
				stats.ElapsedMS = stats.Elapsed.Milliseconds()
				stats.Fetched = max(stats.Pages-stats.Revalidated-stats.CacheHits-stats.Shared, 0)
				opts.Failed(stats)
			}
		}()
	}
	st, err := store.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if err := st.SetMaxValueBytes(opts.MaxValueBytes); err != nil {
		return nil, err
	}
	var pages atomic.Int64
	requests := p.Requests()
	if err := checkBudgets(ctx, p, fetchers); err != nil {
		return nil, err
	}
	// The limit holds for the requests actually sent too (pages and
	// retries), not only for the estimate checked at planning.
	ctx = providers.WithRequestLimit(ctx, p.MaxRequests)
	var use budgetUse
	for i, s := range p.Scans {
		if s.NoRequest != "" {
			// The plan knows the table is empty: create it, send nothing.
			if _, err := runScan(ctx, st, s, nil, nil, opts, &pages); err != nil {
				return nil, err
			}
			continue
		}
		c, err := fetchers.of(s.Resource.Provider)
		if err != nil {
			return nil, err
		}
		calls, need, err := scanCalls(ctx, st, s, requests.Left())
		if err != nil {
			return nil, err
		}
		ahead := 0
		if s.Dependent() && p.MaxRequests > 0 {
			if ahead, err = aheadNeeds(ctx, st, p.Scans, i); err != nil {
				return nil, err
			}
		}
		if err := requests.Admit(s, need, ahead); err != nil {
			return nil, err
		}
		if s.Dependent() && opts.Planned != nil && len(calls) > 0 {
			opts.Planned(s, calls)
		}
		if s.Dependent() {
			err := c.CheckBudget(ctx, s.Method.Path, len(calls))
			if err != nil {
				if free := cachedCalls(c, s, calls); free > 0 {
					err = c.CheckBudget(ctx, s.Method.Path, len(calls)-free)
				}
			}
			if err != nil {
				return nil, err
			}
		}
		stats.Methods = append(stats.Methods, s.Ref.Name()+": GET "+s.Method.Path)
		n, err := runScan(ctx, st, s, calls, c, opts, &pages)
		use.add(s.Resource.Provider, c.BucketOf(s.Method.Path), s.Method.Path, n.HTTPRequests-n.Revalidated)
		split := n.Parts > 0 && s.Method.Cap != nil && s.Method.Cap.Split != nil
		if !split {
			n.Parts = 0
		}
		stats.Add(n)
		if split {
			stats.Methods[len(stats.Methods)-1] += fmt.Sprintf(" (over the %d-result cap: split by %s: into %s)", s.Method.Cap.Max, s.Method.Cap.Split.Qualifier, result.Plural(n.Parts, "part"))
		}
		if err != nil {
			return nil, err
		}
	}
	nulls, err := nullColumns(ctx, st, p)
	if err != nil {
		return nil, err
	}
	if len(nulls) > 0 && opts.NullIsError {
		return nil, &NullColumnsError{Columns: nulls}
	}
	var res *result.Result
	if opts.Rows != nil {
		res, err = st.QueryRows(ctx, p.SQL, opts.Columns, opts.Rows)
	} else {
		res, err = st.Query(ctx, p.SQL)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	stats.RateLimit = use.stats(fetchers)
	res.Stats = stats
	res.Notice = p.Notice()
	if len(nulls) > 0 {
		res.Notice = strings.TrimPrefix(res.Notice+". "+nullMessage(nulls), ". ")
	}
	res.Finish(start)
	return res, nil
}

// runScan fetches one scan's calls and loads them into its table as the
// pages arrive. A fan-out's calls run concurrently (opts.Concurrency) and
// take turns at the table, so the pages in memory are bounded by the
// calls in flight (each holds the page it is loading and the client's
// bounded read-ahead), whatever the size of the answers. Each row's rowid
// is its place in call order then page order (call index in the high 32
// bits), so the table reads as if the calls had been loaded one after the
// other: rows come out of a query without ORDER BY in the same order
// whatever the timing of the requests.
func runScan(ctx context.Context, st *store.Store, s *plan.Scan, calls []map[string]string, c Fetcher, opts Options, pages *atomic.Int64) (result.Stats, error) {
	tbl, err := st.CreateTable(ctx, s.Table, s.Columns())
	if err != nil {
		return result.Stats{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var (
		mu       sync.Mutex // guards total, firstErr and tbl
		total    result.Stats
		firstErr error
	)
	// A fan-out's call refused by the provider for its own key (403,
	// 404, 410, 422, 451: this repository, not the credential or the
	// rate limit) does not stop the others: the statement fails naming
	// every key that failed (keyedError), not only the first.
	var keyed []keyedFailure
	fail := func(i int, err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr != nil {
			return
		}
		if pe := keyFailure(err); pe != nil && len(calls) > 1 {
			keyed = append(keyed, keyedFailure{i, pe})
			return
		}
		firstErr = err
		cancel()
	}
	onPage := func(int) {
		n := pages.Add(1)
		if opts.Progress != nil {
			opts.Progress(int(n))
		}
	}
	// load inserts one page of a call into its part of the table (call
	// order, then page order). With a LIMIT pushed down each call keeps
	// its first s.Limit rows: the statement is a plain scan (the plan
	// proved it), which reads the first s.Limit rows in rowid order and
	// stops.
	load := func(part *store.Part, params map[string]string, fixed map[string]any, items []json.RawMessage) error {
		mu.Lock()
		defer mu.Unlock()
		if firstErr != nil {
			return firstErr
		}
		for _, raw := range items {
			if s.Limit > 0 && part.Rows() >= s.Limit {
				return nil
			}
			var err error
			if s.ValueColumn() {
				var v any
				if v, err = store.Value(raw, s.Method.ValueColumnType()); err == nil {
					err = part.Insert(ctx, map[string]any{providers.ValueName: v}, fixed)
				}
			} else {
				err = part.InsertJSON(ctx, raw, fixed)
			}
			if err != nil {
				return loadError(s, params, err)
			}
		}
		return nil
	}
	call := func(i int, params map[string]string) {
		fixed := make(map[string]any, len(s.ParamColumns))
		for _, pc := range s.ParamColumns {
			fixed[pc.Name] = store.ParamValue(pc, params[pc.Name])
		}
		if s.AnsweredColumn() {
			fixed[plan.AnsweredName] = int64(1)
		}
		part := tbl.Part(i) // only this goroutine's load uses it, under mu
		n, err := c.Do(ctx, providers.Call{Method: s.Method, Params: params, Limit: int(s.Limit), OnPage: onPage}, func(items []json.RawMessage) error {
			return load(part, params, fixed, items)
		})
		mu.Lock()
		total.Add(result.Stats{HTTPRequests: n.Requests, Pages: n.Pages, CacheHits: n.CacheHits, Revalidated: n.Revalidated, Parts: n.Parts, Shared: n.Shared})
		mu.Unlock()
		if err != nil {
			fail(i, err)
		}
	}

	if len(calls) == 1 {
		call(0, calls[0])
	} else if len(calls) > 1 {
		// A slot is taken before a call's goroutine starts, so a fan-out
		// of many calls holds at most opts.Concurrency goroutines.
		sem := make(chan struct{}, opts.Concurrency)
		var wg sync.WaitGroup
	fanOut:
		for i, params := range calls {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				break fanOut
			}
			wg.Go(func() {
				defer func() { <-sem }()
				call(i, params)
			})
		}
		wg.Wait()
	}
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	if firstErr == nil && len(keyed) > 0 {
		firstErr = newKeyedError(keyed, calls)
	}
	if firstErr != nil {
		tbl.Abort()
		return total, firstErr
	}
	return total, tbl.Commit()
}

// scanCalls expands a scan's bindings into one parameter set per request:
// literal values, times the distinct tuples its source tables give.
// Tuples with a NULL value are skipped (there is nothing to ask for), and
// duplicates are removed so that each distinct tuple is fetched once.
//
// With budget >= 0 (the requests still allowed) the requests are counted
// before anything is read into memory: the literal combinations by
// arithmetic, the tuples by SQLite (count(*), stopping past the budget, or
// past exactCount so that the refusal can name the number). When the
// product exceeds the budget no call is built and need is that product, a
// lower bound of the requests the scan would make; otherwise need is
// len(calls). A source without tuples makes no request whatever the
// budget.
// aheadNeeds is the first-page requests (at least) of the dependent scans
// after scans[i] whose every source is loaded already (before scans[i]):
// known now, they count against the request limit with scans[i]'s own
// (plan.Requests.Admit).
func aheadNeeds(ctx context.Context, st *store.Store, scans []*plan.Scan, i int) (int, error) {
	loaded := map[*plan.Scan]bool{}
	for _, s := range scans[:i] {
		loaded[s] = true
	}
	ready := func(t *plan.Scan) bool {
		for _, d := range t.Deps {
			if !loaded[d.Source] {
				return false
			}
		}
		for _, sub := range t.Subs {
			for _, src := range sub.Sources {
				if !loaded[src] {
					return false
				}
			}
		}
		return true
	}
	total := 0
	for _, t := range scans[i+1:] {
		if !t.Dependent() || t.NoRequest != "" || !ready(t) {
			continue
		}
		_, need, err := scanCalls(ctx, st, t, 0) // counted, not listed
		if err != nil {
			return 0, err
		}
		total = plan.AddSat(total, need)
	}
	return total, nil
}

func scanCalls(ctx context.Context, st *store.Store, s *plan.Scan, budget int) (calls []map[string]string, need int, err error) {
	tqs := s.TupleQueries()
	texts := make([]string, len(tqs))
	for i, tq := range tqs {
		texts[i] = nonNullTuples(tq)
	}
	if budget >= 0 && s.Dependent() {
		need = s.EstimatedRequests()
		for i, tq := range tqs {
			limit := exactCount + 1
			if need <= budget {
				limit = max(budget/need, exactCount) + 1
			}
			n, err := countTuples(ctx, st, &texts[i], tq.SQL, limit)
			if err != nil {
				return nil, 0, fmt.Errorf("computing the bindings of %s: %w", s.Ref, err)
			}
			if n == 0 {
				return nil, 0, nil // no tuple: nothing to ask for
			}
			need = plan.MulSat(need, n)
		}
		if need > budget {
			return nil, need, nil
		}
	}
	calls = s.Calls()
	for i, tq := range tqs {
		rows, err := st.Values(ctx, texts[i])
		if err != nil {
			return nil, 0, fmt.Errorf("computing the bindings of %s: %w", s.Ref, err)
		}
		var next []map[string]string
		for _, c := range calls {
		row:
			for _, r := range rows {
				m := make(map[string]string, len(c)+len(tq.Params))
				for k, v := range c {
					m[k] = v
				}
				for i, p := range tq.Params {
					if i >= len(r) || r[i] == nil {
						continue row
					}
					m[p.Name] = result.Text(r[i])
				}
				next = append(next, m)
			}
		}
		calls = next
	}
	seen := map[string]bool{}
	out := calls[:0]
	for _, c := range calls {
		k := callKey(c)
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out, len(out), nil
}

// exactCount is how many tuples are counted exactly even when the budget
// is smaller: counting them costs little and the refusal can name the
// number of requests the query needs.
const exactCount = 10000

// tupleCTE names the tuple query's columns so that NULL tuples can be
// filtered out in SQLite; the name stays out of the user's way.
const tupleCTE = `"engine tuples"`

// nonNullTuples wraps a tuple query so that SQLite drops the tuples with a
// NULL value, before they are read or counted.
func nonNullTuples(tq plan.TupleQuery) string {
	cols := make([]string, len(tq.Params))
	conds := make([]string, len(tq.Params))
	for i := range tq.Params {
		cols[i] = fmt.Sprintf("c%d", i)
		conds[i] = cols[i] + " IS NOT NULL"
	}
	return "WITH " + tupleCTE + "(" + strings.Join(cols, ", ") + ") AS (" + tq.SQL + ") SELECT * FROM " + tupleCTE + " WHERE " + strings.Join(conds, " AND ")
}

// countTuples counts the rows of *text in SQLite, stopping at limit. When
// the NULL-filtering wrapper does not fit the query (a subquery with more
// columns than parameters), *text falls back to the raw query, whose
// count is an upper bound.
func countTuples(ctx context.Context, st *store.Store, text *string, raw string, limit int) (int, error) {
	count := func(q string) (int, error) {
		rows, err := st.Values(ctx, fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM (%s) LIMIT %d)", q, limit))
		if err != nil {
			return 0, err
		}
		if len(rows) != 1 || len(rows[0]) != 1 {
			return 0, fmt.Errorf("count of the bindings returned no row")
		}
		n, ok := rows[0][0].(int64)
		if !ok {
			return 0, fmt.Errorf("count of the bindings is %T", rows[0][0])
		}
		return int(n), nil
	}
	n, err := count(*text)
	if err != nil && ctx.Err() == nil {
		if n, err2 := count(raw); err2 == nil {
			*text = raw
			return n, nil
		}
	}
	return n, err
}

func callKey(c map[string]string) string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(c[k])
		b.WriteByte(0)
	}
	return b.String()
}

// loadError names the table of a failed insert; a response value SQLite
// cannot hold (store.DecodeError) is the provider's fault and becomes a
// decode ProviderError that names the request.
func loadError(s *plan.Scan, params map[string]string, err error) error {
	var de *store.DecodeError
	if !errors.As(err, &de) {
		return fmt.Errorf("%s: %w", s.Ref.Name(), err)
	}
	path := s.Method.Path
	for k, v := range params {
		path = strings.ReplaceAll(path, "{"+k+"}", url.PathEscape(v))
	}
	return &providers.ProviderError{Provider: s.Resource.Provider, Operation: s.Method.OperationID, URL: path, Status: 200, Kind: "decode",
		Message: fmt.Sprintf("the response for %s cannot be loaded: %s", s.Ref.Name(), de.Error())}
}

package exec

import (
	"context"
	"time"

	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers"
)

// Rate-limit budget of a statement: before the first request, the
// statement's estimated first-page requests per provider and bucket are
// checked against what the bucket has left (client.CheckBudget); a
// dependent scan is checked again once its bindings are known. Calls
// whose first page the response cache holds are left out: GitHub does
// not count a 304 Not Modified (cachedCalls). After the
// statement, its stats report per bucket the requests it spent and what the
// provider says remains.

type bucketKey struct{ provider, bucket string }

// budgetUse accumulates a statement's requests per bucket, in first-use
// order.
type budgetUse struct {
	order []bucketKey
	used  map[bucketKey]int
	path  map[bucketKey]string
}

func (u *budgetUse) add(provider, bucket, path string, n int) {
	k := bucketKey{provider, bucket}
	if k.bucket == "" {
		return
	}
	if u.used == nil {
		u.used, u.path = map[bucketKey]int{}, map[bucketKey]string{}
	}
	if _, ok := u.used[k]; !ok {
		u.order = append(u.order, k)
		u.path[k] = path
	}
	u.used[k] += n
}

// checkBudgets checks the statement's independent scans before any
// request is sent.
func checkBudgets(ctx context.Context, p *plan.Plan, fetchers Fetchers) error {
	var need budgetUse
	scans := map[bucketKey][]*plan.Scan{}
	for _, s := range p.Scans {
		if !s.Dependent() && s.NoRequest == "" {
			c, err := fetchers.of(s.Resource.Provider)
			if err != nil {
				return err
			}
			need.add(s.Resource.Provider, c.BucketOf(s.Method.Path), s.Method.Path, s.EstimatedRequests())
			k := bucketKey{s.Resource.Provider, c.BucketOf(s.Method.Path)}
			scans[k] = append(scans[k], s)
		}
	}
	for _, k := range need.order {
		c, err := fetchers.of(k.provider)
		if err != nil {
			return err
		}
		err = c.CheckBudget(ctx, need.path[k], need.used[k])
		if err != nil {
			// Refused: leave out what the cache holds, and ask again.
			free := 0
			for _, s := range scans[k] {
				if s.EstimatedRequests() <= maxCachedCheck {
					free += cachedCalls(c, s, s.Calls())
				}
			}
			if free > 0 {
				err = c.CheckBudget(ctx, need.path[k], need.used[k]-free)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// maxCachedCheck bounds the calls of one scan that a refused budget check
// looks up in the response cache (their parameter sets are enumerated).
const maxCachedCheck = 10000

// cachedCalls counts the calls whose first page the response cache holds
// (Fetcher.Cached): a revalidation answered 304 Not Modified costs no
// rate limit, so the budget checks leave them out.
func cachedCalls(c Fetcher, s *plan.Scan, calls []map[string]string) int {
	n := 0
	for _, params := range calls {
		if c.Cached(providers.Call{Method: s.Method, Params: params, Limit: int(s.Limit)}) {
			n++
		}
	}
	return n
}

// stats reports the buckets the statement used.
func (u *budgetUse) stats(fetchers Fetchers) []result.RateLimit {
	var out []result.RateLimit
	for _, k := range u.order {
		rl := result.RateLimit{Provider: k.provider, Bucket: k.bucket, Used: u.used[k]}
		if c, err := fetchers.of(k.provider); err == nil {
			if b, ok := c.Budget(u.path[k]); ok {
				rl.Limit, rl.Remaining = b.Limit, &b.Remaining
				if !b.Reset.IsZero() {
					rl.Reset = b.Reset.UTC().Format(time.RFC3339)
				}
			}
		}
		out = append(out, rl)
	}
	return out
}

package exec

import (
	"context"
	"time"

	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/engine/result"
)

// Rate-limit budget of a statement: before the first request, the
// statement's estimated first-page requests per provider and bucket are
// checked against what the bucket has left (client.CheckBudget); a
// dependent scan is checked again once its bindings are known. After the
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
	for _, s := range p.Scans {
		if !s.Dependent() {
			c, err := fetchers.of(s.Resource.Provider)
			if err != nil {
				return err
			}
			need.add(s.Resource.Provider, c.BucketOf(s.Method.Path), s.Method.Path, s.EstimatedRequests())
		}
	}
	for _, k := range need.order {
		c, err := fetchers.of(k.provider)
		if err != nil {
			return err
		}
		if err := c.CheckBudget(ctx, need.path[k], need.used[k]); err != nil {
			return err
		}
	}
	return nil
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

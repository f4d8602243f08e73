package check

import (
	"strconv"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/enginehq/engine/engine/result"
)

// rateLimitTotals sums the controls' use of each rate-limit bucket; the
// limit, remaining and reset are the latest the provider said: the latest
// reset, and within it the least remaining (controls run concurrently).
func rateLimitTotals(r *Report) []result.RateLimit {
	var out []result.RateLimit
	idx := map[string]int{}
	for _, o := range r.Outcomes {
		for _, rl := range o.Stats.RateLimit {
			k := rl.Provider + "." + rl.Bucket
			i, ok := idx[k]
			if !ok {
				idx[k] = len(out)
				out = append(out, result.RateLimit{Provider: rl.Provider, Bucket: rl.Bucket})
				i = len(out) - 1
			}
			out[i].Used += rl.Used
			cur := out[i]
			if rl.Remaining != nil && (cur.Remaining == nil || rl.Reset > cur.Reset || rl.Reset == cur.Reset && *rl.Remaining < *cur.Remaining) {
				out[i].Limit, out[i].Remaining, out[i].Reset = rl.Limit, rl.Remaining, rl.Reset
			}
		}
	}
	return out
}

// rateLimitProps are the JUnit suite properties of the run's rate-limit
// use: rate_limit.<provider>.<bucket>.used / .remaining / .limit / .reset.
func rateLimitProps(r *Report) []junit.Property {
	var ps []junit.Property
	for _, rl := range rateLimitTotals(r) {
		p := "rate_limit." + rl.Provider + "." + rl.Bucket + "."
		ps = append(ps, junit.Property{Name: p + "used", Value: strconv.Itoa(rl.Used)})
		if rl.Remaining != nil {
			ps = append(ps, junit.Property{Name: p + "remaining", Value: strconv.Itoa(*rl.Remaining)},
				junit.Property{Name: p + "limit", Value: strconv.Itoa(rl.Limit)},
				junit.Property{Name: p + "reset", Value: rl.Reset})
		}
	}
	return ps
}

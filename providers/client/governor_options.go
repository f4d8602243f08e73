package client

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/defaults"
)

// Governor defaults, for providers whose profile declares no windows
// (rate_limit.windows; GitHub's declares these same figures).
const (
	DefaultRate           = 900 // requests per DefaultRateWindow
	DefaultRateWindow     = time.Minute
	DefaultSearchRate     = 30
	DefaultCodeSearchRate = 10
	DefaultMaxConcurrency = 16
	// DefaultStartConcurrency is the cap on requests in flight a
	// credential starts with; it grows while requests succeed.
	DefaultStartConcurrency = 4
	// DefaultRecoverAfter is the quiet time after which the concurrency
	// may grow to its maximum again and the rates double back after a
	// secondary limit.
	DefaultRecoverAfter = time.Minute
)

// Rate is a request budget per window, e.g. 900 per minute.
type Rate struct {
	N      int
	Window time.Duration
}

// ParseRate reads "N" (per minute) or "N/DURATION" (e.g. "60/1s").
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	num, win, hasWin := strings.Cut(s, "/")
	n, err := strconv.Atoi(strings.TrimSpace(num))
	r := Rate{N: n, Window: time.Minute}
	if err == nil && hasWin {
		w := strings.TrimSpace(win)
		if w != "" && (w[0] < '0' || w[0] > '9') {
			w = "1" + w // "900/m" style: 1m
		}
		r.Window, err = time.ParseDuration(w)
	}
	if err != nil || r.N < 0 || r.Window <= 0 {
		return Rate{}, fmt.Errorf("rate %q: expected requests per minute (e.g. 900) or requests per window (e.g. 900/1m, 60/1s); 0 turns pacing off", s)
	}
	return r, nil
}

func (r Rate) String() string {
	if r.Window == time.Minute {
		return strconv.Itoa(r.N) + "/min"
	}
	return strconv.Itoa(r.N) + "/" + r.Window.String()
}

// GovernorOptions configure the governor of a credential. Zero values take
// the defaults; a Rate with N < 0 or MaxConcurrency < 0 turns that
// control off.
type GovernorOptions struct {
	// Rate bounds every request of the credential, SearchRate and
	// CodeSearchRate in addition those of the search and code_search
	// buckets; zero values take the profile's windows.
	Rate           Rate
	SearchRate     Rate
	CodeSearchRate Rate
	MaxConcurrency int
	// StartConcurrency is the first cap on requests in flight (default
	// DefaultStartConcurrency, at most MaxConcurrency).
	StartConcurrency int
	RecoverAfter     time.Duration
	// RateLimit names the provider's rate-limit headers and secondary-
	// limit phrases (its profile); nil means providers.DefaultRateLimit.
	RateLimit *providers.RateLimit
	// Shared, when set, adds the requests of the other processes that use
	// the credential (--state; shared.go, governor_shared.go).
	Shared SharedState
	// SlotTTL is how long a shared slot outlives a process that never
	// released it (default DefaultSlotTTL).
	SlotTTL time.Duration
	// SharedWarnf, when set, says once that Shared failed and the governor
	// goes on with its local state (and once that it is back).
	SharedWarnf func(format string, args ...any)
}

func (o *GovernorOptions) setDefaults() {
	if o.RateLimit == nil {
		rl := (*providers.Profile)(nil).RateLimitOf()
		o.RateLimit = &rl
	}
	def := func(r *Rate, bucket string, n int) {
		if r.N == 0 && r.Window == 0 {
			if w, ok := o.RateLimit.WindowOf(bucket); ok {
				*r = Rate{N: w.Limit, Window: time.Duration(w.Seconds) * time.Second}
			} else {
				r.N = n
			}
		}
		defaults.Set(&r.Window, DefaultRateWindow)
	}
	def(&o.Rate, "", DefaultRate)
	def(&o.SearchRate, "search", DefaultSearchRate)
	def(&o.CodeSearchRate, "code_search", DefaultCodeSearchRate)
	if o.MaxConcurrency == 0 {
		o.MaxConcurrency = DefaultMaxConcurrency
	}
	defaults.Set(&o.StartConcurrency, DefaultStartConcurrency)
	defaults.Set(&o.SlotTTL, DefaultSlotTTL)
	defaults.Set(&o.RecoverAfter, DefaultRecoverAfter)
}

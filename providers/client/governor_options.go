package client

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/enginehq/engine/providers"
)

// Governor defaults.
const (
	DefaultRate           = 900 // requests per DefaultRateWindow
	DefaultRateWindow     = time.Minute
	DefaultSearchRate     = 30
	DefaultCodeSearchRate = 10
	DefaultMaxConcurrency = 16
	// DefaultRecoverAfter is the quiet time after which an eighth of the
	// configured rate and concurrency come back after a secondary limit.
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
	Rate           Rate
	SearchRate     Rate
	CodeSearchRate Rate
	MaxConcurrency int
	RecoverAfter   time.Duration
	// RateLimit names the provider's rate-limit headers and secondary-
	// limit phrases (its profile); nil means providers.DefaultRateLimit.
	RateLimit *providers.RateLimit
}

func (o *GovernorOptions) setDefaults() {
	def := func(r *Rate, n int) {
		if r.N == 0 && r.Window == 0 {
			r.N = n
		}
		if r.Window <= 0 {
			r.Window = DefaultRateWindow
		}
	}
	def(&o.Rate, DefaultRate)
	def(&o.SearchRate, DefaultSearchRate)
	def(&o.CodeSearchRate, DefaultCodeSearchRate)
	if o.MaxConcurrency == 0 {
		o.MaxConcurrency = DefaultMaxConcurrency
	}
	if o.RecoverAfter <= 0 {
		o.RecoverAfter = DefaultRecoverAfter
	}
	if o.RateLimit == nil {
		rl := (*providers.Profile)(nil).RateLimitOf()
		o.RateLimit = &rl
	}
}

package fakegithub

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limits model GitHub's REST rate limiter (WithLimits), scaled down for
// tests. GitHub documents (docs.github.com, "Rate limits for the REST
// API"):
//
//   - primary limits per bucket (x-ratelimit-resource): core 5,000 per hour
//     for a token, search 30 per minute, code_search 10 per minute, each
//     reported in x-ratelimit-limit, -remaining, -used, -reset and
//     -resource; a spent bucket answers 403 "API rate limit exceeded ..."
//     with x-ratelimit-remaining: 0 until the reset;
//   - secondary limits: at most 100 concurrent requests and 900 points per
//     minute (a GET is one point); exceeding one answers 403 "You have
//     exceeded a secondary rate limit ..." with Retry-After, and requests
//     that keep coming during that wait get the same answer;
//   - /rate_limit costs nothing, and a 304 Not Modified to a conditional
//     request that carries credentials does not count ("Use conditional
//     requests": such a request is charged once its answer is known,
//     unless it is a 304, whose x-ratelimit-* headers show the bucket
//     unchanged; see chargeUnlessNotModified).
type Limits struct {
	// TripConcurrent > 0: the TripConcurrent-th request in flight at once
	// trips a secondary limit (a penalty for every request).
	TripConcurrent int
	// MaxConcurrent > 0: a server that serves at most MaxConcurrent
	// requests at once and answers each request beyond them at once with
	// a secondary-limit 403 and Retry-After, without a penalty for the
	// others (GitHub's limit of 100 concurrent requests, scaled down).
	MaxConcurrent int
	// Points > 0: more than Points requests within any Window trip a
	// secondary limit (GitHub: 900 per minute; tests scale the window).
	Points int
	Window time.Duration
	// RetryAfter is the Retry-After of a secondary limit (whole seconds,
	// default 1; GitHub's is typically 60) and the length of the penalty
	// during which every request gets the same 403.
	RetryAfter int
	// Buckets are the primary limits by resource name; absent names fall
	// back to the server's usual core 5000/h headers.
	Buckets map[string]BucketLimit
}

// BucketLimit is one primary rate-limit bucket.
type BucketLimit struct {
	Limit int
	// Remaining at start (default Limit).
	Remaining *int `json:"remaining,omitempty"`
	// Window until the bucket refills (core: 1h, search: 1m).
	Window time.Duration
}

// LimiterStats count what the limiter did.
type LimiterStats struct {
	// Trips are secondary limits started (each begins a penalty);
	// SecondaryResponses every 403 answered for a secondary limit (trips,
	// requests during a penalty and over MaxConcurrent); ConcurrentResponses
	// those over MaxConcurrent; PrimaryResponses 403s of a spent bucket.
	Trips, SecondaryResponses, ConcurrentResponses, PrimaryResponses int
	// MaxInFlight is the most requests in flight at once.
	MaxInFlight int
	// Used is the requests counted per bucket.
	Used map[string]int
}

// WithLimits turns on the rate limiter model.
func WithLimits(l Limits) Option {
	return func(s *Server) {
		s.lim = newLimiter(l)
	}
}

type bucketState struct {
	limit, used int
	window      time.Duration
	reset       time.Time
}

type limiter struct {
	cfg Limits

	mu          sync.Mutex
	inflight    int
	maxInflight int
	arrivals    []time.Time // of admitted requests, for the points window
	penaltyEnd  time.Time
	trips       int
	concurrent  int // answers of MaxConcurrent
	secondary   int
	primary     int
	buckets     map[string]*bucketState
}

func newLimiter(l Limits) *limiter {
	if l.RetryAfter <= 0 {
		l.RetryAfter = 1
	}
	if l.Points > 0 && l.Window <= 0 {
		l.Window = time.Minute
	}
	lim := &limiter{cfg: l, buckets: map[string]*bucketState{}}
	now := time.Now()
	for name, b := range l.Buckets {
		w := b.Window
		if w <= 0 {
			w = time.Hour
		}
		st := &bucketState{limit: b.Limit, window: w, reset: now.Add(w)}
		if b.Remaining != nil {
			st.used = b.Limit - *b.Remaining
		}
		lim.buckets[name] = st
	}
	return lim
}

// bucketOf is GitHub's bucket of a request path.
func bucketOf(path string) string {
	switch {
	case strings.HasPrefix(path, "/search/code"):
		return "code_search"
	case strings.HasPrefix(path, "/search/"):
		return "search"
	}
	return "core"
}

// admit decides a request: it returns false after answering it with a
// rate-limit 403. done must be called when an admitted request ends.
func (s *Server) limit(w http.ResponseWriter, r *http.Request) (ok bool, done func()) {
	l := s.lim
	now := time.Now()
	l.mu.Lock()
	l.inflight++
	if l.inflight > l.maxInflight {
		l.maxInflight = l.inflight
	}
	done = func() {
		l.mu.Lock()
		l.inflight--
		l.mu.Unlock()
	}
	if r.URL.Path == "/rate_limit" {
		l.mu.Unlock()
		return true, done
	}
	name := bucketOf(r.URL.Path)
	b := l.buckets[name]
	if b != nil {
		for !now.Before(b.reset) {
			b.reset = b.reset.Add(b.window)
			b.used = 0
		}
	}
	secondary := now.Before(l.penaltyEnd)
	if !secondary && l.cfg.MaxConcurrent > 0 && l.inflight > l.cfg.MaxConcurrent {
		l.concurrent++
		secondary = true
	}
	if !secondary {
		trip := l.cfg.TripConcurrent > 0 && l.inflight >= l.cfg.TripConcurrent
		if !trip && l.cfg.Points > 0 {
			cut := now.Add(-l.cfg.Window)
			i := 0
			for i < len(l.arrivals) && !l.arrivals[i].After(cut) {
				i++
			}
			l.arrivals = l.arrivals[i:]
			trip = len(l.arrivals) >= l.cfg.Points
		}
		if trip {
			l.trips++
			l.penaltyEnd = now.Add(time.Duration(l.cfg.RetryAfter) * time.Second)
			secondary = true
		}
	}
	if secondary {
		l.secondary++
		l.mu.Unlock()
		s.setBucketHeaders(w, name)
		w.Header().Set("Retry-After", strconv.Itoa(l.cfg.RetryAfter))
		body := errorBody(http.StatusForbidden, "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID "+w.Header().Get("X-GitHub-Request-Id")+".")
		body["documentation_url"] = "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
		writeRaw(w, http.StatusForbidden, body)
		return false, done
	}
	if l.cfg.Points > 0 {
		l.arrivals = append(l.arrivals, now)
	}
	if b != nil && b.used >= b.limit {
		l.primary++
		l.mu.Unlock()
		s.setBucketHeaders(w, name)
		body := errorBody(http.StatusForbidden, fmt.Sprintf("API rate limit exceeded for user ID %d. If you reach out to GitHub Support for help, please include the request ID %s.", authUserID, w.Header().Get("X-GitHub-Request-Id")))
		body["documentation_url"] = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
		writeRaw(w, http.StatusForbidden, body)
		return false, done
	}
	if b != nil && !mayBeFree(r) {
		b.used++ // else charged once its answer is known (chargeUnlessNotModified)
	}
	l.mu.Unlock()
	s.setBucketHeaders(w, name)
	return true, done
}

// mayBeFree reports whether r may cost no rate limit: a conditional GET
// with an Authorization header, which GitHub does not count when it is
// answered 304 Not Modified (docs.github.com, "Use conditional requests";
// an anonymous request's 304 counts).
func mayBeFree(r *http.Request) bool {
	return r.Header.Get("Authorization") != "" && (r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "")
}

// chargeUnlessNotModified charges the request r that mayBeFree once its
// answer's status is known, unless that is 304, and rewrites the
// x-ratelimit-* headers in h to count it. Until then it is not counted,
// so concurrent answers never show a charge that a 304 would take back.
func (s *Server) chargeUnlessNotModified(h http.Header, r *http.Request, status int) {
	if status == http.StatusNotModified {
		return
	}
	s.used.Add(1)
	if s.lim != nil && s.lim.charge(h, bucketOf(r.URL.Path)) {
		return
	}
	used := s.rateUsed()
	h.Set("X-RateLimit-Remaining", strconv.FormatInt(rateLimit-used, 10))
	h.Set("X-RateLimit-Used", strconv.FormatInt(used, 10))
}

// charge counts a request of bucket name and writes the bucket's headers
// in h; false when the limiter does not model the bucket.
func (l *limiter) charge(h http.Header, name string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[name]
	if b == nil {
		return false
	}
	b.used++
	used := min(b.used, b.limit)
	h.Set("X-RateLimit-Remaining", strconv.Itoa(b.limit-used))
	h.Set("X-RateLimit-Used", strconv.Itoa(used))
	return true
}

// setBucketHeaders writes the x-ratelimit-* headers of bucket name (and
// GitHub's other usual headers) before the handler runs; setHeaders keeps
// them.
func (s *Server) setBucketHeaders(w http.ResponseWriter, name string) {
	l := s.lim
	l.mu.Lock()
	b := l.buckets[name]
	var limit, used int
	var reset int64
	if b != nil {
		limit, used, reset = b.limit, min(b.used, b.limit), b.reset.Unix()
	}
	l.mu.Unlock()
	if b == nil {
		s.setHeaders(w)
		return
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(limit-used))
	h.Set("X-RateLimit-Used", strconv.Itoa(used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset, 10))
	h.Set("X-RateLimit-Resource", name)
	s.setHeaders(w)
}

// LimiterStats returns the limiter's counters (zero without WithLimits).
func (s *Server) LimiterStats() LimiterStats {
	if s.lim == nil {
		return LimiterStats{}
	}
	l := s.lim
	l.mu.Lock()
	defer l.mu.Unlock()
	st := LimiterStats{Trips: l.trips, SecondaryResponses: l.secondary, ConcurrentResponses: l.concurrent, PrimaryResponses: l.primary, MaxInFlight: l.maxInflight, Used: map[string]int{}}
	for name, b := range l.buckets {
		st.Used[name] = b.used
	}
	return st
}

// rateLimitResources is /rate_limit's view of the limiter's buckets.
func (s *Server) rateLimitResources(res obj) {
	if s.lim == nil {
		return
	}
	l := s.lim
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	for name, b := range l.buckets {
		for !now.Before(b.reset) {
			b.reset = b.reset.Add(b.window)
			b.used = 0
		}
		used := min(b.used, b.limit)
		res[name] = obj{"limit": b.limit, "used": used, "remaining": b.limit - used, "reset": b.reset.Unix()}
	}
}

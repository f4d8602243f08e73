package fakegithub

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// FaultKind names a failure the server can inject. Values are the strings
// used in the JSON of the admin endpoint POST /_fake/faults.
type FaultKind string

const (
	// KindStatus answers Status (default 500) with GitHub's JSON error body
	// (Message, or GitHub's usual message for that status).
	KindStatus FaultKind = "status"
	// KindRateLimit is GitHub's primary rate limit: 403, x-ratelimit-remaining: 0,
	// x-ratelimit-reset = now + RetryAfter, "API rate limit exceeded for ...".
	KindRateLimit FaultKind = "rate_limit"
	// KindSecondaryRateLimit is 403 "You have exceeded a secondary rate
	// limit..." with Retry-After.
	KindSecondaryRateLimit FaultKind = "secondary_rate_limit"
	// KindTooManyRequests is 429 with Retry-After.
	KindTooManyRequests FaultKind = "too_many_requests"
	// KindReset hijacks the connection and resets it (TCP RST) without a response.
	KindReset FaultKind = "reset"
	// KindSlow waits Delay (default 2s, or until the client gives up) and then
	// serves normally.
	KindSlow FaultKind = "slow"
	// KindMalformed answers 200 with a body that is not valid JSON.
	KindMalformed FaultKind = "malformed"
	// KindTruncated answers 200 with the real body cut in half: Content-Length
	// announces the full length, then the connection is closed.
	KindTruncated FaultKind = "truncated"
	// KindOversized answers 200 with a valid JSON array of repositories
	// streamed (chunked) until Size bytes (default 80 MiB).
	KindOversized FaultKind = "oversized"
	// KindLinkLoop serves the normal page with Link rel="next" pointing at
	// the same page.
	KindLinkLoop FaultKind = "link_loop"
	// KindBody answers Status (default 200) with Body as the JSON response,
	// e.g. items whose values hold terminal escapes or a token.
	KindBody FaultKind = "body"
	// KindLinkElsewhere serves the normal page with Link rel="next" bent to
	// Location (a path on this server; default /orgs/tiny/repos): same
	// host, another path, e.g. another org's list.
	KindLinkElsewhere FaultKind = "link_elsewhere"
	// KindLinkEndless serves the normal page with Link rel="next" always
	// pointing at the following page number and no rel="last": a server
	// that never stops sending next (pages past the end are empty).
	KindLinkEndless FaultKind = "link_endless"
	// KindLinkHugeCursor serves the normal page with Link rel="next"
	// carrying a cursor of Size bytes (default 8 MiB) in its query: the
	// next request is too long for the server, which answers 431.
	KindLinkHugeCursor FaultKind = "link_huge_cursor"
	// KindRedirect answers Status (default 302) with Location (an absolute
	// URL or a path on this server) and no body.
	KindRedirect FaultKind = "redirect"
	// KindIncompleteResults serves a search normally but with
	// "incomplete_results": true (GitHub's flag that the search timed out).
	KindIncompleteResults FaultKind = "incomplete_results"
	// KindHugeNumber serves the normal body with the first item's
	// stargazers_count (or id) replaced by 1e999: valid JSON, but beyond
	// a 64-bit float.
	KindHugeNumber FaultKind = "huge_number"
	// KindDeepNesting serves the normal body with the first item's topics
	// (or description) replaced by arrays nested 1,500 deep: valid JSON,
	// deeper than SQLite's JSON functions read (1,000).
	KindDeepNesting FaultKind = "deep_nesting"
)

// DefaultOversize is the body size of KindOversized when Fault.Size is 0.
const DefaultOversize = 80 << 20

// Fault is one fault rule. Rules are tried in the order injected; the first
// one that matches (and is not used up) applies.
type Fault struct {
	Path       string        `json:"path,omitempty"`        // regexp on the URL path; "" = any
	Page       int           `json:"page,omitempty"`        // 0 = any; n = only when ?page (default 1) == n
	Times      int           `json:"times,omitempty"`       // 0 = forever; n = the first n matching requests
	Kind       FaultKind     `json:"kind"`                  //
	Status     int           `json:"status,omitempty"`      // KindStatus
	Message    string        `json:"message,omitempty"`     // KindStatus, KindSecondaryRateLimit, KindTooManyRequests: overrides the body message
	Delay      time.Duration `json:"-"`                     // KindSlow; JSON "delay": "250ms" or "delay_ms": 250
	RetryAfter int           `json:"retry_after,omitempty"` // seconds; rate limits and 429; default 30
	Size       int64         `json:"size,omitempty"`        // KindOversized body bytes
	Body       string        `json:"body,omitempty"`        // KindBody response body
	Location   string        `json:"location,omitempty"`    // KindRedirect, KindLinkElsewhere
	// Reset, when set, is sent verbatim as KindRateLimit's
	// X-RateLimit-Reset (edge values: far future, milliseconds).
	Reset string `json:"reset,omitempty"`
}

// MarshalJSON encodes Delay as a Go duration string.
func (f Fault) MarshalJSON() ([]byte, error) {
	type plain Fault
	out := struct {
		plain
		Delay string `json:"delay,omitempty"`
	}{plain: plain(f)}
	if f.Delay > 0 {
		out.Delay = f.Delay.String()
	}
	return json.Marshal(out)
}

// UnmarshalJSON accepts "delay" as a Go duration string or "delay_ms".
func (f *Fault) UnmarshalJSON(b []byte) error {
	type plain Fault
	var in struct {
		plain
		Delay   string `json:"delay,omitempty"`
		DelayMS int64  `json:"delay_ms,omitempty"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*f = Fault(in.plain)
	if in.Delay != "" {
		d, err := time.ParseDuration(in.Delay)
		if err != nil {
			return fmt.Errorf("delay: %w", err)
		}
		f.Delay = d
	}
	if in.DelayMS > 0 {
		f.Delay = time.Duration(in.DelayMS) * time.Millisecond
	}
	return nil
}

var knownKinds = map[FaultKind]bool{
	KindStatus: true, KindRateLimit: true, KindSecondaryRateLimit: true, KindTooManyRequests: true,
	KindReset: true, KindSlow: true, KindMalformed: true, KindTruncated: true, KindOversized: true, KindLinkLoop: true,
	KindBody:          true,
	KindLinkElsewhere: true, KindRedirect: true, KindIncompleteResults: true,
	KindHugeNumber: true, KindDeepNesting: true,
	KindLinkEndless: true, KindLinkHugeCursor: true,
}

type faultRule struct {
	Fault
	re   *regexp.Regexp
	hits int
}

func compileFault(f Fault) (*faultRule, error) {
	if !knownKinds[f.Kind] {
		return nil, fmt.Errorf("unknown fault kind %q", f.Kind)
	}
	re, err := regexp.Compile(f.Path)
	if err != nil {
		return nil, fmt.Errorf("path: %w", err)
	}
	return &faultRule{Fault: f, re: re}, nil
}

// Inject adds a fault rule. It panics on an invalid Path regexp or unknown
// Kind (a test bug); the admin endpoint reports those as 400 instead.
func (s *Server) Inject(f Fault) {
	if err := s.inject(f); err != nil {
		panic("fakegithub: " + err.Error())
	}
}

func (s *Server) inject(f Fault) error {
	rule, err := compileFault(f)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.faults = append(s.faults, rule)
	s.mu.Unlock()
	return nil
}

// ClearFaults removes all fault rules.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	s.faults = nil
	s.mu.Unlock()
}

// Faults returns the current rules (including used-up ones).
func (s *Server) Faults() []Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Fault, len(s.faults))
	for i, f := range s.faults {
		out[i] = f.Fault
	}
	return out
}

func (s *Server) matchFault(r *http.Request, page int) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if (f.Times > 0 && f.hits >= f.Times) || (f.Page != 0 && f.Page != page) || !f.re.MatchString(r.URL.Path) {
			continue
		}
		f.hits++
		cp := f.Fault
		return &cp
	}
	return nil
}

func retryAfter(f *Fault) int {
	if f.RetryAfter > 0 {
		return f.RetryAfter
	}
	return 30
}

// applyFault serves the fault. It returns the request to continue serving
// normally with, or nil when the response is complete.
func (s *Server) applyFault(w *recorder, r *http.Request, f *Fault) *http.Request {
	switch f.Kind {
	case KindStatus:
		st := f.Status
		if st == 0 {
			st = http.StatusInternalServerError
		}
		msg := f.Message
		if msg == "" {
			msg = defaultMessage(st)
		}
		body := errorBody(st, msg)
		if st == http.StatusUnprocessableEntity {
			body["errors"] = []obj{{"resource": "Search", "field": "q", "code": "invalid"}}
		}
		writeJSON(s, w, st, body)
	case KindRateLimit:
		s.setHeaders(w)
		h := w.Header()
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Used", strconv.Itoa(rateLimit))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Unix()+int64(retryAfter(f)), 10))
		if f.Reset != "" {
			h.Set("X-RateLimit-Reset", f.Reset)
		}
		body := errorBody(http.StatusForbidden,
			fmt.Sprintf("API rate limit exceeded for user ID %d. If you reach out to GitHub Support for help, please include the request ID %s.", authUserID, h.Get("X-GitHub-Request-Id")))
		body["documentation_url"] = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
		writeRaw(w, http.StatusForbidden, body)
	case KindSecondaryRateLimit, KindTooManyRequests:
		st := http.StatusForbidden
		if f.Kind == KindTooManyRequests {
			st = http.StatusTooManyRequests
		}
		s.setHeaders(w)
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter(f)))
		msg := f.Message // e.g. GitHub's older "You have triggered an abuse detection mechanism..."
		if msg == "" {
			msg = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID " + w.Header().Get("X-GitHub-Request-Id") + "."
		}
		body := errorBody(st, msg)
		body["documentation_url"] = "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
		writeRaw(w, st, body)
	case KindReset:
		resetConn(w)
	case KindSlow:
		d := f.Delay
		if d == 0 {
			d = 2 * time.Second
		}
		if !sleepCtx(r.Context(), d) {
			return nil
		}
		return r
	case KindMalformed:
		s.setHeaders(w)
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(`[{"id": 1, "name": "broken" "full_name": }, <html>oops`)) //nolint:errcheck
	case KindTruncated:
		s.truncated(w, r)
	case KindOversized:
		s.oversized(w, f)
	case KindLinkLoop:
		return r.WithContext(withLinkLoop(r.Context()))
	case KindBody:
		st := f.Status
		if st == 0 {
			st = http.StatusOK
		}
		s.setHeaders(w)
		w.Header().Set("Content-Length", strconv.Itoa(len(f.Body)))
		w.WriteHeader(st)
		w.Write([]byte(f.Body)) //nolint:errcheck
	case KindLinkElsewhere:
		to := f.Location
		if to == "" {
			to = "/orgs/tiny/repos"
		}
		return r.WithContext(withLinkElsewhere(r.Context(), to))
	case KindIncompleteResults:
		return r.WithContext(withIncomplete(r.Context()))
	case KindLinkEndless:
		return r.WithContext(context.WithValue(r.Context(), linkEndlessKey, true))
	case KindLinkHugeCursor:
		n := f.Size
		if n <= 0 {
			n = 8 << 20
		}
		return r.WithContext(context.WithValue(r.Context(), hugeCursorKey, int(n)))
	case KindRedirect:
		st := f.Status
		if st == 0 {
			st = http.StatusFound
		}
		loc := f.Location
		if strings.HasPrefix(loc, "/") {
			loc = baseURL(r) + loc
		}
		s.setHeaders(w)
		w.Header().Set("Location", loc)
		w.WriteHeader(st)
	case KindHugeNumber, KindDeepNesting:
		s.rewriteFirstItem(w, r, f.Kind)
	}
	return nil
}

// writeRaw writes a JSON body keeping headers already set.
func writeRaw(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b) //nolint:errcheck
}

// resetConn closes the connection with a TCP RST and no response.
func resetConn(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0) //nolint:errcheck
	}
	conn.Close()
}

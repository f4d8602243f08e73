package fakegithub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

const (
	rateLimit = 5000
	docsURL   = "https://docs.github.com/rest"
)

// rateReset is the fixed x-ratelimit-reset of the server (start + 1h).
func (s *Server) rateReset() int64 { return s.start.Add(3600e9).Unix() }

func (s *Server) rateUsed() int64 {
	u := s.used.Load()
	if u > rateLimit {
		u = rateLimit
	}
	return u
}

// setHeaders writes the headers GitHub sends on every API response.
func (s *Server) setHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-GitHub-Api-Version-Selected", "2022-11-28")
	h.Set("X-GitHub-Media-Type", "github.v3; format=json")
	h.Set("X-GitHub-Request-Id", fmt.Sprintf("FAKE:%04X:%06X", 0xACE, s.reqSeq.Add(1)))
	if s.oauthScopes != nil {
		h.Set("X-OAuth-Scopes", *s.oauthScopes)
	}
	if h.Get("X-RateLimit-Resource") != "" {
		return // set by the limiter (WithLimits)
	}
	used := s.rateUsed()
	h.Set("X-RateLimit-Limit", strconv.Itoa(rateLimit))
	h.Set("X-RateLimit-Remaining", strconv.FormatInt(rateLimit-used, 10))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(s.rateReset(), 10))
	h.Set("X-RateLimit-Used", strconv.FormatInt(used, 10))
	h.Set("X-RateLimit-Resource", "core")
}

// writeJSON writes v with status and the standard headers.
func writeJSON(s *Server, w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	b := buf.Bytes()
	s.setHeaders(w)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b) //nolint:errcheck
}

// errorBody is GitHub's error shape.
func errorBody(status int, msg string) map[string]any {
	return map[string]any{
		"message":           msg,
		"documentation_url": docsURL,
		"status":            strconv.Itoa(status),
	}
}

// writeError writes a GitHub-style JSON error.
func writeError(s *Server, w http.ResponseWriter, _ *http.Request, status int, msg string) {
	writeJSON(s, w, status, errorBody(status, msg))
}

func notFound(s *Server, w http.ResponseWriter, r *http.Request) {
	writeError(s, w, r, http.StatusNotFound, "Not Found")
}

// defaultMessage is GitHub's message for a bare status.
func defaultMessage(status int) string {
	switch status {
	case 400:
		return "Problems parsing JSON"
	case 401:
		return "Bad credentials"
	case 403:
		return "Resource not accessible by integration"
	case 404:
		return "Not Found"
	case 409:
		return "Conflict"
	case 410:
		return "Gone"
	case 422:
		return "Validation Failed"
	case 500:
		return "Server Error"
	case 502:
		return "Server Error"
	case 503:
		return "Service Unavailable"
	case 504:
		return "We couldn't respond to your request in time. Sorry about that. Please try resubmitting your request and contact us if the problem persists."
	}
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "Error"
}

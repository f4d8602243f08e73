// Package fakeapis is a fake of three non-GitHub REST APIs, each with its
// own pagination style and error format, for the engine's end-to-end
// tests of provider profiles and pagination (docs/providers.md):
//
//   - /stripe: Stripe-like cursor pagination. GET /v1/customers answers
//     {object: "list", data, has_more, url} and pages with starting_after =
//     the last item's id and limit; GET /v1/charges pages the same way
//     (its test document leaves out starting_after); unknown customers
//     answer 404 {"error": {"message", "type"}}.
//   - /slack: Slack-like. GET /conversations.list answers {ok, channels,
//     response_metadata: {next_cursor}} and pages with cursor and limit;
//     errors are HTTP 200 with {"ok": false, "error": CODE}: a missing
//     token not_authed, a token other than GoodSlackToken invalid_auth,
//     RateLimitedSlackToken ratelimited (with Retry-After).
//   - /jira: Jira-like offset pagination. GET /rest/api/3/project/search
//     answers {values, startAt, maxResults, total, isLast, self} and pages
//     with startAt and maxResults.
//
// more.go adds Twilio-, Box- and Asana-like APIs (issue 32).
//
// Every list caps its page size at PageSize, so that a handful of items
// spans several pages. The OpenAPI descriptions of the three are in docs/
// (Doc returns a path), written for the tests in the shapes the real APIs
// document. The server runs in-process (New) or as its own process
// (cmd/fakeapis).
//
// Fixed (NewFixed) is a smaller loopback API of fixed JSON bodies by path
// that records each request's URI and Authorization header, for the
// suites that describe an API of their own (test/openapidoc,
// test/registry, test/exec).
package fakeapis

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// PageSize caps every page, whatever size the client asks for.
const PageSize = 2

// Slack tokens the fake knows.
const (
	GoodSlackToken        = "xoxb-fake-good-token-0001"
	RateLimitedSlackToken = "xoxb-fake-ratelimited-0002"
)

// Server is the fake. It is safe for concurrent use.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	requests map[string]int // path -> requests
	queries  []string       // request URIs, in order
}

// New starts the fake on a loopback port.
func New() *Server {
	s := &Server{requests: map[string]int{}}
	s.srv = httptest.NewServer(s.Handler())
	return s
}

// URL is the server's base URL (each API is under its prefix).
func (s *Server) URL() string { return s.srv.URL }

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns how many requests reached path (e.g.
// "/stripe/v1/customers").
func (s *Server) Requests(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[path]
}

// Queries returns the request URIs received, in order.
func (s *Server) Queries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.queries...)
}

// Doc returns the path of an API's test description ("stripe", "slack",
// "jira", or "slack-profile" for Slack's profile).
func Doc(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "docs", name+".json")
}

// Handler serves the three APIs.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /stripe/v1/customers", s.stripeList("customer", customers))
	mux.HandleFunc("GET /stripe/v1/charges", s.stripeList("charge", charges))
	mux.HandleFunc("GET /stripe/v1/customers/{id}", s.stripeCustomer)
	mux.HandleFunc("GET /slack/conversations.list", s.slackConversations)
	mux.HandleFunc("GET /jira/rest/api/3/project/search", s.jiraProjects)
	s.moreRoutes(mux) // more.go
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if s.requests == nil {
			s.requests = map[string]int{}
		}
		s.requests[r.URL.Path]++
		s.queries = append(s.queries, r.URL.RequestURI())
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	})
}

type obj = map[string]any

// Six customers, newest first (Stripe's order), and three charges.
var (
	customers = []obj{
		{"id": "cus_6", "object": "customer", "created": 1700000600, "email": "f@example.com", "name": "Frank", "livemode": false},
		{"id": "cus_5", "object": "customer", "created": 1700000500, "email": "e@example.com", "name": "Erin", "livemode": false},
		{"id": "cus_4", "object": "customer", "created": 1700000400, "email": "d@example.com", "name": "Dave", "livemode": false},
		{"id": "cus_3", "object": "customer", "created": 1700000300, "email": "c@example.com", "name": "Carol", "livemode": false},
		{"id": "cus_2", "object": "customer", "created": 1700000200, "email": "b@example.com", "name": "Bob", "livemode": false},
		{"id": "cus_1", "object": "customer", "created": 1700000100, "email": "a@example.com", "name": "Alice", "livemode": false},
	}
	charges = []obj{
		{"id": "ch_3", "object": "charge", "amount": 300, "currency": "eur", "paid": true},
		{"id": "ch_2", "object": "charge", "amount": 200, "currency": "eur", "paid": true},
		{"id": "ch_1", "object": "charge", "amount": 100, "currency": "usd", "paid": false},
	}
	channels = []obj{
		{"id": "C001", "name": "general", "is_channel": true, "is_private": false, "is_archived": false, "created": 1600000001, "num_members": 40},
		{"id": "C002", "name": "random", "is_channel": true, "is_private": false, "is_archived": false, "created": 1600000002, "num_members": 38},
		{"id": "C003", "name": "engineering", "is_channel": true, "is_private": false, "is_archived": false, "created": 1600000003, "num_members": 12},
		{"id": "C004", "name": "old-project", "is_channel": true, "is_private": false, "is_archived": true, "created": 1600000004, "num_members": 0},
		{"id": "C005", "name": "support", "is_channel": true, "is_private": false, "is_archived": false, "created": 1600000005, "num_members": 7},
	}
	projects = []obj{
		{"id": "10000", "key": "ENG", "name": "Engineering", "projectTypeKey": "software"},
		{"id": "10001", "key": "OPS", "name": "Operations", "projectTypeKey": "business"},
		{"id": "10002", "key": "SD", "name": "Service Desk", "projectTypeKey": "service_desk"},
		{"id": "10003", "key": "WEB", "name": "Website", "projectTypeKey": "software"},
		{"id": "10004", "key": "MOB", "name": "Mobile", "projectTypeKey": "software"},
	}
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v) //nolint:errcheck
}

// size reads a page-size parameter (default def), capped at PageSize.
func size(r *http.Request, name string, def int) int {
	n, err := strconv.Atoi(r.URL.Query().Get(name))
	if err != nil || n <= 0 {
		n = def
	}
	return min(n, PageSize)
}

func stripeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, obj{"error": obj{"message": msg, "type": "invalid_request_error"}})
}

// stripeList pages items with limit and starting_after (or
// ending_before), as Stripe documents.
func (s *Server) stripeList(kind string, items []obj) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		list := items
		if e := q.Get("email"); e != "" {
			list = nil
			for _, it := range items {
				if it["email"] == e {
					list = append(list, it)
				}
			}
		}
		start := 0
		if after := q.Get("starting_after"); after != "" {
			start = -1
			for i, it := range list {
				if it["id"] == after {
					start = i + 1
				}
			}
			if start < 0 {
				stripeError(w, http.StatusBadRequest, fmt.Sprintf("No such %s: '%s'", kind, after))
				return
			}
		}
		n := size(r, "limit", 10)
		end := min(start+n, len(list))
		writeJSON(w, http.StatusOK, obj{"object": "list", "data": list[start:end], "has_more": end < len(list), "url": strings.TrimPrefix(r.URL.Path, "/stripe")})
	}
}

func (s *Server) stripeCustomer(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	for _, c := range customers {
		if c["id"] == id {
			writeJSON(w, http.StatusOK, c)
			return
		}
	}
	stripeError(w, http.StatusNotFound, fmt.Sprintf("No such customer: '%s'", id))
}

// slackConversations pages channels with cursor and limit; errors are
// 200s with ok: false, as Slack's Web API answers them.
func (s *Server) slackConversations(w http.ResponseWriter, r *http.Request) {
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	switch tok {
	case "":
		writeJSON(w, http.StatusOK, obj{"ok": false, "error": "not_authed"})
		return
	case RateLimitedSlackToken:
		w.Header().Set("Retry-After", "30")
		writeJSON(w, http.StatusOK, obj{"ok": false, "error": "ratelimited"})
		return
	case GoodSlackToken:
	default:
		writeJSON(w, http.StatusOK, obj{"ok": false, "error": "invalid_auth"})
		return
	}
	q := r.URL.Query()
	list := channels
	if q.Get("exclude_archived") == "true" {
		list = nil
		for _, c := range channels {
			if c["is_archived"] != true {
				list = append(list, c)
			}
		}
	}
	start := 0
	if c := q.Get("cursor"); c != "" {
		i, err := strconv.Atoi(strings.TrimPrefix(c, "dXNlcjpV"))
		if err != nil || !strings.HasPrefix(c, "dXNlcjpV") || i < 0 || i > len(list) {
			writeJSON(w, http.StatusOK, obj{"ok": false, "error": "invalid_cursor"})
			return
		}
		start = i
	}
	end := min(start+size(r, "limit", 100), len(list))
	next := ""
	if end < len(list) {
		next = "dXNlcjpV" + strconv.Itoa(end) // opaque to the client
	}
	writeJSON(w, http.StatusOK, obj{"ok": true, "channels": list[start:end], "response_metadata": obj{"next_cursor": next}})
}

// jiraProjects pages projects with startAt and maxResults.
func (s *Server) jiraProjects(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	list := projects
	if f := strings.ToLower(q.Get("query")); f != "" {
		list = nil
		for _, p := range projects {
			if strings.Contains(strings.ToLower(p["name"].(string)), f) || strings.Contains(strings.ToLower(p["key"].(string)), f) {
				list = append(list, p)
			}
		}
	}
	start, _ := strconv.Atoi(q.Get("startAt"))
	if start < 0 || start > len(list) {
		writeJSON(w, http.StatusBadRequest, obj{"errorMessages": []string{"startAt must be between 0 and the number of projects"}, "errors": obj{}})
		return
	}
	n := size(r, "maxResults", 50)
	end := min(start+n, len(list))
	writeJSON(w, http.StatusOK, obj{
		"self": "https://your-domain.atlassian.net/rest/api/3/project/search?" + r.URL.RawQuery, "maxResults": n, "startAt": start,
		"total": len(list), "isLast": end >= len(list), "values": list[start:end],
	})
}

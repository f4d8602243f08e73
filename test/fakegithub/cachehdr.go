package fakegithub

import (
	"strings"
	"time"
)

// GitHub's caching headers, as api.github.com sends them:
//
//	ordinary 200s:  Cache-Control: private, max-age=60, s-maxage=60
//	                Vary: Accept, Authorization, Cookie, X-GitHub-OTP
//	                ETag: W/"<hash of the body>"
//	search 200s:    Cache-Control: no-cache (no ETag: never revalidated)
//
// A GET whose If-None-Match matches the current ETag (weak comparison,
// lists and "*" allowed) gets 304 Not Modified with the same ETag,
// Cache-Control and Vary and no body; 304s cost no rate limit on GitHub.
const (
	cacheControlPrivate = "private, max-age=60, s-maxage=60"
	cacheControlNoCache = "no-cache"
	varyGitHub          = "Accept, Authorization, Cookie, X-GitHub-OTP"
)

// etagMatches reports whether the If-None-Match header value matches etag
// by RFC 9110's weak comparison.
func etagMatches(ifNoneMatch, etag string) bool {
	if ifNoneMatch == "" {
		return false
	}
	want := strings.TrimPrefix(etag, "W/")
	for _, t := range strings.Split(ifNoneMatch, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == want {
			return true
		}
	}
	return false
}

// SetBranchProtection overrides whether the default branch of owner/repo is
// protected (tests that change data between two runs: "a compliance job
// fixes branch protection and re-checks"). It affects the protection
// endpoint, the branch objects' "protected" fields and ?protected=.
func (s *Server) SetBranchProtection(owner, repo string, protected bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.protection == nil {
		s.protection = map[string]bool{}
	}
	s.protection[owner+"/"+repo] = protected
}

// protectionOverride returns the override of SetBranchProtection, if any.
func (s *Server) protectionOverride(fullName string) *bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.protection[fullName]; ok {
		return &p
	}
	return nil
}

func searchMatch(rp repo, topics, words []string) bool {
	for _, w := range words {
		if !strings.Contains(rp.name, w) {
			return false
		}
	}
	have := map[string]bool{}
	for _, t := range rp.topics() {
		have[t] = true
	}
	for _, t := range topics {
		if !have[t] {
			return false
		}
	}
	return true
}

// Started is the number of API requests received so far, counted on
// arrival (a request held by a slow fault is counted before it is logged).
func (s *Server) Started() int64 { return s.started.Load() }

// WaitStarted waits until Started() >= n or timeout passes, and returns
// Started().
func (s *Server) WaitStarted(n int64, timeout time.Duration) int64 {
	deadline := time.Now().Add(timeout)
	for s.started.Load() < n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return s.started.Load()
}

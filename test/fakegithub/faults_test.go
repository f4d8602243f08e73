package fakegithub

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestFaultStatus(t *testing.T) {
	s := ForTest(t)
	for st, msg := range map[int]string{401: "Bad credentials", 403: "Resource not accessible by integration", 404: "Not Found", 422: "Validation Failed", 500: "Server Error", 502: "Server Error", 503: "Service Unavailable"} {
		s.ClearFaults()
		s.Inject(Fault{Path: "^/orgs/acme/repos$", Kind: KindStatus, Status: st})
		var e map[string]any
		resp := getJSON(t, s.URL()+"/orgs/acme/repos", &e)
		if resp.StatusCode != st || e["message"] != msg || e["status"] != strconv.Itoa(st) || e["documentation_url"] == nil {
			t.Errorf("%d: got %d %v", st, resp.StatusCode, e)
		}
	}
	// path that doesn't match is untouched
	if resp, _ := get(t, s.URL()+"/orgs/tiny/repos"); resp.StatusCode != 200 {
		t.Errorf("unmatched path: %d", resp.StatusCode)
	}
	s.ClearFaults()
	s.Inject(Fault{Kind: KindStatus, Status: 403, Message: "Must have admin rights to Repository."})
	var e map[string]any
	if resp := getJSON(t, s.URL()+"/user", &e); resp.StatusCode != 403 || e["message"] != "Must have admin rights to Repository." {
		t.Errorf("custom message: %d %v", resp.StatusCode, e)
	}
}

func TestFaultRateLimits(t *testing.T) {
	s := ForTest(t)
	s.Inject(Fault{Path: "^/orgs/acme/repos$", Kind: KindRateLimit, RetryAfter: 120, Times: 1})
	var e map[string]any
	resp := getJSON(t, s.URL()+"/orgs/acme/repos", &e)
	reset, _ := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64)
	if resp.StatusCode != 403 || resp.Header.Get("X-RateLimit-Remaining") != "0" ||
		!strings.HasPrefix(e["message"].(string), "API rate limit exceeded for") ||
		reset < time.Now().Unix()+110 || reset > time.Now().Unix()+130 {
		t.Errorf("rate limit: %d %v %v reset=%d", resp.StatusCode, resp.Header, e, reset)
	}
	if resp, _ := get(t, s.URL()+"/orgs/acme/repos"); resp.StatusCode != 200 {
		t.Errorf("Times=1 not honoured: %d", resp.StatusCode)
	}

	s.Inject(Fault{Kind: KindSecondaryRateLimit, Times: 1})
	resp = getJSON(t, s.URL()+"/orgs/acme/repos", &e)
	if resp.StatusCode != 403 || resp.Header.Get("Retry-After") != "30" ||
		!strings.Contains(e["message"].(string), "secondary rate limit") || resp.Header.Get("X-RateLimit-Remaining") == "0" {
		t.Errorf("secondary: %d %v %v", resp.StatusCode, resp.Header, e)
	}
	s.Inject(Fault{Kind: KindTooManyRequests, RetryAfter: 5, Times: 1})
	resp = getJSON(t, s.URL()+"/orgs/acme/repos", &e)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "5" || e["status"] != "429" {
		t.Errorf("429: %d %v %v", resp.StatusCode, resp.Header, e)
	}
}

func TestFaultPageAndTimes(t *testing.T) {
	s := ForTest(t)
	s.Inject(Fault{Path: "^/orgs/acme/repos$", Page: 2, Times: 2, Kind: KindStatus, Status: 502})
	want := []int{200, 502, 200, 502, 200}
	pages := []int{1, 2, 3, 2, 2}
	for i, p := range pages {
		resp, _ := get(t, s.URL()+"/orgs/acme/repos?per_page=100&page="+strconv.Itoa(p))
		if resp.StatusCode != want[i] {
			t.Errorf("request %d (page %d): %d want %d", i, p, resp.StatusCode, want[i])
		}
	}
	reqs := s.Requests()
	if len(reqs) != 5 || reqs[1].Fault != KindStatus || reqs[1].Status != 502 || reqs[1].Page != 2 || reqs[4].Fault != "" || reqs[4].Status != 200 {
		t.Errorf("log: %+v", reqs)
	}
}

func TestFaultReset(t *testing.T) {
	s := ForTest(t)
	s.Inject(Fault{Path: "^/user$", Kind: KindReset})
	_, err := http.Get(s.URL() + "/user")
	if err == nil {
		t.Fatal("reset: no error")
	}
	if r := s.WaitRequests(1, 5*time.Second); len(r) != 1 || r[0].Status != 0 || r[0].Fault != KindReset {
		t.Errorf("log: %+v", r)
	}
}

func TestFaultSlow(t *testing.T) {
	s := ForTest(t)
	s.Inject(Fault{Path: "^/user$", Kind: KindSlow, Delay: 300 * time.Millisecond})
	start := time.Now()
	if resp, _ := get(t, s.URL()+"/user"); resp.StatusCode != 200 || time.Since(start) < 300*time.Millisecond {
		t.Errorf("slow: %d after %v", resp.StatusCode, time.Since(start))
	}
	c := &http.Client{Timeout: 50 * time.Millisecond}
	if _, err := c.Get(s.URL() + "/user"); err == nil {
		t.Error("client timeout expected")
	}
}

func TestFaultMalformedAndTruncated(t *testing.T) {
	s := ForTest(t)
	s.Inject(Fault{Path: "^/orgs/acme/repos$", Kind: KindMalformed, Times: 1})
	resp, b := get(t, s.URL()+"/orgs/acme/repos")
	var v any
	if resp.StatusCode != 200 || json.Unmarshal(b, &v) == nil {
		t.Errorf("malformed: %d %s", resp.StatusCode, b)
	}
	s.Inject(Fault{Path: "^/orgs/acme/repos$", Kind: KindTruncated, Times: 1})
	r, err := http.Get(s.URL() + "/orgs/acme/repos")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != 200 || !errors.Is(err, io.ErrUnexpectedEOF) || int64(len(body)) >= r.ContentLength {
		t.Errorf("truncated: %d err=%v len=%d cl=%d", r.StatusCode, err, len(body), r.ContentLength)
	}
	if json.Unmarshal(body, &v) == nil {
		t.Error("truncated body decoded")
	}
	if resp, _ := get(t, s.URL()+"/orgs/acme/repos"); resp.StatusCode != 200 {
		t.Errorf("after truncated: %d", resp.StatusCode)
	}
}

func TestFaultOversized(t *testing.T) {
	s := ForTest(t)
	s.Inject(Fault{Path: "^/orgs/acme/repos$", Kind: KindOversized, Size: 8 << 20})
	r, err := http.Get(s.URL() + "/orgs/acme/repos")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	cr := &countingReader{r: r.Body}
	var items []json.RawMessage
	if err := json.NewDecoder(cr).Decode(&items); err != nil {
		t.Fatalf("oversized: %v", err)
	}
	if cr.n < 8<<20-(64<<10) || len(items) < 1000 {
		t.Errorf("oversized: %d bytes, %d items", cr.n, len(items))
	}
	if testing.Short() {
		return
	}
	// default size, client gives up early: server must not hang
	s.ClearFaults()
	s.Inject(Fault{Kind: KindOversized})
	r2, err := http.Get(s.URL() + "/orgs/acme/repos")
	if err != nil {
		t.Fatal(err)
	}
	io.CopyN(io.Discard, r2.Body, 1<<20)
	r2.Body.Close()
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestFaultLinkLoop(t *testing.T) {
	s := ForTest(t)
	s.Inject(Fault{Path: "^/orgs/acme/repos$", Page: 2, Kind: KindLinkLoop})
	resp, _ := get(t, s.URL()+"/orgs/acme/repos?per_page=100&page=2")
	if l := links(resp.Header.Get("Link")); l["next"] != s.URL()+"/orgs/acme/repos?per_page=100&page=2" {
		t.Errorf("link loop: %v", resp.Header.Get("Link"))
	}
}

func TestAuthAndLog(t *testing.T) {
	s := ForTest(t, WithToken("sekret"))
	do := func(auth string) (int, map[string]any) {
		req, _ := http.NewRequest("GET", s.URL()+"/user", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	if st, m := do(""); st != 401 || m["message"] != "Requires authentication" {
		t.Errorf("no auth: %d %v", st, m)
	}
	if st, m := do("Bearer nope"); st != 401 || m["message"] != "Bad credentials" {
		t.Errorf("bad auth: %d %v", st, m)
	}
	if st, m := do("Bearer sekret"); st != 200 || m["login"] != AuthUser {
		t.Errorf("good auth: %d %v", st, m)
	}
	if st, _ := do("token sekret"); st != 200 {
		t.Errorf("token scheme: %d", st)
	}
	r := s.Requests()
	if len(r) != 4 || r[0].HasAuth || !r[2].HasAuth || r[2].AuthHeader != "Bearer sekret" || r[2].AuthHash == "" {
		t.Errorf("log: %+v", r)
	}
	s.ResetRequests()
	if len(s.Requests()) != 0 {
		t.Error("ResetRequests")
	}
}

func TestConcurrent(t *testing.T) {
	s := ForTest(t)
	s.Inject(Fault{Path: "^/orgs/acme/repos$", Page: 3, Times: 5, Kind: KindStatus, Status: 503})
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for i := 0; i < 40; i++ {
		wg.Go(func() {
			resp, err := http.Get(s.URL() + "/orgs/acme/repos?page=" + strconv.Itoa(i%4+1))
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			mu.Lock()
			codes[resp.StatusCode]++
			mu.Unlock()
			_ = s.Requests()
		})
	}
	wg.Wait()
	if codes[503] != 5 || codes[200] != 35 || len(s.Requests()) != 40 {
		t.Errorf("codes %v, %d logged", codes, len(s.Requests()))
	}
}

func TestFaultBody(t *testing.T) {
	s := ForTest(t)
	s.Inject(Fault{Path: "^/orgs/evil/repos$", Kind: KindBody, Body: `[{"id":1,"name":"x\u001b[2J"}]`})
	var items []map[string]any
	resp := getJSON(t, s.URL()+"/orgs/evil/repos", &items)
	if resp.StatusCode != 200 || len(items) != 1 || items[0]["name"] != "x\x1b[2J" || resp.Header.Get("X-GitHub-Request-Id") == "" {
		t.Fatalf("%d %v", resp.StatusCode, items)
	}
}

package fakegithub

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestPaginationFollowNext(t *testing.T) {
	s := ForTest(t)
	for _, tc := range []struct {
		perPage, pages int
	}{{0, 9}, {100, 3}, {7, 36}, {250, 3}} {
		url := s.URL() + "/orgs/acme/repos"
		if tc.perPage > 0 {
			url += fmt.Sprintf("?per_page=%d", tc.perPage)
		}
		items, pages := fetchAll(t, url)
		if len(items) != AcmeRepos || pages != tc.pages {
			t.Errorf("per_page=%d: %d items in %d pages, want %d in %d", tc.perPage, len(items), pages, AcmeRepos, tc.pages)
		}
		seen := map[string]bool{}
		for _, it := range items {
			seen[it["full_name"].(string)] = true
		}
		if len(seen) != AcmeRepos {
			t.Errorf("per_page=%d: %d distinct repos", tc.perPage, len(seen))
		}
		// default order is created desc: newest (repo-249) first
		if items[0]["name"] != "repo-249" || items[len(items)-1]["name"] != "repo-000" {
			t.Errorf("order: first %v last %v", items[0]["name"], items[len(items)-1]["name"])
		}
	}
}

func TestLinkHeader(t *testing.T) {
	s := ForTest(t)
	resp, _ := get(t, s.URL()+"/orgs/acme/repos?per_page=100")
	l := resp.Header.Get("Link")
	want := fmt.Sprintf(`<%[1]s/orgs/acme/repos?per_page=100&page=2>; rel="next", <%[1]s/orgs/acme/repos?per_page=100&page=3>; rel="last"`, s.URL())
	if l != want {
		t.Errorf("page 1 Link\n got %s\nwant %s", l, want)
	}
	resp, _ = get(t, s.URL()+"/orgs/acme/repos?per_page=100&page=2&type=all")
	got := links(resp.Header.Get("Link"))
	for rel, page := range map[string]string{"prev": "1", "next": "3", "last": "3", "first": "1"} {
		if !strings.HasSuffix(got[rel], "page="+page) || !strings.Contains(got[rel], "type=all") {
			t.Errorf("page 2 rel=%s: %q", rel, got[rel])
		}
	}
	if !strings.HasPrefix(resp.Header.Get("Link"), "<"+s.URL()) {
		t.Errorf("Link not absolute with request host: %s", resp.Header.Get("Link"))
	}
	resp, _ = get(t, s.URL()+"/orgs/acme/repos?per_page=100&page=3")
	got = links(resp.Header.Get("Link"))
	if got["next"] != "" || got["last"] != "" || got["prev"] == "" || got["first"] == "" {
		t.Errorf("last page Link: %v", got)
	}
	// single page: no Link at all
	resp, _ = get(t, s.URL()+"/orgs/tiny/repos")
	if l := resp.Header.Get("Link"); l != "" {
		t.Errorf("tiny Link = %q", l)
	}
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Used", "X-RateLimit-Resource"} {
		if resp.Header.Get(h) == "" {
			t.Errorf("missing %s", h)
		}
	}
}

func TestPerPageCapAndBeyondLast(t *testing.T) {
	s := ForTest(t)
	for _, c := range []struct {
		query string
		want  int
	}{
		{"per_page=1000", 100},        // capped
		{"per_page=abc", 30},          // the default
		{"per_page=100&page=4", 0},    // past the last page
		{"page=99999999999999999", 0}, // a huge page
	} {
		var page []map[string]any
		getJSON(t, s.URL()+"/orgs/acme/repos?"+c.query, &page)
		if len(page) != c.want {
			t.Errorf("%s gave %d items, want %d", c.query, len(page), c.want)
		}
	}
}

// The search cap and created: ranges, as GitHub documents them.
func TestSearchCapAndCreated(t *testing.T) {
	s := ForTest(t)
	type page struct {
		Total int              `json:"total_count"`
		Items []map[string]any `json:"items"`
	}
	search := func(q string, extra string) (int, page, map[string]string, []byte) {
		var p page
		resp, body := get(t, s.URL()+"/search/repositories?q="+url.QueryEscape(q)+extra)
		if resp.StatusCode == 200 {
			p = page{}
			getJSON(t, s.URL()+"/search/repositories?q="+url.QueryEscape(q)+extra, &p)
		}
		return resp.StatusCode, p, links(resp.Header.Get("Link")), body
	}
	st, p, l, _ := search("org:sprawl", "&per_page=100")
	if st != 200 || p.Total != SprawlRepos || len(p.Items) != 100 || !strings.Contains(l["last"], "page=10") {
		t.Fatalf("first page: %d total %d items %d links %v", st, p.Total, len(p.Items), l)
	}
	if st, p, l, _ = search("org:sprawl", "&per_page=100&page=10"); st != 200 || len(p.Items) != 100 || l["next"] != "" {
		t.Fatalf("page 10: %d items %d links %v", st, len(p.Items), l)
	}
	if st, _, _, body := search("org:sprawl", "&per_page=100&page=11"); st != 422 || !strings.Contains(string(body), "Only the first 1000 search results are available") {
		t.Fatalf("page 11: %d %s", st, body)
	}
	// created: ranges: 2020-01-01 + i*17h; whole days for dates, and
	// every qualifier must hold.
	for q, want := range map[string]int{
		"org:sprawl created:2020-01-01":                                           2, // 00:00, 17:00
		"org:sprawl created:<=2020-01-01":                                         2,
		"org:sprawl created:<2020-01-02":                                          2,
		"org:sprawl created:>2024-11-04":                                          1, // 2024-11-05T03:00, the last
		"org:sprawl created:2020-01-01T00:00:00+00:00..2020-01-01T16:59:59+00:00": 1,
		"org:sprawl created:*..2020-01-01T17:00:00Z":                              2,
		"org:sprawl created:>=2021-01-01 created:<2021-01-02":                     2, // 05:00, 22:00
		"org:sprawl created:>=2021-01-01 created:<2021-01-01T06:00:00Z":           1,
		"org:sprawl created:2025-01-01..*":                                        0,
	} {
		st, p, _, body := search(q, "")
		if st != 200 || p.Total != want {
			t.Errorf("%q: %d total %d, want %d %.200s", q, st, p.Total, want, body)
		}
	}
	if st, _, _, _ := search("org:sprawl created:yesterday", ""); st != 422 {
		t.Errorf("bad created: %d, want 422", st)
	}
}

func TestScaleOrgs(t *testing.T) {
	s := ForTest(t, WithRepos("custom", 42))
	items, pages := fetchAll(t, s.URL()+"/orgs/scale-1000/repos?per_page=100")
	if len(items) != 1000 || pages != 10 {
		t.Errorf("scale-1000: %d items, %d pages", len(items), pages)
	}
	var page []map[string]any
	resp := getJSON(t, s.URL()+"/orgs/scale-100000/repos?per_page=100&page=1000", &page)
	if len(page) != 100 || page[99]["name"] != "repo-00000" {
		t.Errorf("scale-100000 last page: %d items, last %v", len(page), page[len(page)-1]["name"])
	}
	if l := links(resp.Header.Get("Link")); l["next"] != "" || !strings.HasSuffix(l["prev"], "page=999") {
		t.Errorf("scale-100000 page 1000 Link: %v", l)
	}
	resp = getJSON(t, s.URL()+"/orgs/scale-100000/repos?per_page=100", &page)
	if l := links(resp.Header.Get("Link")); !strings.HasSuffix(l["last"], "page=1000") {
		t.Errorf("scale-100000 last: %v", l)
	}
	var one map[string]any
	if r := getJSON(t, s.URL()+"/repos/scale-100000/repo-04242", &one); r.StatusCode != 200 || one["full_name"] != "scale-100000/repo-04242" {
		t.Errorf("scale repo lookup: %d %v", r.StatusCode, one["full_name"])
	}
	items, _ = fetchAll(t, s.URL()+"/orgs/custom/repos")
	if len(items) != 42 {
		t.Errorf("custom: %d", len(items))
	}
	items, _ = fetchAll(t, s.URL()+"/orgs/scale-0/repos")
	if len(items) != 0 {
		t.Errorf("scale-0: %d", len(items))
	}
	for _, p := range []string{"/orgs/scale-abc/repos", "/orgs/scale-010/repos", "/orgs/nope/repos", "/orgs/nope", "/repos/acme/repo-250", "/repos/acme/repo-1", "/nope"} {
		var e map[string]any
		if r := getJSON(t, s.URL()+p, &e); r.StatusCode != 404 || e["message"] != "Not Found" || e["status"] != "404" {
			t.Errorf("%s: %d %v", p, r.StatusCode, e)
		}
	}
}

// BenchmarkOrgReposPage measures serving one page of 100 repositories.
func BenchmarkOrgReposPage(b *testing.B) {
	s := ForTest(b)
	url := s.URL() + "/orgs/scale-100000/repos?per_page=100&page=500"
	for b.Loop() {
		resp, err := http.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		b.SetBytes(n)
	}
}

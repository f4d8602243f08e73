package fakegithub

import (
	"net/url"
	"strings"
	"testing"
)

// The search cap and created: ranges, as GitHub documents them.
func TestSearchCapAndCreated(t *testing.T) {
	s := New()
	defer s.Close()
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

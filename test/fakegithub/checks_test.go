package fakegithub

import (
	"net/http"
	"strings"
	"testing"
)

func noRedirect(t *testing.T, url, token string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func TestMembershipChecks(t *testing.T) {
	s := ForTest(t)
	for _, c := range []struct {
		path, token string
		status      int
	}{
		{"/orgs/acme/members/acme-dev-02", "", 204},
		{"/orgs/acme/members/acme-dev-99", "any", 404},
		{"/orgs/acme/members/acme-dev-02", NonMemberToken, 302},
		{"/orgs/acme/public_members/acme-dev-01", NonMemberToken, 204},
		{"/orgs/acme/public_members/acme-dev-02", "", 404},
		{"/orgs/nope/members/x", "", 404},
	} {
		resp := noRedirect(t, s.URL()+c.path, c.token)
		if resp.StatusCode != c.status {
			t.Errorf("%s (token %q): %d, want %d", c.path, c.token, resp.StatusCode, c.status)
		}
		if c.status == 302 && resp.Header.Get("Location") != s.URL()+"/orgs/acme/public_members/acme-dev-02" {
			t.Errorf("Location %q", resp.Header.Get("Location"))
		}
	}
}

func TestSearchAndTruthFaults(t *testing.T) {
	s := ForTest(t)
	var page struct {
		Total      int              `json:"total_count"`
		Incomplete bool             `json:"incomplete_results"`
		Items      []map[string]any `json:"items"`
	}
	if resp := getJSON(t, s.URL()+"/search/repositories?q=org:tiny", &page); resp.StatusCode != 200 || page.Total != 3 || page.Incomplete || len(page.Items) != 3 {
		t.Fatalf("search: %d %+v", resp.StatusCode, page)
	}
	if resp, _ := get(t, s.URL()+"/search/repositories"); resp.StatusCode != 422 {
		t.Errorf("search without q: %d", resp.StatusCode)
	}
	s.Inject(Fault{Path: "^/search/repositories$", Kind: KindIncompleteResults})
	if getJSON(t, s.URL()+"/search/repositories?q=org:tiny", &page); !page.Incomplete || len(page.Items) != 3 {
		t.Errorf("incomplete fault: %+v", page)
	}
	s.ClearFaults()
	s.Inject(Fault{Path: "^/orgs/acme/repos$", Kind: KindLinkElsewhere})
	resp, _ := get(t, s.URL()+"/orgs/acme/repos?per_page=100")
	if l := links(resp.Header.Get("Link")); !strings.HasPrefix(l["next"], s.URL()+"/orgs/tiny/repos?") || !strings.Contains(l["next"], "page=2") {
		t.Errorf("link_elsewhere next = %q", l["next"])
	}
	s.ClearFaults()
	s.Inject(Fault{Path: "^/orgs/acme/repos$", Kind: KindRedirect, Location: "/orgs/tiny/repos"})
	if resp := noRedirect(t, s.URL()+"/orgs/acme/repos", ""); resp.StatusCode != 302 || resp.Header.Get("Location") != s.URL()+"/orgs/tiny/repos" {
		t.Errorf("redirect fault: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	s.ClearFaults()
	s.Inject(Fault{Path: "^/orgs/acme/repos$", Kind: KindRateLimit, Reset: "99999999999999999"})
	if resp, _ := get(t, s.URL()+"/orgs/acme/repos"); resp.StatusCode != 403 || resp.Header.Get("X-RateLimit-Reset") != "99999999999999999" {
		t.Errorf("reset: %d %q", resp.StatusCode, resp.Header.Get("X-RateLimit-Reset"))
	}
}

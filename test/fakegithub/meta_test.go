package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// GET /zen answers one saying as text/plain, another on the next request.
func TestZen(t *testing.T) {
	s := ForTest(t)
	var seen []string
	for range 2 {
		resp, b := get(t, s.URL()+"/zen")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain;charset=utf-8" || !slices.Contains(ZenSayings(), string(b)) {
			t.Fatalf("/zen: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
		if resp.Header.Get("X-RateLimit-Resource") != "core" {
			t.Errorf("/zen without rate-limit headers: %v", resp.Header)
		}
		seen = append(seen, string(b))
	}
	if seen[0] == seen[1] {
		t.Errorf("two requests, one saying: %q", seen)
	}
}

// GET /versions is a JSON array of date strings.
func TestVersions(t *testing.T) {
	s := ForTest(t)
	var v []string
	resp := getJSON(t, s.URL()+"/versions", &v)
	if resp.StatusCode != 200 || !slices.Equal(v, APIVersions) || len(v) == 0 || len(v[0]) != len("2022-11-28") {
		t.Fatalf("/versions: %d %v", resp.StatusCode, v)
	}
}

// GET /repositories lists every public repository by ascending id, pages
// of PublicReposPage, paginated by since alone: Link has only rel="next",
// and per_page changes nothing.
func TestPublicRepositories(t *testing.T) {
	s := ForTest(t)
	repos, pages := fetchAll(t, s.URL()+"/repositories")
	// octocat's hello-world and notes, acme's 84, tiny's alpha, sprawl's 834.
	if len(repos) != 2+84+1+834 || pages != 10 {
		t.Fatalf("%d repositories in %d pages", len(repos), pages)
	}
	owners := map[string]int{}
	for i, r := range repos {
		if r["private"] != false || (i > 0 && r["id"].(float64) <= repos[i-1]["id"].(float64)) {
			t.Fatalf("repository %d: %v", i, r)
		}
		owners[strings.Split(r["full_name"].(string), "/")[0]]++
		for _, k := range []string{"node_id", "owner", "html_url", "fork", "url", "hooks_url", "git_url", "ssh_url"} {
			if _, ok := r[k]; !ok {
				t.Fatalf("repository %v lacks %s", r["full_name"], k)
			}
		}
	}
	if fmt.Sprint(owners) != "map[acme:84 octocat:2 sprawl:834 tiny:1]" {
		t.Errorf("owners: %v", owners)
	}

	resp, b := get(t, s.URL()+"/repositories?since=500000240&per_page=2")
	var page []map[string]any
	if err := json.Unmarshal(b, &page); err != nil || resp.StatusCode != 200 || len(page) != PublicReposPage || page[0]["full_name"] != "acme/repo-243" {
		t.Fatalf("since=500000240: %d, %d items, %v", resp.StatusCode, len(page), err)
	}
	l := links(resp.Header.Get("Link"))
	want := fmt.Sprintf("%s/repositories?since=%.0f", s.URL(), page[len(page)-1]["id"])
	if len(l) != 1 || l["next"] != want {
		t.Errorf("Link %q, want only next %s", resp.Header.Get("Link"), want)
	}
	if resp, b := get(t, s.URL()+"/repositories?since=999999999999"); resp.StatusCode != 200 || string(b) != "[]\n" || resp.Header.Get("Link") != "" {
		t.Errorf("past the last id: %d %q Link %q", resp.StatusCode, b, resp.Header.Get("Link"))
	}
	if resp, _ := get(t, s.URL()+"/repositories?since=yesterday"); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("since=yesterday: %d, want 422", resp.StatusCode)
	}
}

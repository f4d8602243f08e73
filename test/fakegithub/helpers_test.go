package fakegithub

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"testing"
)

func get(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read: %v", url, err)
	}
	return resp, b
}

func getJSON(t *testing.T, url string, v any) *http.Response {
	t.Helper()
	resp, b := get(t, url)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: decode: %v: %.200s", url, err, b)
	}
	return resp
}

var linkRe = regexp.MustCompile(`<([^>]+)>; rel="([a-z]+)"`)

func links(h string) map[string]string {
	out := map[string]string{}
	for _, m := range linkRe.FindAllStringSubmatch(h, -1) {
		out[m[2]] = m[1]
	}
	return out
}

// fetchAll follows rel="next" from url and returns all items and pages.
func fetchAll(t *testing.T, url string) (items []map[string]any, pages int) {
	t.Helper()
	for url != "" {
		var page []map[string]any
		resp := getJSON(t, url, &page)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", url, resp.StatusCode)
		}
		items = append(items, page...)
		pages++
		if pages > 10000 {
			t.Fatal("too many pages")
		}
		url = links(resp.Header.Get("Link"))["next"]
	}
	return items, pages
}

func count(items []map[string]any, pred func(map[string]any) bool) int {
	n := 0
	for _, it := range items {
		if pred(it) {
			n++
		}
	}
	return n
}

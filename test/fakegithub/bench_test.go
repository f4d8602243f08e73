package fakegithub

import (
	"io"
	"net/http"
	"testing"
)

// BenchmarkOrgReposPage measures serving one page of 100 repositories.
func BenchmarkOrgReposPage(b *testing.B) {
	s := New()
	defer s.Close()
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

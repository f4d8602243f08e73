package registry_test

import (
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

func TestEmbeddedGitHub(t *testing.T) {
	srcs := registry.Embedded()
	if len(srcs) != 1 || srcs[0].Name != "github" || srcs[0].Kind != registry.KindIndex || srcs[0].Path != "embedded/github.idx" {
		t.Fatalf("embedded sources = %+v", srcs)
	}
	data, err := srcs[0].Data()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 4<<20 {
		t.Errorf("embedded github index is %d bytes; over the 4 MiB budget", len(data))
	}
	start := time.Now()
	p, err := providers.Decode(data)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("github index: %d bytes, header decoded in %v", len(data), elapsed)
	if p.Name() != "github" || len(p.Resources) != 371 || p.BaseURL != "https://api.github.com" || p.Profile.AppAuth() == nil {
		t.Errorf("header = provider %s, %d resources, base %q, app auth %v", p.Name(), len(p.Resources), p.BaseURL, p.Profile.AppAuth())
	}
	methods := 0
	for _, r := range p.Resources {
		methods += r.Methods
	}
	if methods != 630 { // 639 GET operations minus 9 downloads (providers/openapi doc)
		t.Errorf("header counts %d methods, want 630", methods)
	}
	r, err := p.Resource("repos", "repos")
	if err != nil || r == nil {
		t.Fatalf("repos.repos: %v", err)
	}
	if m := r.Method("list_for_org"); m == nil || m.Column("private") == nil || m.Column("private").Type != providers.TypeBoolean {
		t.Errorf("repos.repos list_for_org = %+v", m)
	}
}

// BenchmarkDecodeEmbedded is the cold-start cost of the default provider.
func BenchmarkDecodeEmbedded(b *testing.B) {
	src := registry.Embedded()[0]
	for i := 0; i < b.N; i++ {
		data, err := src.Data()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := providers.Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

func TestFileSource(t *testing.T) {
	if s, err := registry.FileSource("stripe", "./stripe.json", "./p.json"); err != nil || s.Kind != registry.KindOpenAPI || s.Profile != "./p.json" {
		t.Fatalf("got %+v, %v", s, err)
	}
	for _, bad := range [][3]string{{"Stripe", "s.json", ""}, {"stripe", "", ""}, {"stripe", "s.idx", "p.json"}} {
		if _, err := registry.FileSource(bad[0], bad[1], bad[2]); err == nil || strings.Contains(err.Error(), "--provider") {
			t.Errorf("%q: %v, want an error that names no flag", bad, err)
		}
	}
	if _, ok := registry.BuiltinProfile("github"); !ok {
		t.Error("the github profile is not compiled in")
	}
}

package registry_test

import (
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

func TestParseProviderFlag(t *testing.T) {
	src, err := registry.ParseProviderFlag("petstore=./specs/petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if src.Name != "petstore" || src.Kind != registry.KindOpenAPI || src.Path != "./specs/petstore.yaml" || src.Data == nil {
		t.Errorf("source = %+v", src)
	}
	if _, err := src.Data(); err == nil {
		t.Error("reading a missing file succeeded")
	}
	if src, err := registry.ParseProviderFlag(" my_api2 = /tmp/x.idx "); err != nil || src.Kind != registry.KindIndex || src.Name != "my_api2" || src.Path != "/tmp/x.idx" {
		t.Errorf("index source = %+v, %v", src, err)
	}
	// The path may itself contain '='.
	if src, err := registry.ParseProviderFlag("a=dir/x=y.json"); err != nil || src.Path != "dir/x=y.json" {
		t.Errorf("path with '=' = %+v, %v", src, err)
	}
	for in, want := range map[string]string{
		"":                  "NAME=PATH",
		"petstore.yaml":     "NAME=PATH",
		"=petstore.yaml":    "name before '=' is empty",
		"petstore=":         "path after '=' is empty",
		"Pet-Store=x.yaml":  "lower-case",
		"pet.store=x.yaml":  "lower-case",
		"1pets=x.yaml":      "lower-case",
		"pets store=x.yaml": "lower-case",
	} {
		_, err := registry.ParseProviderFlag(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseProviderFlag(%q) error = %v, want it to mention %q", in, err, want)
		}
	}
}

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
	if p.Name() != "github" || len(p.Resources) != 371 || p.BaseURL != "https://api.github.com" || p.Pagination != "link" {
		t.Errorf("header = provider %s, %d resources, base %q, pagination %q", p.Name(), len(p.Resources), p.BaseURL, p.Pagination)
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

func TestParseProviderFlagProfile(t *testing.T) {
	s, err := registry.ParseProviderFlag("stripe=./stripe.json,profile=./stripe-profile.json")
	if err != nil || s.Name != "stripe" || s.Path != "./stripe.json" || s.Profile != "./stripe-profile.json" || s.Kind != registry.KindOpenAPI {
		t.Fatalf("got %+v, %v", s, err)
	}
	for _, bad := range []string{"stripe=./s.json,profile=", "stripe=./s.idx,profile=p.json"} {
		if _, err := registry.ParseProviderFlag(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
	if _, ok := registry.BuiltinProfile("github"); !ok {
		t.Error("the github profile is not compiled in")
	}
}

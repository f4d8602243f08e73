package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

// TestEngineOnACatalog: an engine made on a catalog read beforehand (as
// engine check does) gets the endpoints it is made with, and a name of no
// provider is refused as a usage error about the setting.
func TestEngineOnACatalog(t *testing.T) {
	opts := Options{Getenv: func(string) string { return "" }}
	cat := NewCatalog(opts)
	if _, err := cat.Provider("github"); err != nil {
		t.Fatal(err)
	}
	opts.Catalog = cat
	opts.BaseURLs = map[string]string{"nope": "http://127.0.0.1:1"}
	_, err := New(opts)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindUsage || e.Setting != "base-url" || !strings.Contains(err.Error(), "no such provider") {
		t.Fatalf("base URL of no provider: %v", err)
	}
	opts.BaseURLs = nil
	opts.Auth = map[string]providers.AuthConfig{"nope": {Type: providers.AuthNull}}
	if _, err := New(opts); !errors.As(err, &e) || e.Setting != "auth" {
		t.Fatalf("auth of no provider: %v", err)
	}
	const u = "http://127.0.0.1:9/api"
	opts.BaseURLs = map[string]string{"github": u}
	opts.Auth = map[string]providers.AuthConfig{"github": {Type: providers.AuthNull}}
	eng, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if eng.Catalog() != cat {
		t.Fatal("the engine did not keep the catalog it was given")
	}
	c, err := eng.Client("github")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.BaseURL(), u) {
		t.Fatalf("base URL %q, want %q", c.BaseURL(), u)
	}
}

// TestDiscoveryDefaultProvider: SHOW SERVICES and SHOW RESOURCES without
// a provider are about the catalog's default provider, the one the MCP
// tools use too: github when there is one, else the first by name.
func TestDiscoveryDefaultProvider(t *testing.T) {
	data, err := registry.Embedded()[0].Data()
	if err != nil {
		t.Fatal(err)
	}
	src := registry.Source{Name: "acme", Kind: registry.KindIndex, Path: "acme.idx", Data: func() ([]byte, error) { return data, nil }}
	eng, err := New(Options{Sources: []registry.Source{src}})
	if err != nil {
		t.Fatal(err)
	}
	if got := eng.Catalog().DefaultProvider(); got != "acme" {
		t.Fatalf("default provider %q, want acme", got)
	}
	for _, q := range []string{"SHOW SERVICES", "SHOW RESOURCES"} {
		res, err := eng.Query(context.Background(), q, QueryOptions{})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if len(res.Rows) == 0 {
			t.Fatalf("%s: no rows", q)
		}
	}
	res, err := eng.Query(context.Background(), "SHOW RESOURCES LIKE 'repos'", QueryOptions{})
	if err != nil || len(res.Rows) == 0 || !strings.HasPrefix(res.Rows[0][1].(string), "acme.") {
		t.Fatalf("SHOW RESOURCES LIKE 'repos': %v, %v", res, err)
	}
}

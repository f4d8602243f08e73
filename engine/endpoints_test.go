package engine

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/providers"
)

// TestSetEndpoints: base URLs and auth set after New are the ones the
// provider's client gets; a name of no provider is refused as in New, and
// so is a change once a client exists.
func TestSetEndpoints(t *testing.T) {
	e, err := New(Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetEndpoints(map[string]string{"nope": "http://127.0.0.1:1"}, nil); err == nil || !strings.Contains(err.Error(), "no such provider") {
		t.Fatalf("unknown provider: %v", err)
	}
	if err := e.SetEndpoints(nil, map[string]providers.AuthConfig{"nope": {Type: providers.AuthNull}}); err == nil {
		t.Fatal("auth of an unknown provider was accepted")
	}
	const u = "http://127.0.0.1:9/api"
	if err := e.SetEndpoints(map[string]string{"github": u}, map[string]providers.AuthConfig{"github": {Type: providers.AuthNull}}); err != nil {
		t.Fatal(err)
	}
	c, err := e.Client("github")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.BaseURL(), u) {
		t.Fatalf("base URL %q, want %q", c.BaseURL(), u)
	}
	if err := e.SetEndpoints(nil, nil); err == nil {
		t.Fatal("endpoints changed after a client was made")
	}
}

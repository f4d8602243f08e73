package secrets

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// schemeDoc declares an apiKey in a header, in the query (a parameter
// named "k", which no name rule masks: only redaction hides it) and in a
// cookie (docs/providers.md, "Auth from the description").
const schemeDoc = `{"openapi": "3.0.3", "info": {"title": "s", "version": "1"},
  "servers": [{"url": "https://api.schemes.dev"}],
  "components": {"securitySchemes": {
    "h": {"type": "apiKey", "in": "header", "name": "X-Key"},
    "q": {"type": "apiKey", "in": "query", "name": "k"},
    "c": {"type": "apiKey", "in": "cookie", "name": "sess"},
    "b": {"type": "http", "scheme": "basic"}}},
  "paths": {
    "/h/items": {"get": {"operationId": "h", "security": [{"h": []}], "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}},
    "/q/items": {"get": {"operationId": "q", "security": [{"q": []}], "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}},
    "/c/items": {"get": {"operationId": "c", "security": [{"c": []}], "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}},
    "/b/items": {"get": {"operationId": "b", "security": [{"b": []}], "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}},
    "/ok/items": {"get": {"operationId": "ok", "security": [{"q": []}], "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}}}}`

// TestSchemeKeysNeverPrinted: the keys of a description's apiKey schemes
// (header, query, cookie) and its http basic user:password reach the
// server, and never the output of exec in any format, its errors (a 403
// that echoes the key and the URL that carried it), its rows (an answer
// that echoes the Basic Authorization header: base64 of user:password,
// shown before as is) or its --debug log.
func TestSchemeKeysNeverPrinted(t *testing.T) {
	keys := map[string]string{"h": "hdr_SCHEME_9d1e7c3a5b20f846", "q": "qry_SCHEME_4c8a2e6f0d13b975", "c": "cki_SCHEME_7b5d3f1e9a02c648", "b": "ann:pw_SCHEME_3e5a7c9b1d04f862"}
	var mu sync.Mutex
	got := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen := r.Header.Get("X-Key") + " " + r.URL.Query().Get("k") + " "
		if u, p, ok := r.BasicAuth(); ok {
			seen += u + ":" + p + " "
		}
		if c, err := r.Cookie("sess"); err == nil {
			seen += c.Value
		}
		mu.Lock()
		for s, k := range keys {
			if strings.Contains(seen, k) {
				got[s] = true
			}
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/ok/items":
			fmt.Fprint(w, `[{"id": "1"}]`)
			return
		case "/b/items":
			fmt.Fprintf(w, `[{"id": %q}]`, r.Header.Get("Authorization"))
			return
		}
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, `{"message": "key %s refused for %s (cookie %s)"}`, strings.TrimSpace(seen), r.URL.String(), r.Header.Get("Cookie"))
	}))
	t.Cleanup(srv.Close)

	doc := testutil.TempFile(t, "schemes.json", schemeDoc)
	env := testutil.FastEnv(t, "S_X_KEY="+keys["h"], "S_K="+keys["q"], "S_SESS="+keys["c"], "S_BASIC_AUTH="+keys["b"])
	var o outputs
	for _, tbl := range []string{"s.h.items", "s.q.items", "s.c.items", "s.b.items", "s.ok.items"} {
		for _, format := range []string{"table", "json", "csv"} {
			r := o.run(tbl+" "+format, testutil.Run(t, env, "", "exec", "--debug", "-o", format, "--provider", "s="+doc, "--base-url", "s="+srv.URL,
				"SELECT id FROM "+tbl))
			ok := tbl == "s.ok.items" || tbl == "s.b.items"
			if ok && r.Code != 0 {
				t.Fatalf("%s: exit %d\n%s", tbl, r.Code, r.Stderr)
			}
			if !ok && r.Code != 2 {
				t.Errorf("%s: exit %d, want 2 (the 403)\n%s", tbl, r.Code, r.Stderr)
			}
		}
		o.run(tbl+" explain", testutil.Run(t, env, "", "exec", "--provider", "s="+doc, "--base-url", "s="+srv.URL, "EXPLAIN SELECT id FROM "+tbl))
	}
	for s := range keys {
		if !got[s] {
			t.Fatalf("the %s key never reached the server: the scan would be vacuous", s)
		}
	}
	basic := base64.StdEncoding.EncodeToString([]byte(keys["b"]))
	o.assertAbsent(t, "scheme key", []string{keys["h"], keys["q"], keys["c"], keys["b"], basic, strings.TrimPrefix(keys["b"], "ann:")}, 2000)
}

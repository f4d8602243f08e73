package openapi

import (
	"os"
	"strings"
	"testing"

	"github.com/enginehq/engine/providers"
)

func TestSecurityFromDescription(t *testing.T) {
	doc, err := os.ReadFile("../../test/testdata/auth/keyed.json")
	if err != nil {
		t.Fatal(err)
	}
	idx, err := Compile("keyed", "keyed.json", doc, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	p, err := providers.Decode(idx)
	if err != nil {
		t.Fatal(err)
	}
	if p.Security == nil || len(p.Security.Schemes) != 4 {
		t.Fatalf("schemes %+v", p.Security)
	}
	want := map[string]string{"header": "[[headerKey]]", "query": "[[queryKey]]", "cookie": "[[cookieKey]]", "raw": "[[rawAuth]]", "public": "[]"}
	for svc, w := range want {
		r, err := p.Resource(svc, "things")
		if err != nil || r == nil {
			t.Fatalf("%s: %v", svc, err)
		}
		m := r.Methods[0]
		if got := strings.ReplaceAll(strings.TrimSpace(fmtAuth(m.Auth)), " ", ""); got != w {
			t.Errorf("%s: auth %s, want %s", svc, got, w)
		}
		if m.Param("api_key") != nil {
			t.Errorf("%s: the query key is a WHERE parameter", svc)
		}
	}
	if !strings.Contains(p.Profile.Credentials, "KEYED_X_API_KEY (header X-API-Key)") {
		t.Errorf("credentials advice %q", p.Profile.Credentials)
	}
	for profile, want := range map[string]string{
		`{"auth": {"schemes": {"headerKey": {"token": "abc"}}}}`:     "never holds a secret",
		`{"auth": {"schemes": {"headerKey": {"env": "OTHER_KEY"}}}}`: "does not start with KEYED_",
		`{"headers": {"x-api-key": "abc"}}`:                          "never holds a secret",
		`{"params": {"api_key": {"value": "abc"}}}`:                  "never holds a secret",
		`{"params": {"tenant": {}}}`:                                 "exactly one of",
	} {
		_, err := Compile("keyed", "keyed.json", doc, []byte(profile), false)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("profile %s: %v, want %q", profile, err, want)
		}
	}
}

func fmtAuth(a [][]string) string {
	var b strings.Builder
	b.WriteString("[")
	for _, alt := range a {
		b.WriteString("[" + strings.Join(alt, ",") + "]")
	}
	b.WriteString("]")
	return b.String()
}

// Trello lists key and token as alternatives in security, but each
// operation requires both as query parameters: both are sent.
func TestRequiredKeyParamsJoinEveryAlternative(t *testing.T) {
	doc := `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "servers": [{"url": "https://api.trello.com/1"}],
  "components": {"securitySchemes": {"api_key": {"type": "apiKey", "in": "query", "name": "key"}, "api_token": {"type": "apiKey", "in": "query", "name": "token"}}},
  "paths": {"/boards/{id}": {"get": {"operationId": "getBoard", "security": [{"api_key": []}, {"api_token": []}],
    "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
      {"name": "key", "in": "query", "required": true, "schema": {"type": "string"}},
      {"name": "token", "in": "query", "required": true, "schema": {"type": "string"}}],
    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}}}`
	idx, err := Compile("trello", "t.json", []byte(doc), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := providers.Decode(idx)
	r, _ := p.Resource("boards", "boards")
	if r == nil {
		t.Fatalf("resources %v", p.Resources)
	}
	m := r.Methods[0]
	if got := fmtAuth(m.Auth); got != "[[api_key,api_token]]" || m.Param("key") != nil || m.Param("token") != nil {
		t.Errorf("auth %s, params %v", got, m.Params)
	}
	if v := p.SchemeEnv(*p.Security.Scheme("api_token")); v != "TRELLO_TOKEN" {
		t.Errorf("token variable %s", v)
	}
}

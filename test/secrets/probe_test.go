package secrets

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/providers/openapi"
	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/testutil"
)

// probeSecret is the --auth credential of the probe tests.
const probeSecret = "probe-secret-7d1c9a0b5e3f"

// thingsByID is a document with a list of things and a get by id, on base.
func thingsByID(base string) []byte {
	return []byte(fmt.Sprintf(`{"openapi": "3.0.3", "info": {"title": "things", "version": "1"},
  "servers": [{"url": %q}],
  "paths": {
    "/things": {"get": {"operationId": "things/list", "tags": ["things"],
      "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/thing"}}}}}}}},
    "/things/{id}": {"get": {"operationId": "things/get", "tags": ["things"],
      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
      "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/thing"}}}}}}}},
  "components": {"schemas": {"thing": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}}}`, base))
}

// thingsAPI answers /things/1 ... /things/n.
func thingsAPI(t *testing.T, n int) *fakeapis.Fixed {
	bodies := map[string]string{"/things": `[]`}
	for i := 1; i <= n; i++ {
		bodies[fmt.Sprintf("/things/%d", i)] = fmt.Sprintf(`{"id": %d, "name": "thing-%d"}`, i, i)
	}
	return fakeapis.NewFixed(t, bodies)
}

// byIDs is a statement estimated at n requests: enough to make the
// engine ask the rate-limit probe first (client.BudgetProbeMin).
func byIDs(n int) string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprint(i + 1)
	}
	return "SELECT id, name FROM p.things.things WHERE id IN (" + strings.Join(ids, ",") + ")"
}

const probeAuth = `{"p":{"type":"bearer","credentialsenvvar":"MY_TOKEN"}}`

// A profile's rate_limit.probe "@HOST/rate_limit" appended to the base
// URL as text made the real host the userinfo of a URL to HOST, which
// received the --auth credential. A probe must be a path on the base URL:
// the profile is refused when it is loaded, naming the setting, and
// nothing is sent anywhere.
func TestProbeProfileCannotNameAnotherHost(t *testing.T) {
	api := thingsAPI(t, 100)
	evil := fakeapis.NewFixed(t, map[string]string{"/rate_limit": `{"resources": {}}`})
	evilHost := strings.TrimPrefix(evil.URL, "http://")
	doc := testutil.TempFile(t, "things.json", string(thingsByID(api.URL)))
	for _, probe := range []string{"@" + evilHost + "/rate_limit", "rate_limit", "//" + evilHost + "/rate_limit", evil.URL + "/rate_limit"} {
		profile := testutil.TempFile(t, "profile.json", `{"rate_limit": {"probe": `+mustJSON(probe)+`}}`)
		e := testutil.FastEnv(t, "MY_TOKEN="+probeSecret, "ENGINE_GOVERNOR=on") // the probe is the governor's
		r := testutil.Run(t, e, "", "--provider", "p="+doc+",profile="+profile, "--auth", probeAuth, "exec", "-o", "csv", byIDs(100))
		if r.Code != 1 || !strings.Contains(r.Stderr, "rate_limit probe") || !strings.Contains(r.Stderr, "a path on the base URL") {
			t.Errorf("probe %q: exit %d, want 1 naming the probe\n%.600s", probe, r.Code, r.Stderr)
		}
		if strings.Contains(r.Stdout+r.Stderr, probeSecret) {
			t.Errorf("probe %q: the credential was printed", probe)
		}
	}
	for _, a := range evil.Auths() {
		t.Errorf("the probe's host received a request (Authorization %q)", a)
	}
	if n := len(api.Requests()); n != 0 {
		t.Errorf("%d requests sent for a refused profile", n)
	}
}

// A compiled index carries its probe as text too: the client sends the
// probe only to the base URL's origin, like every credentialed request,
// and the statement runs without it.
func TestProbeFromIndexStaysOnOrigin(t *testing.T) {
	api := thingsAPI(t, 100)
	evil := fakeapis.NewFixed(t, map[string]string{"/rate_limit": `{"resources": {}}`})
	index, err := openapi.Compile("p", "things.json", thingsByID(api.URL), []byte(`{"rate_limit": {"probe": "/rate_limit"}}`), false)
	if err != nil {
		t.Fatal(err)
	}
	index = testutil.EditIndexHeader(t, index, func(h map[string]any) {
		h["profile"].(map[string]any)["rate_limit_probe"] = "@" + strings.TrimPrefix(evil.URL, "http://") + "/rate_limit"
	})
	idx := testutil.TempFile(t, "p.idx", string(index))

	e := testutil.FastEnv(t, "MY_TOKEN="+probeSecret, "ENGINE_GOVERNOR=on") // the probe is the governor's
	r := testutil.Run(t, e, "", "--provider", "p="+idx, "--auth", probeAuth, "exec", "-o", "csv", byIDs(100))
	if r.Code != 0 || strings.Count(r.Stdout, "thing-") != 100 {
		t.Fatalf("exit %d\n%.300s%.600s", r.Code, r.Stdout, r.Stderr)
	}
	if strings.Contains(r.Stdout+r.Stderr, probeSecret) {
		t.Error("the credential was printed")
	}
	for _, a := range evil.Auths() {
		t.Errorf("the probe's host received a request (Authorization %q)", a)
	}
	if got, _ := api.LastAuth(); got != "Bearer "+probeSecret {
		t.Errorf("the API got Authorization %q", got)
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

package openapidoc_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/testutil"
)

// A $ref to a file the document does not include (a published bundle
// pointing at models/*.yml) does not refuse the whole description: the
// other operations are tables, and the ones reaching the missing file
// (directly or through the document's own components) are listed by
// `registry list --verbose` with the reference (before: the document was
// refused). A missing file in an error answer leaves its operation a
// table. YAML documents are read the same way.
func TestUnresolvableExternalRefs(t *testing.T) {
	a := fakeapis.NewFixed(t, map[string]string{"/v2/droplets": `{"droplets": [{"id": 1, "name": "web"}], "links": {}, "meta": {"total": 1}}`})
	doc := testutil.TempFile(t, "bundle.yaml", `openapi: 3.0.3
info: {title: Cloud, version: "2"}
servers: [{url: "`+a.URL+`"}]
paths:
  /v2/droplets:
    get:
      operationId: droplets_list
      tags: [Droplets]
      responses:
        200:
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  droplets: {type: array, items: {$ref: '#/components/schemas/droplet'}}
                  links: {type: object}
                  meta: {type: object, properties: {total: {type: integer}}}
        401:
          $ref: 'models/errors.yml#/unauthorized'
  /v2/volumes:
    get:
      operationId: volumes_list
      tags: [Volumes]
      responses:
        200:
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/volumes'}
  /v2/images/{id}:
    get:
      operationId: images_get
      tags: [Images]
      parameters: [{$ref: 'parameters.yml#/image_id'}]
      responses:
        200: {description: ok, content: {application/json: {schema: {type: object, properties: {id: {type: integer}}}}}}
components:
  schemas:
    droplet:
      type: object
      properties: {id: {type: integer}, name: {type: string}}
    volumes:
      $ref: 'models/volumes.yml'
`)
	r := testutil.Run(t, testutil.Env(t), "", "exec", "-o", "json", "--provider", "cloud="+doc, "SELECT id, name FROM cloud.droplets.droplets")
	testutil.WantRun(t, "exec", r, 0, `"web"`, "")
	r = testutil.Run(t, testutil.Env(t), "", "registry", "list", "--verbose", "-o", "json", "--provider", "cloud="+doc)
	var out struct {
		Skipped []struct{ Provider, Operation, Path, Reason string }
	}
	if err := json.Unmarshal([]byte(r.Stdout), &out); r.Code != 0 || err != nil {
		t.Fatalf("exit %d %v\n%s%s", r.Code, err, r.Stdout, r.Stderr)
	}
	got := map[string]string{}
	for _, s := range out.Skipped {
		if s.Provider == "cloud" {
			got[s.Operation] = s.Reason
		}
	}
	if len(got) != 2 || !strings.Contains(got["volumes_list"], "models/volumes.yml") || !strings.Contains(got["images_get"], "parameters.yml#/image_id") {
		t.Fatalf("skipped %v", got)
	}
}

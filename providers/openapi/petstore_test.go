package openapi

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

func loadPetstore(t *testing.T) *providers.Provider {
	t.Helper()
	p, err := LoadFile("petstore", "testdata/petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// petstoreDoc is the parsed testdata/petstore.yaml.
func petstoreDoc(t *testing.T) *openapi3.T {
	t.Helper()
	raw, err := os.ReadFile("testdata/petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ParseDocument("petstore.yaml", raw)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func mustResource(t *testing.T, p *providers.Provider, service, name string) *providers.Resource {
	t.Helper()
	r, err := p.Resource(service, name)
	if err != nil {
		t.Fatal(err)
	}
	if r == nil {
		t.Fatalf("no resource %s.%s.%s; have %v", p.Name(), service, name, p.Resources)
	}
	return r
}

func mustMethod(t *testing.T, r *providers.Resource, name string) *providers.Method {
	t.Helper()
	m := r.Method(name)
	if m == nil {
		var names []string
		for _, m := range r.Methods {
			names = append(names, m.Name)
		}
		t.Fatalf("%s: no method %q; have %v", r.FullName(), name, names)
	}
	return m
}

func colTypes(m *providers.Method) map[string]string {
	out := map[string]string{}
	for _, c := range m.Columns {
		out[c.Name] = c.Type
	}
	return out
}

func TestPetstoreHeader(t *testing.T) {
	p := loadPetstore(t)
	if p.BaseURL != "https://petstore.example.com" || p.Version != "1.2.3" {
		t.Errorf("header = base %q version %q", p.BaseURL, p.Version)
	}
	if len(p.TokenEnv) != 0 || len(p.Headers) != 0 {
		t.Errorf("non-GitHub document got GitHub defaults: %v %v", p.TokenEnv, p.Headers)
	}
	var got []string
	for _, r := range p.Resources {
		got = append(got, r.Service+"."+r.Name)
	}
	want := []string{"health.health", "owners.pets", "pets.pets", "pets.photo", "pets.toys", "pets.vaccinated", "store.orders"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("resources = %v, want %v", got, want)
	}
}

func TestPetstoreMethods(t *testing.T) {
	p := loadPetstore(t)

	pets := mustResource(t, p, "pets", "pets")
	if len(pets.Methods) != 2 {
		t.Errorf("pets.pets has %d methods, want 2 (POST must be ignored)", len(pets.Methods))
	}
	list := mustMethod(t, pets, "list_pets")
	if list.OperationID != "listPets" || list.Path != "/v1/pets" || list.Shape != providers.ShapeArray || !list.Paginated {
		t.Errorf("list_pets = %+v", list)
	}
	if list.Param("page") != nil || list.Param("limit") != nil {
		t.Error("page and limit must not be parameters: the paging sends them")
	}
	// page without per_page: numbered pages of the declared size (limit,
	// from a $ref), never an undeclared per_page.
	if pg := list.Paging; pg == nil || pg.Style != providers.PagingPage || pg.Param != "page" || pg.Size != "limit" {
		t.Errorf("list_pets paging = %+v, want page style with size limit", pg)
	}
	if got := list.Required(); !reflect.DeepEqual(got, []string{"status"}) {
		t.Errorf("list_pets required = %v", got)
	}
	wantCols := map[string]string{"id": "INTEGER", "name": "TEXT", "owner": "JSON", "tag": "TEXT", "tags": "JSON", "vaccinated": "BOOLEAN", "weight": "REAL"}
	if got := colTypes(list); !reflect.DeepEqual(got, wantCols) {
		t.Errorf("list_pets columns (allOf merged) = %v, want %v", got, wantCols)
	}
	if len(list.Columns) != len(wantCols) {
		t.Errorf("duplicate columns: %v", list.Columns)
	}
	for i := 1; i < len(list.Columns); i++ {
		if list.Columns[i-1].Name >= list.Columns[i].Name {
			t.Errorf("columns not sorted: %v", list.Columns)
		}
	}

	show := mustMethod(t, pets, "show_pet_by_id")
	if show.Shape != providers.ShapeObject || show.Paginated {
		t.Errorf("show_pet_by_id = %+v", show)
	}
	if got := show.Required(); !reflect.DeepEqual(got, []string{"petId"}) {
		t.Errorf("show_pet_by_id required = %v (path-level path param is always required)", got)
	}
	if pr := show.Param("petId"); pr == nil || pr.In != providers.InPath || pr.Type != providers.TypeInteger {
		t.Errorf("petId = %+v", pr)
	}
	if pr := show.Param("X-Request-Id"); pr == nil || pr.In != providers.InHeader || pr.Required {
		t.Errorf("header parameter X-Request-Id = %+v, want an optional header parameter", pr)
	}
	if pr := show.Param("verbose"); pr == nil || pr.Type != providers.TypeBoolean || pr.Required {
		t.Errorf("verbose = %+v", pr)
	}

	toys := mustResource(t, p, "pets", "toys")
	lt := mustMethod(t, toys, "list_toys")
	if lt.Shape != providers.ShapeWrapped || lt.ItemKey != "toys" || !lt.Paginated || lt.Path != "/v1/pets/{petId}/toys" {
		t.Errorf("list_toys = %+v", lt)
	}
	if pr := lt.Param("cursor"); pr == nil || pr.Required {
		t.Errorf("cursor must stay an optional parameter: %+v", pr)
	}
	if got, want := colTypes(lt), map[string]string{"colour": "TEXT", "id": "TEXT", "squeaky": "BOOLEAN"}; !reflect.DeepEqual(got, want) {
		t.Errorf("list_toys columns = %v, want %v", got, want)
	}
	// Same snake_case name in one resource: suffixed in path order.
	lt2 := mustMethod(t, toys, "list_toys_2")
	if lt2.Path != "/v1/pets/{petId}/toys/{toyId}" || lt2.Shape != providers.ShapeObject {
		t.Errorf("list_toys_2 = %+v", lt2)
	}
	if got := lt2.Required(); !reflect.DeepEqual(got, []string{"petId", "toyId"}) {
		t.Errorf("list_toys_2 required = %v", got)
	}

	vac := mustMethod(t, mustResource(t, p, "pets", "vaccinated"), "check_vaccinated")
	if vac.Shape != providers.ShapeNone || len(vac.Columns) != 0 {
		t.Errorf("204 check = %+v", vac)
	}

	photo := mustMethod(t, mustResource(t, p, "pets", "photo"), "get_photo")
	if got, want := colTypes(photo), map[string]string{"size": "JSON", "url": "TEXT", "width": "REAL"}; photo.Shape != providers.ShapeObject || !reflect.DeepEqual(got, want) {
		t.Errorf("oneOf union: shape %s columns %v, want %v", photo.Shape, got, want)
	}

	orders := mustResource(t, p, "store", "orders")
	lo := mustMethod(t, orders, "list_orders")
	if lo.Shape != providers.ShapeWrapped || lo.ItemKey != "orders" || lo.Paginated {
		t.Errorf("list_orders (wrapper without total_count) = %+v", lo)
	}
	if lo.Param("after") == nil {
		t.Error("after must stay a parameter")
	}
	gor := mustMethod(t, orders, "get_order")
	if gor.Shape != providers.ShapeObject || gor.ItemKey != "" {
		t.Errorf("get_order (an item holding an array) = %+v", gor)
	}
	if got := colTypes(gor)["lines"]; got != "JSON" {
		t.Errorf("get_order lines = %q", got)
	}

	owners := mustResource(t, p, "owners", "pets")
	op := mustMethod(t, owners, "get_owners_by_owner_id_pets")
	if op.OperationID != "" || op.Shape != providers.ShapeArray || len(op.Columns) == 0 {
		t.Errorf("untagged, no operationId, 201 only: %+v", op)
	}

	hc := mustMethod(t, mustResource(t, p, "health", "health"), "health_check")
	if hc.Shape != providers.ShapeText || hc.ValueType != providers.TypeText || hc.Accept != "text/plain" {
		t.Errorf("text/plain response: shape %s, value type %s, Accept %q", hc.Shape, hc.ValueType, hc.Accept)
	}
}

func TestPetstoreIndexProse(t *testing.T) {
	doc := petstoreDoc(t)
	idx, err := BuildIndex(doc, "petstore", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Only table summaries (schema description or title, and the summary
	// of a table's only method), method summaries and column descriptions
	// reach the index, each cut to its first sentence: never the
	// document's info, response descriptions or anything past a first
	// sentence. A table of several methods is described by its entity,
	// not by one of its methods.
	for _, s := range []string{"Petstore", "tiny store", "A page of pets", "no such pet"} {
		if bytes.Contains(idx, []byte(s)) {
			t.Errorf("index contains document prose %q", s)
		}
	}
	if !bytes.Contains(idx, []byte(`"sum":"List all pets (prose)"`)) || !bytes.Contains(idx, []byte(`"summary":"Pet."}`)) {
		t.Errorf("pets.pets: want its entity as summary and list_pets with its own:\n%s", idx)
	}
	again, err := BuildIndex(doc, "petstore", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(idx, again) {
		t.Error("BuildIndex is not deterministic")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		path, want string
	}{
		{filepath.Join(dir, "missing.yaml"), "does not exist"},
		// Swagger 2.0 is converted (swagger2.go); these have nothing to read
		{write("swagger.json", `{"swagger": "2.0", "info": {"title": "x", "version": "1"}, "paths": {}}`), "no paths"},
		{write("swagger.yaml", "swagger: '2.0'\ninfo: {title: x, version: '1'}\npaths: {}\n"), "no paths"},
		{write("swagger12.json", `{"swagger": "1.2", "info": {"title": "x", "version": "1"}, "paths": {}}`), "swagger 1.2 is no version this reads"},
		{write("badswagger.yaml", "swagger: '2.0'\npaths: [1, 2]\n"), "not a loadable Swagger 2.0 document"},
		{write("other.json", `{"hello": "world"}`), "OpenAPI 3"},
		{write("empty.yaml", ""), "empty"},
		{write("nogets.yaml", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    post:\n      responses:\n        '201': {description: ok}\n"), "no GET operations"},
		{write("nopaths.yaml", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n"), "no paths"},
		{write("bad.json.gz", "not gzip"), "gzip"},
	}
	for _, c := range cases {
		_, err := LoadFile("x", c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LoadFile(%s) error = %v, want it to mention %q", filepath.Base(c.path), err, c.want)
		}
	}
}

// TestLoadSources loads the sources --provider makes, as the catalog does:
// a document (plain or gzip) is compiled, an .idx index is decoded.
func TestLoadSources(t *testing.T) {
	raw, err := os.ReadFile("testdata/petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	gzPath := filepath.Join(t.TempDir(), "petstore.yaml.gz")
	if err := os.WriteFile(gzPath, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"petstore=testdata/petstore.yaml", "petstore=" + gzPath} {
		src, err := registry.FileSource("petstore", strings.TrimPrefix(flag, "petstore="), "")
		if err != nil {
			t.Fatal(err)
		}
		doc, err := src.Data()
		if err != nil {
			t.Fatal(err)
		}
		idx, err := Compile(src.Name, src.Path, doc, nil, false)
		if err != nil {
			t.Fatalf("Compile(%s): %v", flag, err)
		}
		p, err := providers.Decode(idx)
		if err != nil {
			t.Fatalf("Decode(%s): %v", flag, err)
		}
		if p.Name() != "petstore" || len(p.Resources) != 7 {
			t.Errorf("Compile(%s): %s with %d resources", flag, p.Name(), len(p.Resources))
		}
	}

	// An index round-trips.
	doc, err := ParseDocument("petstore.yaml", raw)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := BuildIndex(doc, "petstore", nil)
	if err != nil {
		t.Fatal(err)
	}
	src, err := registry.FileSource("petstore", filepath.Join(t.TempDir(), "petstore.idx"), "")
	if err != nil || src.Kind != registry.KindIndex {
		t.Fatalf("FileSource(.idx) = %+v, %v", src, err)
	}
	if err := os.WriteFile(src.Path, idx, 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := src.Data()
	if err != nil {
		t.Fatal(err)
	}
	p, err := providers.Decode(data)
	if err != nil || p.Name() != "petstore" || len(p.Resources) != 7 {
		t.Fatalf("Decode(index) = %v, %v", p, err)
	}
}

func TestOverrides(t *testing.T) {
	bad := map[string]string{
		`{"absent": {"a/b": {"status": 401, "message": "m", "reason": "r"}}}`: "401",
		`{"absent": {"a/b": {"status": 403, "message": "m", "reason": "r"}}}`: "403",
		`{"absent": {"a/b": {"status": 429, "message": "m", "reason": "r"}}}`: "429",
		`{"absent": {"a/b": {"status": 503, "message": "m", "reason": "r"}}}`: "503",
		`{"absent": {"a/b": {"status": 200, "message": "m", "reason": "r"}}}`: "200",
		`{"absent": {"a/b": {"status": 404, "message": "m"}}}`:                "reason",
		// A status alone cannot tell "absent" from "not found".
		`{"absent": {"a/b": {"status": 404, "reason": "r"}}}`:                                                         "exactly one",
		`{"absent": {"a/b": {"status": 404, "message": "m", "pattern": "p", "reason": "r"}}}`:                         "exactly one",
		`{"absent": {"a/b": {"status": 404, "pattern": "(", "reason": "r"}}}`:                                         "pattern",
		`{"absent": {"a/b": {"statuses": [404], "reason": "r"}}}`:                                                     "unknown field",
		`{"not_absent": {"a/b": {}}}`:                                                                                 "reason",
		`{"absent": {"a/b": {"status": 404, "message": "m", "reason": "r"}}, "not_absent": {"a/b": {"reason": "r"}}}`: "both",
		`{"redirects": {"a/b": {"reason": "r"}}}`:                                                                     "advice",
		`{"incomplete": {"property": "x"}}`:                                                                           "reason",
		`{"absent": {"a/b": [404]}}`:                                                                                  "overrides",
		`{"absnt": {}}`:                                                                                               "unknown field",
		`{"result_cap": {"max": 1000, "total": "total_count", "operations": {"a/b": {"reason": "r"}}}}`:               "reason",
		`{"result_cap": {"max": 0, "total": "t", "reason": "r", "operations": {"a/b": {"reason": "r"}}}}`:             "max",
		`{"result_cap": {"max": 9, "total": "t", "reason": "r", "operations": {"a/b": {}}}}`:                          "split",
		`{"result_cap": {"max": 9, "total": "t", "reason": "r", "operations": {"a/b": {"split": {"param": "q"}}}}}`:   "qualifier",
		`{"result_cap": {"max": 9, "total": "t", "reason": "r", "operations": {"a/b": {"split": {"param": "q", "qualifier": "created", "key": ["id"], "from": "2007"}}}}}`: "YYYY-MM-DD",
	}
	for in, want := range bad {
		if _, err := ParseProfileFile([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseProfileFile(%s) error = %v, want it to mention %q", in, err, want)
		}
	}

	doc := petstoreDoc(t)
	apply := func(js string) ([]*providers.Resource, error) {
		o, err := ParseProfileFile([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		_, rs, err := Derive(doc, "petstore")
		if err != nil {
			t.Fatal(err)
		}
		return rs, o.Apply(doc, rs)
	}
	rs, err := apply(`{"absent": {"pets/check-vaccinated": {"status": 404, "message": "Not vaccinated", "reason": "documented: not vaccinated"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		for _, m := range r.Methods {
			want := m.OperationID == "pets/check-vaccinated"
			if m.IsAbsent(404, " Not vaccinated ") != want {
				t.Errorf("%s %s: IsAbsent(404, Not vaccinated) = %v", r.FullName(), m.Name, !want)
			}
			if m.IsAbsent(404, "Not Found") || m.IsAbsent(410, "Not vaccinated") {
				t.Errorf("%s %s: another message or status counts as absent", r.FullName(), m.Name)
			}
		}
	}
	if _, err := apply(`{"absent": {"nope/nope": {"status": 404, "message": "m", "reason": "r"}}}`); err == nil || !strings.Contains(err.Error(), "no GET operation") {
		t.Errorf("unknown operation: %v", err)
	}
	if _, err := apply(`{"absent": {"pets/list-toys": {"status": 404, "message": "m", "reason": "r"}}}`); err == nil || !strings.Contains(err.Error(), "does not document") {
		t.Errorf("undocumented status: %v", err)
	}
}

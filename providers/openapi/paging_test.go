package openapi

import (
	"os"
	"reflect"
	"testing"

	"github.com/enginehq/engine/providers"
)

// The test descriptions of test/fakeapis, in the shapes the real APIs
// document.
func loadFake(t *testing.T, name string) map[string]*providers.Method {
	t.Helper()
	path := "../../test/fakeapis/docs/" + name + ".json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := LoadData(name, path, data)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := p.AllResources()
	if err != nil {
		t.Fatal(err)
	}
	byOp := map[string]*providers.Method{}
	for _, r := range rs {
		for _, m := range r.Methods {
			byOp[m.OperationID] = m
		}
	}
	return byOp
}

func TestInferPaging(t *testing.T) {
	for _, c := range []struct {
		doc, op string
		want    *providers.Paging
		key     string
		params  []string
	}{
		{"stripe", "GetCustomers", &providers.Paging{Style: "cursor", Param: "starting_after", HasMore: "has_more", LastItem: "id", Size: "limit", SizeMax: 100}, "data", []string{"email", "ending_before"}},
		{"stripe", "GetCharges", nil, "data", []string{"limit"}},
		{"slack", "conversations_list", &providers.Paging{Style: "cursor", Param: "cursor", Next: "response_metadata.next_cursor", Size: "limit", SizeMax: 1000}, "channels", []string{"exclude_archived", "types"}},
		{"jira", "searchProjects", &providers.Paging{Style: "offset", Param: "startAt", Size: "maxResults", SizeMax: 100, Total: "total", IsLast: "isLast"}, "values", []string{"query"}},
	} {
		m := loadFake(t, c.doc)[c.op]
		if m == nil {
			t.Fatalf("%s: no method %s", c.doc, c.op)
		}
		if !reflect.DeepEqual(m.Paging, c.want) {
			t.Errorf("%s %s: paging %+v, want %+v", c.doc, c.op, m.Paging, c.want)
		}
		if m.Shape != providers.ShapeWrapped || m.ItemKey != c.key {
			t.Errorf("%s %s: shape %s key %q, want wrapped %q", c.doc, c.op, m.Shape, m.ItemKey, c.key)
		}
		var names []string
		for _, p := range m.Params {
			names = append(names, p.Name)
		}
		if !reflect.DeepEqual(names, c.params) {
			t.Errorf("%s %s: params %v, want %v (the paging owns its parameters)", c.doc, c.op, names, c.params)
		}
	}
}

func TestInferErrorMessage(t *testing.T) {
	for name, want := range map[string]string{"stripe": "error.message", "slack": "error", "jira": "errorMessages"} {
		data, err := os.ReadFile("../../test/fakeapis/docs/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		p, err := LoadData(name, name, data)
		if err != nil {
			t.Fatal(err)
		}
		if p.Profile == nil || !reflect.DeepEqual(p.Profile.ErrorMessage, []string{want}) {
			t.Errorf("%s: profile %+v, want error message %q", name, p.Profile, want)
		}
	}
}

package openapi

import (
	"fmt"
	"testing"

	"github.com/enginehq/engine/providers"
)

func TestAssignSQLNames(t *testing.T) {
	r := &providers.Resource{
		Methods: []*providers.Method{{
			Params:  []providers.Param{{Name: "Id", In: "path"}, {Name: "id", In: "query"}, {Name: "owner", In: "query"}},
			Columns: []providers.Column{{Name: "organizerKey"}, {Name: "OrganizerKey"}, {Name: "ID"}, {Name: "owner"}, {Name: "id_2"}},
		}},
		Docs: map[string]string{"organizerKey": "lower", "OrganizerKey": "upper"},
	}
	AssignSQLNames([]*providers.Resource{r})
	m := r.Methods[0]
	if got := fmt.Sprint(m.Params); got != "[{Id path false   false false []  } {id_3 query false  id false false []  } {owner query false   false false []  }]" {
		t.Errorf("params %s", got)
	}
	if got := fmt.Sprint(m.Columns); got != "[{ID_4  ID} {OrganizerKey  } {id_2  } {organizerKey_2  organizerKey} {owner  }]" {
		t.Errorf("columns %s", got)
	}
	if r.Docs["organizerKey_2"] != "lower" || r.Docs["OrganizerKey"] != "upper" {
		t.Errorf("docs %v", r.Docs)
	}
	if p := m.Param("ID"); p == nil || p.Name != "Id" {
		t.Errorf("Param(ID) = %v", p)
	}
	if p := m.Param("id_3"); p == nil || p.Key() != "id" {
		t.Errorf("Param(id_3) = %v", p)
	}
	if c := m.Column("ORGANIZERKEY_2"); c == nil || c.Key() != "organizerKey" {
		t.Errorf("Column(ORGANIZERKEY_2) = %v", c)
	}
	if p := m.ParamByKey("id"); p == nil || p.Name != "id_3" {
		t.Errorf("ParamByKey(id) = %v", p)
	}
}

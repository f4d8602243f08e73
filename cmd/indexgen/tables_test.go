package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/openapi"
)

// tableList renders the tables of derived resources as markdown, one row
// per table: its name, the entity its rows are, and its methods (docs/tables.md
// is this list; a test keeps it equal to the index).
func tableList(doc *openapi3.T, resources []*providers.Resource) string {
	rs := append([]*providers.Resource(nil), resources...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].FullName() < rs[j].FullName() })
	var b strings.Builder
	b.WriteString("| table | rows are | methods (WHERE keys) |\n|---|---|---|\n")
	for _, r := range rs {
		ent := ""
		var ms []string
		for _, m := range r.Methods {
			if op := getOperation(doc, m.Path); op != nil && ent == "" {
				ent = openapi.MethodEntity(op, m).Key
			}
			keys := strings.Join(m.Required(), ", ")
			if keys != "" {
				keys = " (" + keys + ")"
			}
			ms = append(ms, fmt.Sprintf("`%s` GET %s%s", m.Name, m.Path, keys))
		}
		switch kind, what, _ := strings.Cut(ent, ":"); kind {
		case "schema":
			ent = "`" + what + "`"
		case "check":
			ent = "check (no body: one row when GitHub answers 2xx)"
		case "value":
			ent = "values (items without properties, in column `value`)"
		case "text":
			ent = "text (the plain-text body, in column `value`)"
		case "inline":
			ent = "unnamed schema"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r.FullName(), ent, strings.ReplaceAll(strings.Join(ms, "<br>"), "|", `\|`))
	}
	return b.String()
}

// getOperation is the GET operation of a path of doc, or nil.
func getOperation(doc *openapi3.T, path string) *openapi3.Operation {
	if item := doc.Paths.Value(path); item != nil {
		return item.Get
	}
	return nil
}

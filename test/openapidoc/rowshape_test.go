package openapidoc_test

import (
	"fmt"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
)

// Shapes of real answers the rows mode of the corpus tool found read
// wrongly (docs/reliability.md, "Rows of real descriptions served by a
// mock"): a report whose array sits beside the echo of its query
// parameters is a list; a list one level down beside a message is a
// list; one entity with apiVersion, kind and metadata holding an array is
// one row.
func TestListAndEntityShapesOfRealAnswers(t *testing.T) {
	day := obj(`"date": {"type": "string"}`, `"meetings": {"type": "integer"}`)
	playlist := obj(`"id": {"type": "string"}`, `"name": {"type": "string"}`)
	condition := obj(`"type": {"type": "string"}`, `"status": {"type": "string"}`)
	cases := []struct {
		name, path, route, params, schema, body, query, want string
	}{
		{"report echoing its query", "/report/daily", "/report/daily",
			queryParam("year") + ", " + queryParam("month"),
			obj(`"dates": `+arr(day), `"year": {"type": "integer"}`, `"month": {"type": "integer"}`),
			`{"dates": [{"date": "2024-01-01", "meetings": 1}, {"date": "2024-01-02", "meetings": 2}, {"date": "2024-01-03", "meetings": 3}], "year": 2024, "month": 1}`,
			"SELECT date, meetings FROM %s ORDER BY date",
			"[map[date:2024-01-01 meetings:1] map[date:2024-01-02 meetings:2] map[date:2024-01-03 meetings:3]]"},
		{"nested page beside a message", "/browse/featured-playlists", "/browse/featured-playlists",
			queryParam("limit") + ", " + queryParam("offset"),
			obj(`"message": {"type": "string"}`, `"playlists": `+obj(`"href": {"type": "string"}`, `"items": `+arr(playlist),
				`"limit": {"type": "integer"}`, `"next": {"type": "string", "nullable": true}`, `"offset": {"type": "integer"}`,
				`"previous": {"type": "string", "nullable": true}`, `"total": {"type": "integer"}`)),
			`{"message": "Popular", "playlists": {"href": "x", "items": [{"id": "a", "name": "one"}, {"id": "b", "name": "two"}], "limit": 20, "next": null, "offset": 0, "previous": null, "total": 2}}`,
			"SELECT id, name FROM %s ORDER BY id",
			"[map[id:a name:one] map[id:b name:two]]"},
		{"one entity with kind and an array", "/api/v1/componentstatuses/{name}", "/api/v1/componentstatuses/etcd",
			pathParam("name"),
			obj(`"apiVersion": {"type": "string"}`, `"kind": {"type": "string"}`, `"metadata": {"type": "object"}`, `"conditions": `+arr(condition)),
			`{"apiVersion": "v1", "kind": "ComponentStatus", "metadata": {"name": "etcd"}, "conditions": [{"type": "Healthy", "status": "True"}, {"type": "Ready", "status": "True"}]}`,
			"SELECT kind, json_array_length(conditions) AS n FROM %s WHERE name = 'etcd'",
			"[map[kind:ComponentStatus n:2]]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := fakeapis.NewFixed(t, map[string]string{c.route: c.body})
			doc := writeDoc(t, a.URL, fmt.Sprintf(`{%q: %s}`, c.path, get("getThing", "things", c.params, c.schema)))
			tables := tableNames(t, doc)
			if len(tables) != 1 {
				t.Fatalf("tables %v", tables)
			}
			rows := mustRows(t, doc, fmt.Sprintf(c.query, tables[0]))
			if got := fmt.Sprint(rows); got != c.want {
				t.Fatalf("rows %s, want %s", got, c.want)
			}
		})
	}
}

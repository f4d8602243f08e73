package testutil

import (
	"fmt"
	"strings"
)

// SchemaDoc is a small OpenAPI 3 document whose one GET (/things) answers
// the schema components.schemas[name], with the given components.schemas
// (a JSON object): the shape of the hostile-schema tests.
func SchemaDoc(name, schemas string) string {
	return fmt.Sprintf(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"servers":[{"url":"http://127.0.0.1:9"}],
"paths":{"/things":{"get":{"operationId":"list-things","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/%s"}}}}}}}},
"components":{"schemas":%s}}`, name, schemas)
}

// AllOfBlowUp is a components.schemas object of levels allOf lists, each
// naming the next level four times: 4^levels schemas from a few hundred
// bytes. Its top schema is L0.
func AllOfBlowUp(levels int) string {
	var parts []string
	for i := 0; i < levels; i++ {
		next := fmt.Sprintf(`{"$ref":"#/components/schemas/L%d"}`, i+1)
		parts = append(parts, fmt.Sprintf(`"L%d":{"allOf":[%s,%s,%s,%s]}`, i, next, next, next, next))
	}
	parts = append(parts, fmt.Sprintf(`"L%d":{"type":"object","properties":{"id":{"type":"integer"}}}`, levels))
	return "{" + strings.Join(parts, ",") + "}"
}

// RefChain is a components.schemas object of links plain $refs, each
// schema C<i> a $ref to C<i+1>, ending in an object schema with an id
// column, and aliases more schemas A<i> that are each a $ref to C0. Its
// top schema is C0.
func RefChain(links, aliases int) string {
	parts := make([]string, 0, links+aliases+1)
	for i := 0; i < links; i++ {
		parts = append(parts, fmt.Sprintf(`"C%d":{"$ref":"#/components/schemas/C%d"}`, i, i+1))
	}
	for i := 0; i < aliases; i++ {
		parts = append(parts, fmt.Sprintf(`"A%d":{"$ref":"#/components/schemas/C0"}`, i))
	}
	parts = append(parts, fmt.Sprintf(`"C%d":{"type":"object","properties":{"id":{"type":"integer"}}}`, links))
	return "{" + strings.Join(parts, ",") + "}"
}

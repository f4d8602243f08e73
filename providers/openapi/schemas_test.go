package openapi

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// schemaDoc is testutil.SchemaDoc as the loaders here take it.
func schemaDoc(name, schemas string) []byte { return []byte(testutil.SchemaDoc(name, schemas)) }

// selfShapes are documents whose schemas are made of themselves (or of
// exponentially many schemas): each is refused with an error naming the
// schema, never a crash.
var selfShapes = map[string][]byte{
	"allOf self":          schemaDoc("Loop", `{"Loop":{"allOf":[{"$ref":"#/components/schemas/Loop"}]}}`),
	"allOf self x4":       schemaDoc("Loop", `{"Loop":{"allOf":[{"$ref":"#/components/schemas/Loop"},{"$ref":"#/components/schemas/Loop"},{"$ref":"#/components/schemas/Loop"},{"$ref":"#/components/schemas/Loop"}]}}`),
	"items allOf self x4": schemaDoc("List", `{"List":{"type":"array","items":{"$ref":"#/components/schemas/Loop"}},"Loop":{"allOf":[{"$ref":"#/components/schemas/Loop"},{"$ref":"#/components/schemas/Loop"},{"$ref":"#/components/schemas/Loop"},{"$ref":"#/components/schemas/Loop"}],"properties":{"id":{"type":"integer"}}}}`),
	"oneOf self":          schemaDoc("Loop", `{"Loop":{"oneOf":[{"$ref":"#/components/schemas/Loop"},{"type":"string"}]}}`),
	"anyOf mutual":        schemaDoc("Loop", `{"Loop":{"allOf":[{"$ref":"#/components/schemas/Pool"}]},"Pool":{"anyOf":[{"$ref":"#/components/schemas/Loop"}],"properties":{"x":{"type":"string"}}}}`),
	"property allOf self": schemaDoc("Obj", `{"Obj":{"type":"object","properties":{"loop":{"$ref":"#/components/schemas/Loop"}}},"Loop":{"allOf":[{"$ref":"#/components/schemas/Loop"}]}}`),
	"blow-up":             schemaDoc("L0", testutil.AllOfBlowUp(8)),
}

func TestSchemaCyclesRefused(t *testing.T) {
	for name, doc := range selfShapes {
		t.Run(name, func(t *testing.T) {
			_, err := loadData("loop", "loop.json", doc, nil)
			if err == nil || !strings.Contains(err.Error(), "#/components/schemas/") ||
				!(strings.Contains(err.Error(), "made of itself") || strings.Contains(err.Error(), "more than 10000 schemas")) {
				t.Fatalf("error %v", err)
			}
		})
	}
}

// Recursion through properties and items is data (a tree of comments),
// not composition: it derives.
func TestSchemaRecursionThroughPropertiesDerives(t *testing.T) {
	doc := schemaDoc("List", `{"List":{"type":"array","items":{"$ref":"#/components/schemas/Node"}},
"Node":{"type":"object","properties":{"id":{"type":"integer"},"parent":{"$ref":"#/components/schemas/Node"},
"children":{"type":"array","items":{"$ref":"#/components/schemas/Node"}},"x":{"not":{"$ref":"#/components/schemas/Node"}}}}}`)
	p, err := loadData("tree", "tree.json", doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Resources) != 1 {
		t.Fatalf("resources %+v", p.Resources)
	}
	// A DAG below the bound derives too: 4^6 = 4096 schemas.
	if _, err := loadData("dag", "dag.json", schemaDoc("L0", testutil.AllOfBlowUp(6)), nil); err != nil {
		t.Fatal(err)
	}
}

// FuzzLoadDocument: deriving a provider from any document never panics
// nor exhausts the stack or memory; it succeeds or returns an error. The
// seed corpus holds the schema shapes that once crashed the process
// (run with `make test`; `make fuzz` explores from them).
func FuzzLoadDocument(f *testing.F) {
	for _, doc := range selfShapes {
		f.Add(doc)
	}
	f.Add(schemaDoc("L0", testutil.AllOfBlowUp(6)))
	f.Add(schemaDoc("A", `{"A":{"$ref":"#/components/schemas/B"},"B":{"$ref":"#/components/schemas/A"}}`))
	// Chains of plain $refs (refchains.go): within the bound, past it,
	// with escaped names, in YAML, among parameters.
	f.Add(schemaDoc("C0", testutil.RefChain(20, 3)))
	f.Add(schemaDoc("C0", testutil.RefChain(70, 0)))
	f.Add(schemaDoc("a~1b", `{"a~1b":{"$ref":"#/components/schemas/c~0d"},"c~0d":{"$ref":"#/components/schemas/e%20f"},"e f":{"type":"object","properties":{"id":{"type":"integer"}}}}`))
	f.Add([]byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      parameters: [{$ref: '#/components/parameters/P0'}]\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/S0'}}}}\ncomponents:\n  parameters:\n    P0: {$ref: '#/components/parameters/P1'}\n    P1: {name: q, in: query, schema: {type: string}}\n  schemas:\n    S0: {$ref: '#/components/schemas/S1'}\n    S1: {$ref: '#/components/schemas/S0'}\n"))
	f.Add([]byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/L'}}}}\ncomponents:\n  schemas:\n    L: {allOf: [{$ref: '#/components/schemas/L'}]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		p, err := loadData("fuzz", "fuzz.json", data, nil)
		if err == nil && p == nil {
			t.Fatal("no provider and no error")
		}
		if err != nil && err.Error() == "" {
			t.Fatal("empty error")
		}
	})
}

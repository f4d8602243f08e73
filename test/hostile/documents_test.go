package hostile

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

const loopRef = `{"$ref":"#/components/schemas/Loop"}`

// selfMadeDocs are descriptions of a few hundred bytes whose schemas are
// made of themselves, or of exponentially many schemas. Before, the first
// was "fatal error: stack overflow" (a crash no recover can catch) and
// the others took gigabytes within seconds.
var selfMadeDocs = map[string]struct{ doc, want string }{
	"allOf itself": {testutil.SchemaDoc("Loop", `{"Loop":{"allOf":[`+loopRef+`]}}`),
		"schema #/components/schemas/Loop is made of itself"},
	"allOf itself four times": {testutil.SchemaDoc("List", `{"List":{"type":"array","items":`+loopRef+`},"Loop":{"allOf":[`+strings.Repeat(loopRef+",", 3)+loopRef+`],"properties":{"id":{"type":"integer"}}}}`),
		"schema #/components/schemas/Loop is made of itself"},
	"nested allOf that multiply": {testutil.SchemaDoc("L0", testutil.AllOfBlowUp(9)),
		"is made of more than 10000 schemas"},
}

// A description whose schemas are made of themselves is a plan error
// naming the schema (exit 1) through --provider and `registry add URL`,
// and an MCP server started with it answers list_providers with that
// error result and goes on serving: never a crash.
func TestSelfMadeSchemasAreErrorsNotCrashes(t *testing.T) {
	fake := fakegithub.ForTest(t)
	files := map[string]string{}
	for name, c := range selfMadeDocs {
		if len(c.doc) > 2048 {
			t.Fatalf("%s: %d bytes; the point is a small document", name, len(c.doc))
		}
		files[name] = testutil.TempFile(t, "loop.json", c.doc)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for name, c := range selfMadeDocs {
			if r.URL.Path == "/"+strings.ReplaceAll(name, " ", "-")+".json" {
				fmt.Fprint(w, c.doc)
				return
			}
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)

	for name, c := range selfMadeDocs {
		t.Run(name, func(t *testing.T) {
			e := testutil.FakeEnv(t, fake.URL(), "XDG_DATA_HOME="+t.TempDir())
			r := testutil.Run(t, e, "", "--provider", "lp="+files[name], "exec", "-o", "json", "SELECT * FROM lp.things.things")
			notCrashed(t, "--provider", r.Stderr)
			if e := errorOf(t, r.Stderr); r.Code != 1 || e.Kind != "plan" || !strings.Contains(e.Message, c.want) || !strings.Contains(e.Message, "GET /things") {
				t.Errorf("--provider: exit %d, error %+v; want a plan error saying %q", r.Code, e, c.want)
			}

			r = testutil.Run(t, e, "", "registry", "add", "lp", srv.URL+"/"+strings.ReplaceAll(name, " ", "-")+".json")
			notCrashed(t, "registry add URL", r.Stderr)
			if r.Code != 1 || !strings.Contains(r.Stderr, c.want) {
				t.Errorf("registry add URL: exit %d\n%.600s", r.Code, r.Stderr)
			}

			mc, cs, stderr := mcptest.Stdio(t, e, "--provider", "lp="+files[name], "mcp")
			ctx := mcptest.Context(t)
			res := mc.Call(t, ctx, "list_providers", nil)
			if !res.IsError || res.Error == nil || res.Error.Kind != "plan" || !strings.Contains(res.Error.Message, c.want) {
				t.Errorf("list_providers: %+v", res.Error)
			}
			ok := mc.Call(t, ctx, "run_select_query", map[string]any{"sql": tiny})
			if ok.IsError || ok.RowCount != 3 {
				t.Errorf("the server does not answer after the error: %+v", ok.Error)
			}
			cs.Close()
			notCrashed(t, "mcp", stderr.String())
		})
	}
}

func notCrashed(t *testing.T, what, stderr string) {
	t.Helper()
	for _, s := range []string{"fatal error", "goroutine ", "panic:", "out of memory"} {
		if strings.Contains(stderr, s) {
			t.Fatalf("%s crashed:\n%.1500s", what, stderr)
		}
	}
}

// TestRefChainsAreBounded: a valid description that is a chain of plain
// $refs (C0: {$ref: C1}, C1: {$ref: C2}, ...) compiled in quadratic time
// (8,000 links, 390 KB: 67 s of CPU; 1 MB: over 8 minutes) through
// --provider and `registry add URL`. A chain longer than 64 $refs is now
// a plan error naming its first schema, a $ref cycle one naming the
// schema; a chain of 63 with thousands of aliases of its head (64
// $refs each) compiles
// (each chain is followed once).
func TestRefChainsAreBounded(t *testing.T) {
	fake := fakegithub.ForTest(t)
	long := testutil.SchemaDoc("C0", testutil.RefChain(8000, 0))
	if len(long) < 350<<10 {
		t.Fatalf("the long chain is %d bytes", len(long))
	}
	cycle := testutil.SchemaDoc("C0", `{"C0":{"$ref":"#/components/schemas/C1"},"C1":{"$ref":"#/components/schemas/C2"},"C2":{"$ref":"#/components/schemas/C0"}}`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, long) }))
	t.Cleanup(srv.Close)
	e := testutil.FakeEnv(t, fake.URL(), "XDG_DATA_HOME="+t.TempDir())
	for _, c := range []struct{ name, doc, want string }{
		{"8,000 links", long, "component #/components/schemas/C0 is a chain of more than 64 $refs"},
		{"a cycle", cycle, "component #/components/schemas/C0 is a $ref to itself (through 3 $refs)"},
	} {
		r := testutil.Run(t, e, "", "--provider", "lp="+testutil.TempFile(t, "chain.json", c.doc), "exec", "-o", "json", "SELECT * FROM lp.things.things")
		notCrashed(t, "--provider", r.Stderr)
		if e := errorOf(t, r.Stderr); r.Code != 1 || e.Kind != "plan" || !strings.Contains(e.Message, c.want) {
			t.Errorf("%s: exit %d, error %+v; want a plan error saying %q", c.name, r.Code, e, c.want)
		}
	}
	r := testutil.Run(t, e, "", "registry", "add", "lp", srv.URL+"/chain.json")
	if r.Code != 1 || !strings.Contains(r.Stderr, "is a chain of more than 64 $refs") {
		t.Errorf("registry add URL: exit %d\n%.600s", r.Code, r.Stderr)
	}
	ok := testutil.SchemaDoc("C0", testutil.RefChain(63, 5000))
	r = testutil.Run(t, e, "", "--provider", "lp="+testutil.TempFile(t, "ok.json", ok), "exec", "-o", "csv", "DESCRIBE lp.things.things")
	if r.Code != 0 || !strings.Contains(r.Stdout, "id,INTEGER") {
		t.Errorf("a chain of 63 with 5,000 aliases of its head (64 $refs): exit %d\n%.600s\n%.600s", r.Code, r.Stdout, r.Stderr)
	}
}

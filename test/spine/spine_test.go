// Package spine_test enforces the package spine (docs/architecture.md):
//
//	cmd -> surfaces -> engine -> engine/catalog -> providers -> registry
//
// where the surfaces are mcpsurface and the command line's own surfaces
// under cmd/engine (shell, check, advice), and the shared-state backends
// (providers/sharedstate/redisstate) sit under providers, imported only
// by cmd.
// A package imports only packages of its own layer or below; engine and
// below know nothing of MCP; the catalog imports none of the other engine
// packages (it is below them: the planner reads it through an interface);
// providers and registry know nothing of SQL;
// nothing outside test/ imports test/. It reads the import graph with
// `go list` (the non-test imports of every package of the module).
package spine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

const module = "github.com/enginehq/engine"

// layers, lowest first: a package is in the layer of the longest prefix
// of its path (relative to the module) that is listed.
var layers = []string{"registry", "providers", "engine/catalog", "engine", "surfaces", "cmd"}

// prefixes are the paths (relative to the module) of each layer whose
// packages are not all under a folder of the layer's name; a path ending
// in "/" stands for the packages below it, not itself: every package
// under cmd/engine/ is a surface of the command line (shell, check,
// advice, and any new one), while cmd/engine is the command.
var prefixes = map[string][]string{
	"surfaces": {"mcpsurface", "cmd/engine/"},
}

// layerPaths are the path prefixes of layer l.
func layerPaths(l string) []string {
	if p, ok := prefixes[l]; ok {
		return p
	}
	return []string{l}
}

// forbidden are dependencies (direct or not) a layer must not have, with
// the reason.
var forbidden = []struct {
	below  string // this layer and the layers under it
	prefix string // an import path, with the paths under it
	why    string
}{
	{"engine", module + "/mcpsurface", "engine knows nothing of MCP or terminals"},
	{"engine", module + "/cmd/", "engine knows nothing of MCP or terminals"},
	{"surfaces", module + "/providers/sharedstate/redisstate", "only cmd chooses a shared-state backend"},
	{"engine", "github.com/modelcontextprotocol/", "engine knows nothing of MCP"},
	{"engine/catalog", "database/sql", "the catalog knows nothing of SQL"},
	{"engine/catalog", "modernc.org/sqlite", "the catalog knows nothing of SQL"},
	{"engine/catalog", "github.com/dolthub/vitess", "the catalog knows nothing of SQL"},
	{"providers", module + "/engine", "providers know nothing of SQL"},
	{"providers", "database/sql", "providers know nothing of SQL"},
	{"providers", "modernc.org/sqlite", "providers know nothing of SQL"},
	{"providers", "github.com/dolthub/vitess", "providers know nothing of SQL"},
}

// parts are dependencies (direct or not) that one part of the engine's
// middle must not have, with the reason: the planner, the runner and the
// store meet at interfaces (plan.ScanProver, exec.Fetcher), and the
// in-process harness is for tests only.
var parts = []struct {
	pkg string // a package, relative to the module
	dep string // a package it must not depend on, relative to the module
	why string
}{
	{"engine/plan", "engine/store", "the planner proves a plain scan through plan.ScanProver"},
	{"engine/plan", "engine/exec", "a plan is final before the runner sees it"},
	{"engine/exec", "engine", "the runner gets its fetchers (exec.Fetcher) from its caller"},
	{"engine/exec", "providers/client", "the runner names calls and their stats with the providers' values (providers.Call); the client is its caller's"},
	{"engine/store", "engine/plan", "the store knows tables and SQLite text, not plans"},
	{"engine", "engine/enginetest", "the in-process harness is for tests"},
	{"mcpsurface", "engine/enginetest", "the in-process harness is for tests"},
	{"cmd/engine/shell", "engine/enginetest", "the in-process harness is for tests"},
	{"cmd/engine/check", "engine/enginetest", "the in-process harness is for tests"},
	{"mcpsurface", "cmd/engine/shell", "the surfaces are siblings"},
	{"mcpsurface", "cmd/engine/check", "the surfaces are siblings"},
	{"mcpsurface", "cmd/engine/advice", "the CLI's hints are not MCP's error results"},
	{"cmd/engine/shell", "mcpsurface", "the surfaces are siblings"},
	{"cmd/engine/shell", "cmd/engine/check", "the surfaces are siblings"},
	{"cmd/engine/check", "mcpsurface", "the surfaces are siblings"},
	{"cmd/engine/check", "cmd/engine/shell", "the surfaces are siblings"},
	{"cmd/engine", "engine/enginetest", "the in-process harness is for tests"},
	{"cmd/engine/advice", "mcpsurface", "the CLI's hints are not MCP's"},
}

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// layer is the index of p's layer in layers, -1 for a package outside
// the spine (test/...), or -2 for one of no listed layer.
func layer(path string) int {
	rel, ok := strings.CutPrefix(path, module+"/")
	if !ok {
		return -2
	}
	if rel == "test" || strings.HasPrefix(rel, "test/") {
		return -1
	}
	at, longest := -2, 0
	for i, name := range layers {
		for _, l := range layerPaths(name) {
			below, ok := strings.CutSuffix(l, "/")
			if (ok && strings.HasPrefix(rel, l) || !ok && (rel == l || strings.HasPrefix(rel, l+"/"))) && len(below) >= longest {
				at, longest = i, len(below)
			}
		}
	}
	return at
}

func layerIndex(name string) int {
	for i, l := range layers {
		if l == name {
			return i
		}
	}
	panic("no layer " + name)
}

// under reports whether import path d is prefix or below it; a prefix
// ending in "/" matches any path that starts with it.
func under(d, prefix string) bool {
	if strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(d, prefix)
	}
	return d == prefix || strings.HasPrefix(d, prefix+"/")
}

// violations lists every import that breaks the spine.
func violations(pkgs []pkg) []string {
	var out []string
	for _, p := range pkgs {
		from := layer(p.ImportPath)
		switch from {
		case -1:
			continue // tests and their helpers may import anything
		case -2:
			out = append(out, fmt.Sprintf("%s is in no layer of the spine (%s); add it to the layers of test/spine", p.ImportPath, strings.Join(layers, ", ")))
			continue
		}
		for _, imp := range p.Imports {
			switch to := layer(imp); {
			case to == -1:
				out = append(out, fmt.Sprintf("%s imports %s: only tests import test/", p.ImportPath, imp))
			case to > from:
				out = append(out, fmt.Sprintf("%s imports %s: %s is above %s in the spine", p.ImportPath, imp, layers[to], layers[from]))
			}
		}
		for _, r := range parts {
			if p.ImportPath != module+"/"+r.pkg {
				continue
			}
			for _, d := range p.Deps {
				if d == module+"/"+r.dep {
					out = append(out, fmt.Sprintf("%s depends on %s: %s", p.ImportPath, d, r.why))
				}
			}
		}
		for _, f := range forbidden {
			if from > layerIndex(f.below) {
				continue
			}
			for _, d := range p.Deps {
				if under(d, f.prefix) {
					out = append(out, fmt.Sprintf("%s depends on %s: %s", p.ImportPath, d, f.why))
				}
			}
		}
	}
	return out
}

func TestImportSpine(t *testing.T) {
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,Deps", "./...")
	cmd.Dir = testutil.RepoRoot()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	seen := map[int]bool{}
	for _, p := range pkgs {
		seen[layer(p.ImportPath)] = true
	}
	for i, l := range layers {
		if !seen[i] {
			t.Fatalf("go list found no package of layer %s among %d packages", l, len(pkgs))
		}
	}
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
}

// TestViolationsAreFound: the checker reports each kind of breach.
func TestViolationsAreFound(t *testing.T) {
	m := func(rel string) string { return module + "/" + rel }
	pkgs := []pkg{
		{ImportPath: m("providers/client"), Imports: []string{m("engine/result")}, Deps: []string{m("engine/result")}},
		{ImportPath: m("engine/plan"), Imports: []string{m("providers")}, Deps: []string{m("providers"), "github.com/modelcontextprotocol/go-sdk/mcp"}},
		{ImportPath: m("engine/catalog"), Imports: []string{m("engine/plan")}, Deps: []string{m("engine/plan")}},
		{ImportPath: m("engine/catalogue"), Imports: []string{m("engine/catalog")}},
		{ImportPath: m("registry"), Imports: []string{"io/fs"}, Deps: []string{"io/fs", "database/sql"}},
		{ImportPath: m("mcpsurface"), Imports: []string{m("test/fakegithub")}},
		{ImportPath: m("tools/x")},
		{ImportPath: m("cmd/engine"), Imports: []string{m("mcpsurface"), m("engine")}, Deps: []string{"github.com/modelcontextprotocol/go-sdk/mcp"}},
		{ImportPath: m("test/exec"), Imports: []string{m("cmd/engine")}},
		{ImportPath: m("engine/exec"), Imports: []string{m("engine/plan")}, Deps: []string{m("engine/plan"), m("engine")}},
		{ImportPath: m("cmd/engine/check"), Imports: []string{m("cmd/engine")}, Deps: []string{m("cmd/engine"), m("providers/sharedstate/redisstate")}},
		{ImportPath: m("engine/store"), Deps: []string{m("cmd/engine/shell")}},
	}
	got := strings.Join(violations(pkgs), "\n")
	for _, want := range []string{
		"providers/client imports " + m("engine/result") + ": engine is above providers",
		"providers/client depends on " + m("engine/result") + ": providers know nothing of SQL",
		"engine/plan depends on github.com/modelcontextprotocol/go-sdk/mcp: engine knows nothing of MCP",
		"registry depends on database/sql",
		"mcpsurface imports " + m("test/fakegithub") + ": only tests import test/",
		"tools/x is in no layer",
		"engine/catalog imports " + m("engine/plan") + ": engine is above engine/catalog",
		"engine/exec depends on " + m("engine") + ": the runner gets its fetchers",
		"cmd/engine/check imports " + m("cmd/engine") + ": cmd is above surfaces",
		"cmd/engine/check depends on " + m("providers/sharedstate/redisstate") + ": only cmd chooses",
		"engine/store depends on " + m("cmd/engine/shell") + ": engine knows nothing",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, m("cmd/engine")+" imports") || strings.Contains(got, "test/exec") || strings.Contains(got, "engine/catalogue") {
		t.Errorf("allowed imports reported:\n%s", got)
	}
}

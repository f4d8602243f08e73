package spine_test

import (
	"go/ast"
	"go/types"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/enginehq/engine/test/testutil"
)

// stages are the calls one stage of a statement (parse, plan, run, write)
// may make into the package of another: one statement enters each stage
// once, from the engine (sqlfront.Parse, plan.Build, exec.Run, the result
// stream), and a stage reads what an earlier one made as data, through the
// data's own accessors, never by calling back into that stage's work.
var stages = []struct {
	from, to string   // packages, relative to the module
	files    []string // files of to whose functions and methods from may call; none: no call at all
	why      string
}{
	{"engine/plan", "engine/sqlfront", []string{"model.go", "quote.go", "idents.go"},
		"the planner reads the parsed statement (sqlfront's model: spans, filters, conjuncts) and quotes identifiers; the SQLite text is the plan's own work (plan/sqlite.go)"},
	{"engine/exec", "engine/sqlfront", []string{"model.go"}, "the runner runs a plan: it may read the names of the plan's tables, nothing more of the statement"},
	{"engine/exec", "engine/catalog", nil, "the runner gets its fetchers from its caller"},
	{"engine/sqlfront", "engine/catalog", nil, "the front end knows providers by name only (Parse's isProvider)"},
	{"engine/plan", "engine/result", nil, "a plan is made before any result exists"},
}

// TestStageCalls checks stages with the type checker: every call in a
// package's non-test files is resolved to the function or method it
// calls, and a call into a package listed for it must land in one of the
// files allowed.
func TestStageCalls(t *testing.T) {
	var froms []string
	for _, s := range stages {
		if !slices.Contains(froms, s.from) {
			froms = append(froms, s.from)
		}
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo, Dir: testutil.RepoRoot()}
	var patterns []string
	for _, f := range froms {
		patterns = append(patterns, module+"/"+f)
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != len(froms) {
		t.Fatalf("loaded %d packages, want %d", len(pkgs), len(froms))
	}
	checked := 0
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.PkgPath, e)
		}
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var id *ast.Ident
				switch fn := ast.Unparen(call.Fun).(type) {
				case *ast.Ident:
					id = fn
				case *ast.SelectorExpr:
					id = fn.Sel
				default:
					return true
				}
				obj, ok := p.TypesInfo.Uses[id].(*types.Func)
				if !ok || obj.Pkg() == nil {
					return true
				}
				for _, s := range stages {
					if p.PkgPath != module+"/"+s.from || obj.Pkg().Path() != module+"/"+s.to {
						continue
					}
					checked++
					file := filepath.Base(p.Fset.Position(obj.Pos()).Filename)
					if !slices.Contains(s.files, file) {
						t.Errorf("%s calls %s.%s (%s): %s", p.Fset.Position(call.Pos()), s.to, obj.Name(), file, s.why)
					}
				}
				return true
			})
		}
	}
	if checked == 0 {
		t.Fatal("no call between the listed packages was found: the check reads nothing")
	}
}

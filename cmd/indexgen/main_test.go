package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/openapi"
)

const (
	githubDescription = "../../../shared/openapi/github/api.github.com.json.gz"
	committedIndex    = "../../registry/embedded/github.idx"
)

// TestEmbeddedIndexIsCurrent fails when registry/embedded/github.idx is not
// what the generator produces now (regenerate: cd registry && go generate).
func TestEmbeddedIndexIsCurrent(t *testing.T) {
	ov := githubOverrides(t)
	// generate's steps, on the description parsed once for all tests
	// (parsing it takes most of this package's time under -race).
	want, err := openapi.BuildIndex(githubDoc(t), "github", ov)
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	got, err := os.ReadFile(committedIndex)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("%s is stale (first difference on line %d); run: cd registry && go generate", committedIndex, i+1)
			}
		}
		t.Fatalf("%s is stale (%d lines, generator gives %d); run: cd registry && go generate", committedIndex, len(gl), len(wl))
	}

	p, all := decodeIndex(t, want)
	bp, err := p.Resource("branches", "branch_protection")
	if err != nil || bp == nil {
		t.Fatalf("branch_protection: %v", err)
	}
	m := bp.Method("get_branch_protection")
	if m == nil || !reflect.DeepEqual(m.Absent, []providers.AbsentRule{{Status: 404, Message: "Branch not protected"}}) || !reflect.DeepEqual(m.Required(), []string{"owner", "repo", "branch"}) {
		t.Fatalf("get_branch_protection = %+v", m)
	}
	// Only overridden operations carry absent statuses.
	n := 0
	for _, r := range all {
		for _, m := range r.Methods {
			if len(m.Absent) > 0 {
				n++
				if _, ok := ov.Absent[m.OperationID]; !ok {
					t.Errorf("%s %s has absent statuses without an override", r.FullName(), m.Name)
				}
			}
		}
	}
	if n != len(ov.Absent) {
		t.Errorf("%d methods carry absent statuses, the overrides list %d", n, len(ov.Absent))
	}
}

func TestOverridesFiles(t *testing.T) {
	githubOverrides(t)
	if ov, err := loadOverrides("petstore", ""); err != nil || ov != nil {
		t.Errorf("no built-in overrides for petstore: %v, %v", ov, err)
	}
	if ov, err := loadOverrides("github", "none"); err != nil || ov != nil {
		t.Errorf("-overrides none: %v, %v", ov, err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"absent": {"repos/get": {"status": 403, "message": "Forbidden", "reason": "forbidden means private"}}}`), 0o644)
	if _, err := loadOverrides("github", bad); err == nil {
		t.Error("an override declaring 403 absent was accepted")
	}
	if _, err := loadOverrides("github", filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing overrides file was accepted")
	}
}

func TestWriteFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.idx")
	for _, s := range []string{"one\n", "two\n"} {
		if err := writeFile(p, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(p); string(got) != s {
			t.Errorf("file = %q, want %q", got, s)
		}
	}
}

var update = flag.Bool("update", false, "rewrite the generated section of docs/check.md")

const (
	checkDoc    = "../../docs/check.md"
	absentBegin = "<!-- absent:begin (generated from registry/profiles/github.json by: go test ./cmd/indexgen -run TestCheckDocAbsence -update) -->\n"
	absentEnd   = "<!-- absent:end -->"
)

// TestCheckDocAbsence fails when the list of answers that count as "no
// rows" in docs/check.md differs from the overrides data.
func TestCheckDocAbsence(t *testing.T) {
	ov := githubOverrides(t)
	want := absentBegin + "\n" + ov.AbsenceTable() + "\nReviewed and left without an absence rule (each of these 404s is an error):\n\n" + ov.NotAbsentTable() + "\n"
	generatedSection(t, checkDoc, absentBegin, absentEnd, want, false,
		"the absence section differs from registry/profiles/github.json; run: go test ./cmd/indexgen -run TestCheckDocAbsence -update")
}

// generatedSection compares the section of the file at path between the
// lines begin and end with want; with -update it rewrites the section
// instead (appending it to the file, or making the file, when create is
// set and the file has none).
func generatedSection(t *testing.T, path, begin, end, want string, create bool, differs string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil && !(create && *update) {
		t.Fatal(err)
	}
	s := string(raw)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		if !create || !*update {
			t.Fatalf("%s: no section between %q and %q", path, strings.TrimSpace(begin), end)
		}
		s, i, j = s+"\n"+begin+end+"\n", len(s)+1, len(s)+1+len(begin)
	}
	if got := s[i:j]; got != want {
		if *update {
			if err := os.WriteFile(path, []byte(s[:i]+want+s[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Fatalf("%s: %s", path, differs)
	}
}

const (
	tablesDoc   = "../../docs/tables.md"
	tablesBegin = "<!-- tables:begin (generated by: go test ./cmd/indexgen -run TestTablesDoc -update) -->\n"
	tablesEnd   = "<!-- tables:end -->"
	readme      = "../../README.md"
)

var parsed struct {
	once sync.Once
	doc  *openapi3.T
	err  error
}

// githubDoc is GitHub's description, read and parsed once per test run.
func githubDoc(t *testing.T) *openapi3.T {
	t.Helper()
	parsed.once.Do(func() {
		raw, err := os.ReadFile(githubDescription)
		if err != nil {
			parsed.err = err
			return
		}
		parsed.doc, parsed.err = openapi.ParseDocument(githubDescription, raw)
	})
	if parsed.err != nil {
		t.Fatal(parsed.err)
	}
	return parsed.doc
}

// githubOverrides are the built-in GitHub overrides.
func githubOverrides(t *testing.T) *openapi.ProfileFile {
	t.Helper()
	ov, err := loadOverrides("github", "")
	if err != nil || ov == nil || len(ov.Absent) == 0 {
		t.Fatalf("built-in github overrides: %v, %v", ov, err)
	}
	return ov
}

// decodeIndex is the provider of an encoded index and its tables.
func decodeIndex(t *testing.T, data []byte) (*providers.Provider, []*providers.Resource) {
	t.Helper()
	p, err := providers.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	all, err := p.AllResources()
	if err != nil {
		t.Fatal(err)
	}
	return p, all
}

// githubTables derives the built-in index's tables from the description
// with the committed overrides.
func githubTables(t *testing.T) (*openapi3.T, []*providers.Resource) {
	t.Helper()
	doc := githubDoc(t)
	ov := githubOverrides(t)
	_, rs, err := openapi.DeriveTables(doc, "github", ov.Tables)
	if err != nil {
		t.Fatal(err)
	}
	return doc, rs
}

// TestNoTableMixesEntities proves, on the committed index, that every
// method of every table returns rows of one entity (the item schema's
// component, detail levels merged), that names are unique snake_case, and
// that the README states the table count.
func TestNoTableMixesEntities(t *testing.T) {
	doc, _ := githubTables(t)
	data, err := os.ReadFile(committedIndex)
	if err != nil {
		t.Fatal(err)
	}
	_, all := decodeIndex(t, data)
	seen := map[string]bool{}
	methods := 0
	for _, r := range all {
		if seen[r.FullName()] {
			t.Errorf("duplicate table %s", r.FullName())
		}
		seen[r.FullName()] = true
		if openapi.SnakeCase(r.Name) != r.Name || openapi.SnakeCase(r.Service) != r.Service {
			t.Errorf("%s is not snake_case", r.FullName())
		}
		ents := map[string][]string{}
		for _, m := range r.Methods {
			methods++
			op := doc.Paths.Value(m.Path)
			if op == nil || op.Get == nil {
				t.Fatalf("%s: %s: no GET %s in the description", r.FullName(), m.Name, m.Path)
			}
			e := openapi.MethodEntity(op.Get, m)
			ents[e.Key] = append(ents[e.Key], m.OperationID)
		}
		if len(ents) != 1 {
			t.Errorf("%s mixes %d entities: %v", r.FullName(), len(ents), ents)
		}
		// Independently of the schema names: rows of one entity have one
		// shape. Any two methods share at least 3/4 of the smaller column
		// set (detail levels add columns), and methods without columns
		// never share a table with methods that have them. The index before
		// the split (161 tables) failed this for 78 tables.
		withCols := 0
		for i, a := range r.Methods {
			if len(a.Columns) > 0 {
				withCols++
			}
			for _, b := range r.Methods[i+1:] {
				if len(a.Columns) == 0 || len(b.Columns) == 0 {
					continue
				}
				shared := 0
				for _, c := range a.Columns {
					if b.Column(c.Name) != nil {
						shared++
					}
				}
				if 4*shared < 3*min(len(a.Columns), len(b.Columns)) {
					t.Errorf("%s: %s and %s share %d of %d/%d columns", r.FullName(), a.Name, b.Name, shared, len(a.Columns), len(b.Columns))
				}
			}
		}
		if withCols != 0 && withCols != len(r.Methods) {
			t.Errorf("%s mixes methods with and without columns", r.FullName())
		}
	}
	t.Logf("%d tables, %d methods", len(all), methods)
	if len(all) < 300 || len(all) > 500 {
		t.Errorf("%d tables; expected roughly 400 entity tables", len(all))
	}
	rd, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("grouped into %d tables", len(all)); !strings.Contains(string(rd), want) {
		t.Errorf("README.md does not say %q", want)
	}
}

// TestTablesDoc fails when docs/tables.md differs from the index's tables.
func TestTablesDoc(t *testing.T) {
	doc, rs := githubTables(t)
	want := tablesBegin + "\n" + tableList(doc, rs) + "\n"
	generatedSection(t, tablesDoc, tablesBegin, tablesEnd, want, true,
		"differs from the index's tables; run: go test ./cmd/indexgen -run TestTablesDoc -update")
}

package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/enginehq/engine/providers"
)

const (
	githubDescription = "../../../shared/openapi/github/api.github.com.json.gz"
	committedIndex    = "../../registry/embedded/github.idx"
)

// TestEmbeddedIndexIsCurrent fails when registry/embedded/github.idx is not
// what the generator produces now (regenerate: cd registry && go generate).
func TestEmbeddedIndexIsCurrent(t *testing.T) {
	want, err := generate(githubDescription, "github", "")
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

	p, err := providers.Decode(want)
	if err != nil {
		t.Fatal(err)
	}
	bp, err := p.Resource("branches", "branch_protection")
	if err != nil || bp == nil {
		t.Fatalf("branch_protection: %v", err)
	}
	m := bp.Method("get_branch_protection")
	if m == nil || !reflect.DeepEqual(m.Absent, []providers.AbsentRule{{Status: 404, Message: "Branch not protected"}}) || !reflect.DeepEqual(m.Required(), []string{"owner", "repo", "branch"}) {
		t.Fatalf("get_branch_protection = %+v", m)
	}
	// Only overridden operations carry absent statuses.
	all, err := p.AllResources()
	if err != nil {
		t.Fatal(err)
	}
	ov, err := loadOverrides("github", "")
	if err != nil {
		t.Fatal(err)
	}
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
	if ov, err := loadOverrides("github", ""); err != nil || ov == nil || len(ov.Absent) == 0 {
		t.Fatalf("built-in github overrides: %v, %v", ov, err)
	}
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
	absentBegin = "<!-- absent:begin (generated from cmd/indexgen/github-overrides.json by: go test ./cmd/indexgen -run TestCheckDocAbsence -update) -->\n"
	absentEnd   = "<!-- absent:end -->"
)

// TestCheckDocAbsence fails when the list of answers that count as "no
// rows" in docs/check.md differs from the overrides data.
func TestCheckDocAbsence(t *testing.T) {
	ov, err := loadOverrides("github", "")
	if err != nil {
		t.Fatal(err)
	}
	want := absentBegin + "\n" + ov.AbsenceTable() + "\nReviewed and left without an absence rule (each of these 404s is an error):\n\n" + ov.NotAbsentTable() + "\n"
	doc, err := os.ReadFile(checkDoc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, absentBegin), strings.Index(s, absentEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no section between %q and %q", checkDoc, strings.TrimSpace(absentBegin), absentEnd)
	}
	if got := s[i:j]; got != want {
		if *update {
			if err := os.WriteFile(checkDoc, []byte(s[:i]+want+s[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Fatalf("%s: the absence section differs from github-overrides.json; run: go test ./cmd/indexgen -run TestCheckDocAbsence -update", checkDoc)
	}
}

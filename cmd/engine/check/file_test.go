package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/engine/result"
)

const goodFile = `defaults:
  base_url:
    github: http://127.0.0.1:1
  auth:
    github: {type: null_auth}
vars:
  org:
  repos: [a, b]
controls:
  - id: one
    title: First
    severity: HIGH
    sql: SELECT name FROM github.repos.repos WHERE org = {{org}}
  - id: two
    expect: count <= 2
    sql: |
      SELECT name FROM github.branches.branches
      WHERE owner = {{ org }} AND repo IN ({{repos}})
`

func TestLoadGood(t *testing.T) {
	f, ps := Load("c.yaml", []byte(goodFile))
	if len(ps) != 0 {
		t.Fatalf("problems: %v", ps)
	}
	if len(f.Controls) != 2 || f.Controls[0].ID != "one" || f.Controls[0].Severity != "high" || f.Controls[1].Title != "two" {
		t.Fatalf("controls: %+v %+v", f.Controls[0], f.Controls[1])
	}
	if f.Controls[1].Expect.String() != "count <= 2" || f.Controls[1].SQLLine != 16 || f.Controls[0].Line != 10 {
		t.Errorf("expect %s, sql line %d, line %d", f.Controls[1].Expect, f.Controls[1].SQLLine, f.Controls[0].Line)
	}
	if f.Defaults.BaseURL["github"] != "http://127.0.0.1:1" || f.Defaults.Auth["github"].Type != "null_auth" {
		t.Errorf("defaults: %+v", f.Defaults)
	}
	// org has no value: running needs --var org. One problem, at its
	// declaration, naming both controls that use it.
	ps = f.Resolve(nil)
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "variable org has no value") || ps[0].Line != 7 ||
		!strings.Contains(ps[0].Message, "used by 2 controls: one, two") {
		t.Fatalf("resolve without org: %v", ps)
	}
	if ps := f.Resolve(map[string]string{"org": "O'Brien", "repos": "x, y'z"}); len(ps) != 0 {
		t.Fatalf("resolve: %v", ps)
	}
	if got, want := f.Controls[0].SQL, `SELECT name FROM github.repos.repos WHERE org = 'O''Brien'`; got != want {
		t.Errorf("sql:\n got %s\nwant %s", got, want)
	}
	if !strings.Contains(f.Controls[1].SQL, `owner = 'O''Brien' AND repo IN ('x', 'y''z')`) {
		t.Errorf("list substitution: %s", f.Controls[1].SQL)
	}
	if ps := f.Resolve(map[string]string{"org": "acme", "ogr": "typo"}); len(ps) != 1 || !strings.Contains(ps[0].Message, "--var ogr") {
		t.Errorf("unknown --var: %v", ps)
	}
	if ps := f.Resolve(map[string]string{"org": "a\nb"}); len(ps) != 1 || !strings.Contains(ps[0].Message, "one line") {
		t.Errorf("newline in value: %v", ps)
	}
}

const badFile = `defaults:
  auth: {github: {type: bearer}}
  proxy: x
colour: red
controls:
  - id: a
    sql: SELECT 1
  - id: a
    sql: SELECT 2
  - id: has space
    sql: SELECT 3
  - id: b
    expect: count ~ 3
    sql: SELECT 4
  - id: c
    severity: urgent
    sqll: SELECT 5
  - title: no id
    sql: SELECT 6
  - id: d
    sql: SELECT 7
    sql: SELECT 8
  - id: e
    sql: SELECT x FROM t WHERE o = '{{org}}'
`

func TestLoadReportsEveryProblemWithLines(t *testing.T) {
	f, ps := Load("bad.yaml", []byte(badFile))
	ps = append(ps, f.Resolve(map[string]string{"org": "acme"})...)
	SortProblems(ps)
	want := []struct {
		line int
		msg  string
	}{
		{2, "type bearer needs credentialsenvvar"},
		{3, `unknown key "proxy" in defaults`},
		{4, `unknown key "colour" in top level`},
		{8, "duplicate id (first defined at line 6)"},
		{10, `id "has space"`},
		{13, `expect "count ~ 3"`},
		{15, "missing sql"},
		{16, `severity "urgent"`},
		{17, `unknown key "sqll"`},
		{18, "control without an id"},
		{22, `duplicate key "sql"`},
		{24, "without quotes"},
	}
	if len(ps) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(ps), len(want), problemText(ps))
	}
	for i, w := range want {
		if ps[i].Line != w.line || !strings.Contains(ps[i].Message, w.msg) {
			t.Errorf("problem %d: got %s; want line %d %q", i, ps[i], w.line, w.msg)
		}
	}
	if !strings.HasPrefix(ps[3].String(), "bad.yaml:8:5: control a: duplicate id") {
		t.Errorf("rendering: %s", ps[3])
	}
	if ps[8].Control != "c" {
		t.Errorf("unknown key names its control: %+v", ps[8])
	}
}

func TestLoadInvalidYAML(t *testing.T) {
	f, ps := Load("x.yaml", []byte("controls:\n  - id: a\n   sql: [\n"))
	if f != nil || len(ps) != 1 || ps[0].Line == 0 || !strings.Contains(ps[0].Message, "invalid YAML") {
		t.Fatalf("got %v %v", f, ps)
	}
	for _, src := range []string{"", "controls: 3\n", "controls: []\n", "- a\n", "vars: {}\n"} {
		if _, ps := Load("x.yaml", []byte(src)); len(ps) == 0 {
			t.Errorf("%q: no problem", src)
		}
	}
}

func TestSelect(t *testing.T) {
	f, _ := Load("c.yaml", []byte(goodFile))
	got, ps := Select(f, []string{"two", " nope"})
	if len(got) != 1 || got[0].ID != "two" || len(ps) != 1 || !strings.Contains(ps[0].Message, "--only nope") {
		t.Fatalf("got %v %v", got, ps)
	}
	if all, ps := Select(f, nil); len(all) != 2 || ps != nil {
		t.Fatalf("all: %v %v", all, ps)
	}
}

func problemText(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

func TestCredentialProblems(t *testing.T) {
	f, ps := Load("c.yaml", []byte("defaults:\n  auth:\n    github: {type: basic, credentialsenvvar: AWS_SECRET_ACCESS_KEY}\n    other: {type: null_auth}\ncontrols:\n  - id: a\n    sql: SELECT 1\n"))
	if len(ps) != 0 {
		t.Fatalf("load: %v", ps)
	}
	cp := f.CredentialProblems()
	if len(cp) != 1 || cp[0].Line != 3 || !strings.Contains(cp[0].Message, "AWS_SECRET_ACCESS_KEY") || !strings.Contains(cp[0].Message, AllowFileCredentialsFlag) {
		t.Fatalf("%+v", cp)
	}
}

func TestScrubRows(t *testing.T) {
	cols, rows := scrubRows([]result.Column{{Name: "tok_SECRET"}}, [][]any{{"a tok_SECRET b", []byte("tok_SECRET"), int64(1), nil}}, []string{"tok_SECRET"})
	if cols[0].Name != "[REDACTED]" || rows[0][0] != "a [REDACTED] b" || rows[0][1] != "[REDACTED]" || rows[0][2] != int64(1) || rows[0][3] != nil {
		t.Fatalf("%v %v", cols, rows)
	}
}

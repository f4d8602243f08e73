package check

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// A --var value is substituted as one quoted string; a placeholder inside
// a block comment or a string literal would let the value close it and add
// SQL. Such controls are refused before anything runs (exit 2, no request),
// whatever the value; a placeholder where a value goes still works.
func TestVarCannotChangeStatementStructure(t *testing.T) {
	s, env := serverEnv(t)
	hostile := "*/ SELECT 42 AS name UNION ALL --"
	cases := []struct{ name, sql string }{
		// Unchecked, the hostile value closes the comment and the statement
		// becomes SELECT 42 AS name UNION ALL SELECT name ...: a row.
		{"block comment", "/* {{org}} */\n      SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name = 'none'"},
		{"inside LIKE", "SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name LIKE '%{{org}}%' AND private"},
		{"line comment", "SELECT name FROM github.repos.repos WHERE org = 'tiny' AND private -- {{org}}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := testutil.TempFile(t, "v.yaml", "vars:\n  org:\ncontrols:\n  - id: inject\n    title: no private repos\n    sql: |\n      "+c.sql+"\n")
			for _, v := range []string{hostile, "acme"} {
				r := runCheck(t, env, file, "--var", "org="+v)
				testutil.WantRun(t, "--var org=%q", r, 2, "", "{{org}} must stand where a value goes")
				if strings.Contains(r.Stdout, "42") || strings.Contains(r.Stdout, "PASS") {
					t.Fatalf("the control ran:\n%s", r.Stdout)
				}
			}
			if n := len(s.Requests()); n != 0 {
				t.Fatalf("%d requests sent", n)
			}
		})
	}
	// Where a value goes, even the hostile value is one string literal.
	file := testutil.TempFile(t, "ok.yaml", "vars:\n  org:\n  names: [x]\ncontrols:\n  - id: fine\n    title: no repos named so\n    sql: SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name IN ({{names}}) AND name <> {{org}}\n")
	r := runCheck(t, env, file, "-o", "json", "--var", "org="+hostile, "--var", "names=alpha,beta")
	rep := parseJSON(t, r)
	if r.Code != 1 || len(rep.Controls) != 1 || rep.Controls[0].Status != "fail" || rep.Controls[0].RowCount == nil || *rep.Controls[0].RowCount != 2 {
		t.Fatalf("exit %d: %+v\n%s", r.Code, rep, r.Stderr)
	}
}

// A variable's mistake is reported once, where it is (docs/check.md,
// "vars"): a variable without a value once for the whole file, with the
// controls that use it, not once per control; a quoted {{org}} or one
// inside a string literal only as that mistake, not again as SQL that
// does not parse.
func TestVarProblemsReportedOnce(t *testing.T) {
	s, env := serverEnv(t)
	cases := []struct {
		name, file string
		args       []string
		want       []string // the problem lines, in order
	}{
		{"unset, three controls", "vars:\n  org:\ncontrols:\n" +
			"  - id: a\n    sql: SELECT name FROM github.repos.repos WHERE org = {{org}}\n" +
			"  - id: b\n    sql: SELECT login FROM github.orgs.members WHERE org = {{org}}\n" +
			"  - id: c\n    sql: SELECT name FROM github.repos.repos WHERE org = {{org}} AND private\n",
			nil, []string{":2: variable org has no value: pass --var org=VALUE (used by 3 controls: a, b, c)"}},
		{"undeclared, two controls", "controls:\n" +
			"  - id: a\n    sql: SELECT name FROM github.repos.repos WHERE org = {{team}}\n" +
			"  - id: b\n    sql: SELECT login FROM github.orgs.members WHERE org = {{team}}\n",
			nil, []string{":3: variable team is not declared: add it under vars: or pass --var team=VALUE (used by 2 controls: a, b)"}},
		{"quoted", "vars:\n  org:\ncontrols:\n  - id: q\n    sql: SELECT name FROM github.repos.repos WHERE org = '{{org}}'\n",
			[]string{"--var", "org=acme"}, []string{":5: control q: write {{org}} without quotes"}},
		{"inside LIKE", "vars:\n  pat: x\ncontrols:\n  - id: l\n    sql: SELECT name FROM github.repos.repos WHERE org = 'acme' AND name LIKE '%{{pat}}%'\n",
			nil, []string{":5: control l: variable pat: {{pat}} must stand where a value goes"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := testutil.TempFile(t, "v.yaml", c.file)
			r := runCheck(t, env, append([]string{file}, c.args...)...)
			lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
			if r.Code != 2 || len(lines) != len(c.want)+1 {
				t.Fatalf("exit %d, want 2 and %d problem(s) + summary:\n%s", r.Code, len(c.want), r.Stderr)
			}
			for i, w := range c.want {
				if !strings.HasPrefix(lines[i], file+w) {
					t.Errorf("problem %d: %q\nwant %q", i, lines[i], file+w)
				}
			}
		})
	}
	if n := len(s.Requests()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// TestVarsInTextFields: {{var}} is substituted in title, description and
// remediation too (as plain text, a list as "a, b"), so a report says
// which org a control was about (issue 33 item 4); a --var used only
// there is a use, not an unknown variable.
func TestVarsInTextFields(t *testing.T) {
	_, env := serverEnv(t)
	file := testutil.TempFile(t, "t.yaml", `vars:
  org:
  names: [x]
  owner:
controls:
  - id: private
    title: "no private repos in {{org}}"
    description: "repos {{names}} of {{ org }}"
    remediation: "ask {{owner}} to make {{org}}'s repos public"
    sql: SELECT name FROM github.repos.repos WHERE org = {{org}} AND name IN ({{names}})
`)
	r := runCheck(t, env, file, "-o", "json", "--var", "org=tiny", "--var", "names=alpha,beta", "--var", "owner=ops")
	var rep struct {
		Controls []struct{ Title, Description, Remediation string } `json:"controls"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil || len(rep.Controls) != 1 {
		t.Fatalf("exit %d: %v\n%s\n%s", r.Code, err, r.Stdout, r.Stderr)
	}
	c := rep.Controls[0]
	if c.Title != "no private repos in tiny" || c.Description != "repos alpha, beta of tiny" || c.Remediation != "ask ops to make tiny's repos public" {
		t.Fatalf("texts: %+v", c)
	}
	text := runCheck(t, env, file, "--var", "org=tiny", "--var", "names=alpha,beta", "--var", "owner=ops")
	if strings.Contains(text.Stdout, "{{") || !strings.Contains(text.Stdout, "no private repos in tiny") {
		t.Fatalf("text report:\n%s", text.Stdout)
	}
}

package mcp_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// tsvBody is the lines of a TSV answer after its header, without the
// trailing "# ..." summary line of a tool.
func tsvBody(text string) []string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var out []string
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "# ") && l != "" {
			out = append(out, l)
		}
	}
	return out
}

// column returns column i of TSV lines.
func column(lines []string, i int) []string {
	out := make([]string, len(lines))
	for k, l := range lines {
		out[k] = strings.Split(l, "\t")[i]
	}
	return out
}

// TestDiscoveryIsOneCatalog: the MCP discovery tools and SQL SHOW /
// DESCRIBE (engine exec) answer from one catalog (docs/architecture.md,
// "Discovery is the catalog's"): the same default provider when none is
// named, the same services and counts, tables and columns.
func TestDiscoveryIsOneCatalog(t *testing.T) {
	fake, c := fakeClient(t)
	env := testutil.FakeEnv(t, fake.URL())
	sql := func(q string) []string {
		t.Helper()
		r := testutil.Run(t, env, "", "exec", "-o", "tsv", q)
		if r.Code != 0 {
			t.Fatalf("%s: exit %d\n%s", q, r.Code, r.Stderr)
		}
		return tsvBody(r.Stdout)
	}
	same := func(what string, tool, stmt []string) {
		t.Helper()
		if strings.Join(tool, "\n") != strings.Join(stmt, "\n") || len(tool) == 0 {
			t.Errorf("%s: the tool and the statement differ\ntool:\n%s\nstatement:\n%s", what, strings.Join(tool, "\n"), strings.Join(stmt, "\n"))
		}
	}

	providers := tsvBody(toolText(t, c.S, "list_providers", nil))
	same("providers", providers, sql("SHOW PROVIDERS"))

	// No provider named: both are about the default one.
	same("services of the default provider", tsvBody(toolText(t, c.S, "list_services", nil)), sql("SHOW SERVICES"))
	same("services of github", tsvBody(toolText(t, c.S, "list_services", map[string]any{"provider": "github"})), sql("SHOW SERVICES IN github"))

	tables := tsvBody(toolText(t, c.S, "list_resources", map[string]any{"service": "repos"}))
	same("tables of github.repos", column(tables, 0), column(sql("SHOW RESOURCES IN github.repos"), 1))
	same("method counts of github.repos", column(tables, 1), column(sql("SHOW RESOURCES IN github.repos"), 2))

	d := toolText(t, c.S, "describe_resource", map[string]any{"resource": "github.repos.repos"})
	_, cols, ok := strings.Cut(d, "\ncolumn\ttype\tdescription\n")
	if !ok {
		t.Fatalf("describe_resource:\n%s", d)
	}
	var fromSQL []string
	for _, l := range sql("DESCRIBE github.repos.repos") {
		if f := strings.Split(l, "\t"); f[2] == "column" {
			fromSQL = append(fromSQL, f[0])
		}
	}
	same("columns of github.repos.repos", column(tsvBody("header\n"+cols), 0), fromSQL)
}

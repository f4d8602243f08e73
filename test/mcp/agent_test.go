package mcp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tiktoken-go/tokenizer"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// o200kTokens counts s in o200k tokens, the encoding docs/mcp.md's
// figures use.
func o200kTokens(t testing.TB, s string) int {
	t.Helper()
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	n, err := enc.Count(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// descriptionBudget is the most o200k tokens run_select_query's
// description may take: it carries the naming and WHERE rules and one
// example for hosts that drop the server instructions.
const descriptionBudget = 160

// TestToolDescriptionsSelfSufficient: run_select_query's description
// alone says how tables are named and how WHERE binds API parameters,
// with an example, within a measured budget; the summary line names the
// API method a bare SELECT was read with; the instructions of a server
// without a row cap read right.
func TestToolDescriptionsSelfSufficient(t *testing.T) {
	fake, c := fakeClient(t)
	lt := c.ListTools(t)
	var desc string
	for _, tool := range lt.Tools {
		if tool.Name == "run_select_query" {
			desc = tool.Description
		}
	}
	n := o200kTokens(t, desc)
	t.Logf("run_select_query description: %d bytes, %d o200k tokens", len(desc), n)
	for _, want := range []string{"provider.service.resource", "WHERE must bind", "= or IN", "required key", "Example: SELECT ", "FROM github.repos.repos WHERE org = 'acme'"} {
		if !strings.Contains(desc, want) {
			t.Errorf("run_select_query description lacks %q:\n%s", want, desc)
		}
	}
	if n > descriptionBudget {
		t.Errorf("run_select_query description is %d tokens; budget %d", n, descriptionBudget)
	}
	// The example in the description runs as written.
	if _, ex, ok := strings.Cut(desc, "Example: "); ok {
		ex, _, _ = strings.Cut(ex, ". ")
		if r := c.QueryBounded(t, ex); r.IsError || r.RowCount != 10 {
			t.Errorf("the description's example %q: %+v", ex, r.Error)
		}
	}

	r := c.QueryBounded(t, "SELECT name FROM github.repos.repos")
	_, _, summary := mcptest.TSVLines(r.Text)
	if r.IsError || !strings.Contains(summary, "github.repos.repos: GET /user/repos") {
		t.Errorf("summary line of a bare SELECT does not name GET /user/repos: %q", summary)
	}

	c0, _ := stdioClient(t, fake, nil, "--max-rows", "-1")
	ins := c0.S.InitializeResult().Instructions
	if strings.Contains(ins, "no rows") || !strings.Contains(ins, "not capped in rows") {
		t.Errorf("instructions with --max-rows -1: %q", ins)
	}
}

// TestBooleanColumnComparedWithString: a BOOLEAN column compared with a
// string is refused before any request, with the form to write; the form
// runs; booleans show as true/false and describe says how SQL reads them.
func TestBooleanColumnComparedWithString(t *testing.T) {
	fake, c := fakeClient(t)
	for _, q := range []string{
		"SELECT name FROM github.repos.repos WHERE org = 'acme' AND private = 'true'",
		"SELECT name FROM github.repos.repos r WHERE org = 'acme' AND r.private IN ('false')",
		"SELECT name FROM github.repos.repos WHERE org = 'acme' AND archived = 'yes'",
	} {
		fake.ResetRequests()
		r := c.QueryBounded(t, q)
		if !r.IsError || r.Error.Kind != "plan" || !strings.Contains(r.Error.Message, "is a BOOLEAN column") || !strings.Contains(r.Error.Message, "write ") {
			t.Errorf("%s: want a plan error naming the form to write, got %s", q, r.Text)
			continue
		}
		if n := apiRequests(fake); n != 0 {
			t.Errorf("%s: %d requests before the refusal", q, n)
		}
	}
	r := c.QueryBounded(t, "SELECT name FROM github.repos.repos WHERE org = 'acme' AND private = 'true'")
	if !r.IsError || !strings.Contains(r.Error.Message, "private = TRUE") {
		t.Fatalf("message does not give private = TRUE: %s", r.Text)
	}
	yes := c.QueryBounded(t, "SELECT name, private FROM github.repos.repos WHERE org = 'acme' AND private = TRUE")
	bare := c.QueryBounded(t, "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'acme' AND private")
	if yes.IsError || yes.RowCount == 0 || bare.IsError || int(bare.Rows[0][0].(float64)) != yes.RowCount {
		t.Fatalf("private = TRUE: %d rows, WHERE private: %v", yes.RowCount, bare.Rows)
	}
	if _, lines, _ := mcptest.TSVLines(yes.Text); !strings.HasSuffix(lines[0], "\ttrue") {
		t.Fatalf("a boolean in TSV: %q", lines[0])
	}
	d := toolText(t, c.S, "describe_resource", map[string]any{"resource": "github.repos.repos"})
	if strings.Contains(d, "BOOLEAN is 0/1") || !strings.Contains(d, "BOOLEAN shows as true/false and is 1/0 in SQL") {
		t.Fatalf("describe's rule for booleans:\n%s", d[strings.LastIndex(d, "\n# "):])
	}
}

// TestNoticesNameTheirCause: a SELECT * cut by the byte cap says so and
// suggests fewer columns; LIMIT/OFFSET without ORDER BY says the order is
// not guaranteed (with ORDER BY it does not).
func TestNoticesNameTheirCause(t *testing.T) {
	_, c := fakeClient(t)
	r := c.QueryBounded(t, "SELECT * FROM github.repos.repos WHERE org = 'acme' ORDER BY name")
	if r.IsError || !r.Truncated || r.ReturnedRows >= 100 {
		t.Fatalf("SELECT *: %d of %d rows, truncated %t", r.ReturnedRows, r.RowCount, r.Truncated)
	}
	if !strings.Contains(r.Notice, "byte cap (mcp_max_bytes, ") || !strings.Contains(r.Notice, "instead of SELECT *") {
		t.Errorf("byte-capped SELECT * notice: %q", r.Notice)
	}
	rows := c.QueryBounded(t, "SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name")
	if strings.Contains(rows.Notice, "byte cap") {
		t.Errorf("a result cut by the row cap blames the byte cap: %q", rows.Notice)
	}
	for q, want := range map[string]bool{
		"SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 5":                        true,
		"SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 5 OFFSET 10":              true,
		"SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name LIMIT 5 OFFSET 5": false,
	} {
		r := c.QueryBounded(t, q)
		_, _, summary := mcptest.TSVLines(r.Text)
		got := strings.Contains(r.Notice, "not guaranteed") && strings.Contains(summary, "not guaranteed")
		if r.IsError || got != want {
			t.Errorf("%s: notice %q (want the order notice: %t)", q, r.Notice, want)
		}
	}
}

// TestPageLimitZeroAndServiceLists: fetch_result_page says what limit 0
// means and does it; list_resources of one service always has the
// tables' summaries, however many.
func TestPageLimitZeroAndServiceLists(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil, "--max-rows", "20")
	lt := c.ListTools(t)
	for _, tool := range lt.Tools {
		if tool.Name == "fetch_result_page" && !strings.Contains(tool.Description, "limit 0 or absent: the server's row cap") {
			t.Errorf("fetch_result_page description does not say what limit 0 means: %q", tool.Description)
		}
	}
	r := c.QueryBounded(t, "SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name")
	p := c.Call(t, mcptest.Context(t), "fetch_result_page", map[string]any{"result_id": r.ResultID, "offset": 20, "limit": 0})
	if p.IsError || p.ReturnedRows != 20 || p.Limit != 20 {
		t.Errorf("limit 0: %d rows, limit %d", p.ReturnedRows, p.Limit)
	}

	actions := toolText(t, c.S, "list_resources", map[string]any{"service": "actions"})
	n := strings.Count(actions, "\ngithub.actions.")
	if !strings.HasPrefix(actions, "table\tmethods\tsummary\n") || n <= 40 || strings.Contains(actions, "pass service=") {
		t.Fatalf("list_resources(service=actions), %d tables:\n%.400s", n, actions)
	}
	t.Logf("list_resources(service=actions): %d tables, %d o200k tokens", n, o200kTokens(t, actions))
}

// TestColumnStatistics: each kept result carries per-column statistics
// over all its rows (not only those shown), which match what SQL
// computes, and a truncated result's text block has them in one line.
func TestColumnStatistics(t *testing.T) {
	_, c := fakeClient(t)
	r := c.QueryBounded(t, "SELECT name, stargazers_count, created_at, license, private, description FROM github.repos.repos WHERE org = 'acme'")
	if r.IsError || r.RowCount != fakegithub.AcmeRepos || !r.Truncated {
		t.Fatalf("rows %d truncated %t: %s", r.RowCount, r.Truncated, r.Text)
	}
	list, _ := r.Raw["column_stats"].([]any)
	if len(list) != len(r.Columns) {
		t.Fatalf("column_stats: %v", r.Raw["column_stats"])
	}
	stats := map[string]map[string]any{}
	for _, x := range list {
		m := x.(map[string]any)
		stats[m["name"].(string)] = m
	}
	agg := c.QueryBounded(t, `SELECT count(DISTINCT name), min(stargazers_count), max(stargazers_count), count(DISTINCT stargazers_count),
		min(created_at), max(created_at), sum(license IS NULL), count(DISTINCT license), sum(description IS NULL), count(DISTINCT private)
		FROM github.repos.repos WHERE org = 'acme'`)
	if agg.IsError {
		t.Fatal(agg.Text)
	}
	a := agg.Rows[0]
	num := func(v any) string { return strconv.FormatFloat(v.(float64), 'f', -1, 64) }
	check := func(col, field string, want any) {
		t.Helper()
		got, ok := stats[col][field]
		if !ok || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("column_stats %s.%s = %v, want %v", col, field, got, want)
		}
	}
	check("name", "distinct", num(a[0]))
	check("name", "null_count", "0")
	check("stargazers_count", "min", num(a[1]))
	check("stargazers_count", "max", num(a[2]))
	check("stargazers_count", "distinct", num(a[3]))
	check("created_at", "min", a[4])
	check("created_at", "max", a[5])
	check("license", "null_count", num(a[6]))
	check("license", "distinct", num(a[7]))
	check("description", "null_count", num(a[8]))
	check("private", "distinct", num(a[9]))
	if _, has := stats["name"]["min"]; has {
		t.Errorf("min of a text column that is not a date: %v", stats["name"])
	}
	line := mcptest.StatsLine(r.Text)
	if !strings.HasPrefix(line, "# column stats over all 250 rows: name 250 distinct; stargazers_count ") ||
		!regexp.MustCompile(`created_at \d+ distinct, 20\d\d-[^;]*\.\.20\d\d-`).MatchString(line) {
		t.Errorf("stats line: %q", line)
	}
	if r.Text[len(r.Text)-len(strings.Split(r.Text, "\n")[len(strings.Split(r.Text, "\n"))-1]):] == line {
		t.Errorf("the stats line is last; the summary must be")
	}
	small := c.QueryBounded(t, "SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name LIMIT 3")
	if mcptest.StatsLine(small.Text) != "" || small.Raw["column_stats"] == nil {
		t.Errorf("untruncated result: stats line %q, column_stats %v", mcptest.StatsLine(small.Text), small.Raw["column_stats"])
	}
}

// hostTokens is what one tool result costs a host: the o200k tokens of
// the JSON-RPC result as sent (text block and structuredContent), and of
// its text block alone.
func hostTokens(t *testing.T, c *mcptest.Client, tool string, args map[string]any) (whole, text, bytes int, res *mcp.CallToolResult) {
	t.Helper()
	res, err := c.S.CallTool(mcptest.Context(t), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s %v: %v %+v", tool, args, err, res)
	}
	b, _ := json.Marshal(res)
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			text += o200kTokens(t, tc.Text)
		}
	}
	return o200kTokens(t, string(b)), text, len(b), res
}

// hostLimit is the smallest limit on one tool result among common hosts
// (Claude Code truncates MCP output past 25,000 tokens); a capped result
// must stay well inside it.
const hostLimit = 25000

// TestResultTokenFigures measures, in o200k tokens, what discovery, a
// 100-row result and a capped SELECT * cost a host (docs/mcp.md, "What a
// result costs"; run with -v for the figures), checks that the default
// caps keep one result well inside hostLimit, and that the log line
// counts o200k tokens.
func TestResultTokenFigures(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, stderr := stdioClient(t, fake, nil)
	lt := c.ListTools(t)
	tl, _ := json.Marshal(lt)
	ins := c.S.InitializeResult().Instructions
	t.Logf("discovery: instructions %d bytes, %d tokens; tools/list %d bytes, %d tokens", len(ins), o200kTokens(t, ins), len(tl), o200kTokens(t, string(tl)))
	// The rows of docs/mcp.md's table ("What a result costs") these
	// figures are, in order; each must be there once, with figures within
	// 5% of the measured ones (the rows shown exactly).
	doc := docRows(t, "../../docs/mcp.md", "| what | bytes | o200k tokens |")
	inDoc := func(prefix string, bytes, tokens, text, rows int) {
		t.Helper()
		var found []string
		for _, r := range doc {
			if strings.HasPrefix(r, prefix) {
				found = append(found, r)
			}
		}
		if len(found) != 1 {
			t.Errorf("docs/mcp.md has %d rows %q in its cost table, want 1: %q", len(found), prefix, found)
			return
		}
		nums := regexp.MustCompile(`\d[\d,]*`).FindAllString(strings.TrimPrefix(found[0], prefix), -1)
		near := func(s string, want int) bool {
			n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
			return n*100 >= want*95 && n*100 <= want*105
		}
		cells := strings.Split(found[0], "|")
		ok := len(cells) >= 4 && len(nums) >= 2
		if ok {
			b := regexp.MustCompile(`\d[\d,]*`).FindAllString(cells[len(cells)-3], -1)
			k := regexp.MustCompile(`\d[\d,]*`).FindAllString(cells[len(cells)-2], -1)
			ok = len(b) == 1 && near(b[0], bytes) && len(k) >= 1 && near(k[0], tokens) && (text == 0 || len(k) == 2 && near(k[1], text))
		}
		if ok && rows > 0 {
			ok = strings.Contains(found[0], fmt.Sprintf(": %d rows,", rows))
		}
		if !ok {
			t.Errorf("docs/mcp.md: %q; measured %d bytes, %d tokens (text block %d, %d rows shown)", found[0], bytes, tokens, text, rows)
		}
	}
	inDoc("| `tools/list`", len(tl), o200kTokens(t, string(tl)), 0, 0)
	docPrefixes := []string{"| `list_resources` (", "| `list_resources(service=\"repos\")`", "| `describe_resource github.repos.repos`"}
	for i, d := range mcptest.DiscoveryCalls {
		whole, text, bytes, _ := hostTokens(t, c, d.Tool, d.Args)
		t.Logf("discovery: %s %v: %d bytes, %d tokens as a tool result (text %d)", d.Tool, d.Args, bytes, whole, text)
		inDoc(docPrefixes[i], bytes, whole, 0, 0)
	}
	for _, q := range []struct {
		name, sql string
	}{
		{"100 rows x 5 columns", "SELECT name, private, language, stargazers_count, updated_at FROM github.repos.repos WHERE org = 'acme' ORDER BY name LIMIT 100"},
		{"capped SELECT * (91 columns)", "SELECT * FROM github.repos.repos WHERE org = 'acme' ORDER BY name"},
	} {
		before := len(stderr.String())
		whole, text, bytes, res := hostTokens(t, c, "run_select_query", map[string]any{"sql": q.sql})
		var sc struct {
			ReturnedRows int `json:"returned_rows"`
		}
		raw, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(raw, &sc) //nolint:errcheck
		t.Logf("%s: %d rows shown, %d bytes, %d tokens as a tool result (text block %d, %.2f bytes/token)",
			q.name, sc.ReturnedRows, bytes, whole, text, float64(bytes)/float64(whole))
		if strings.HasPrefix(q.name, "capped") {
			inDoc("| capped `SELECT *`", bytes, whole, text, sc.ReturnedRows)
		} else {
			inDoc("| 100 rows x 5 columns", bytes, whole, text, 0)
		}
		if whole > hostLimit*3/4 {
			t.Errorf("%s is %d tokens as a tool result; the default caps must keep it well inside %d", q.name, whole, hostLimit)
		}
		logRE := regexp.MustCompile(`tool=run_select_query status=ok bytes=(\d+) tokens=(\d+)`)
		var m []string
		for deadline := time.Now().Add(10 * time.Second); m == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			m = logRE.FindStringSubmatch(stderr.String()[before:]) // stderr is a pipe: the line may lag the reply
		}
		if m == nil {
			t.Errorf("no log line with o200k tokens: %s", stderr.String()[before:])
			continue
		}
		logged, _ := strconv.Atoi(m[2])
		var tb strings.Builder
		for _, ct := range res.Content {
			tb.WriteString(ct.(*mcp.TextContent).Text)
		}
		tb.Write(raw)
		if want := o200kTokens(t, tb.String()); logged < want*9/10 || logged > want*11/10 {
			t.Errorf("log says tokens=%d; o200k of text plus structuredContent is %d", logged, want)
		}
	}
}

// An agent's statement whose answer is known to be empty sends nothing:
// LIMIT 0 gives the columns and no row; WHERE predicates on one key that
// admit no value give no row and say why in notice and in the text's
// summary line (README, "Answers known to be empty").
func TestKnownEmptyOverMCP(t *testing.T) {
	fake, c := fakeClient(t)
	fake.ResetRequests()
	r := c.Query(t, "SELECT name, id FROM github.repos.repos WHERE org = 'acme' LIMIT 0")
	if r.IsError || r.RowCount != 0 || len(r.Columns) != 2 || r.Stats.HTTPRequests != 0 {
		t.Fatalf("LIMIT 0: %+v", r)
	}
	r = c.Query(t, "SELECT name FROM github.repos.repos WHERE org = 'acme' AND org = 'tiny'")
	const why = "no request for github.repos.repos: its WHERE predicates on org (org = 'acme' AND org = 'tiny') admit no value, so it has no rows"
	if r.IsError || r.RowCount != 0 || !strings.Contains(r.Notice, why) || !strings.Contains(r.Text, why) {
		t.Fatalf("contradiction: notice %q, text %q, %+v", r.Notice, r.Text, r.Error)
	}
	if n := apiRequests(fake); n != 0 {
		t.Fatalf("%d API requests", n)
	}
}

// A wide truncated result (SELECT * of github.repos.repos: 91 columns,
// most of them URLs distinct in every row) has a statistics line of a
// dozen columns that say something, and counts the rest, which
// column_stats keeps whole (docs/mcp.md, "Results"; run with -v for the
// figures: the line, the text block and the whole result in o200k
// tokens).
func TestWideResultStatsLineIsCapped(t *testing.T) {
	_, c := fakeClient(t)
	whole, text, bytes, res := hostTokens(t, c, "run_select_query", map[string]any{"sql": "SELECT * FROM github.repos.repos WHERE org = 'acme'"})
	r := c.Check(t, "run_select_query", res)
	line := mcptest.StatsLine(r.Text)
	t.Logf("SELECT * (%d columns, %d of %d rows shown): stats line %d bytes, %d tokens; text block %d tokens; tool result %d bytes, %d tokens",
		len(r.Columns), r.ReturnedRows, r.RowCount, len(line), o200kTokens(t, line), text, bytes, whole)
	if len(r.Columns) < 80 || !r.Truncated || line == "" {
		t.Fatalf("want a wide truncated result with a stats line: %d columns, truncated %t, line %q", len(r.Columns), r.Truncated, line)
	}
	if n := o200kTokens(t, line); n > 250 || !strings.HasSuffix(line, "(column_stats has every column)") ||
		!regexp.MustCompile(`; \d+ more columns with a distinct value in every row`).MatchString(line) {
		t.Errorf("stats line of %d tokens: %q", n, line)
	}
	if strings.Contains(line, "html_url") {
		t.Errorf("the line names a URL column distinct in every row: %q", line)
	}
	if st, _ := r.Raw["column_stats"].([]any); len(st) != len(r.Columns) {
		t.Errorf("column_stats has %d columns, want all %d", len(st), len(r.Columns))
	}
}

// docRows returns the rows of the markdown table of file whose header
// line is header.
func docRows(t *testing.T, file, header string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), header+"\n")
	if !ok {
		t.Fatalf("%s has no table %q", file, header)
	}
	var rows []string
	for _, l := range strings.Split(rest, "\n")[1:] { // past the |---| line
		if !strings.HasPrefix(l, "|") {
			break
		}
		rows = append(rows, l)
	}
	return rows
}

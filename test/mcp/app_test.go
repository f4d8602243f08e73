package mcp_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// appURI is the MCP Apps view (docs/mcp.md, "Interactive view"), of type
// mcptest.AppMIME.
const appURI = "ui://engine/result-grid"

// appSession connects a real SDK client over stdio that declares the MCP
// Apps extension (as a host that renders views does) or not.
func appSession(t *testing.T, fake *fakegithub.Server, declare bool) *mcp.ClientSession {
	t.Helper()
	return stdioClientWith(t, fake, mcptest.AppsHost(declare), "").S
}

func toolMetaUI(t *testing.T, cs *mcp.ClientSession) map[string]any {
	t.Helper()
	lt, err := cs.ListTools(mcptest.Context(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]any{}
	for _, tool := range lt.Tools {
		if ui, ok := tool.Meta["ui"]; ok {
			links[tool.Name] = ui
		}
	}
	return links
}

func listedUI(t *testing.T, cs *mcp.ClientSession) []*mcp.Resource {
	t.Helper()
	lr, err := cs.ListResources(mcptest.Context(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var ui []*mcp.Resource
	for _, r := range lr.Resources {
		if strings.HasPrefix(r.URI, "ui://") {
			ui = append(ui, r)
		}
	}
	return ui
}

// TestAppViewLinkedForAppsHosts: a host that declares the extension sees
// run_select_query linked to a listed, readable, self-contained ui://
// view, and the view's own bridge call (fetch_result_page on the kept
// result) answers the rows after the first page.
func TestAppViewLinkedForAppsHosts(t *testing.T) {
	fake := fakegithub.ForTest(t)
	cs := appSession(t, fake, true)

	links := toolMetaUI(t, cs)
	ui, _ := links["run_select_query"].(map[string]any)
	if ui["resourceUri"] != appURI {
		t.Fatalf("run_select_query _meta.ui = %v, want resourceUri %s", links["run_select_query"], appURI)
	}
	if len(links) != 1 {
		t.Errorf("tools linked to a view: %v, want only run_select_query", links)
	}
	listed := listedUI(t, cs)
	if len(listed) != 1 || listed[0].URI != appURI || listed[0].MIMEType != mcptest.AppMIME {
		t.Fatalf("ui:// resources listed: %+v", listed)
	}

	rr, err := cs.ReadResource(mcptest.Context(t), &mcp.ReadResourceParams{URI: appURI})
	if err != nil {
		t.Fatalf("resources/read %s: %v", appURI, err)
	}
	if len(rr.Contents) != 1 || rr.Contents[0].MIMEType != mcptest.AppMIME || rr.Contents[0].URI != appURI {
		t.Fatalf("contents: %+v", rr.Contents)
	}
	html := rr.Contents[0].Text
	for _, want := range []string{"<!DOCTYPE html>", `"ui/initialize"`, `"ui/notifications/initialized"`, `"ui/notifications/tool-result"`, `"tools/call"`, `"fetch_result_page"`} {
		if !strings.Contains(html, want) {
			t.Errorf("view lacks %s", want)
		}
	}
	// Self-contained: no external script, style, image or connection.
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//|@import|url\(\s*["']?https?:`).FindString(html); m != "" {
		t.Errorf("view loads something from outside: %q", m)
	}
	// The pager stays hidden on errors, empty and one-page results: a
	// display rule (nav's flex) overrode the hidden attribute, and Next
	// on an error result called fetch_result_page with an empty id
	// (test/mcpapp TestAppShowsErrorsAndText checks both in Chromium).
	if !regexp.MustCompile(`\[hidden\]\s*\{\s*display:\s*none\s*!important`).MatchString(html) {
		t.Errorf("the view's style lets display rules show hidden elements (no [hidden] { display: none !important })")
	}
	if !strings.Contains(html, "if (!state.resultId && !state.all) return;") {
		t.Errorf("the view's pager pages without a kept result")
	}
	if ui, _ := rr.Contents[0].Meta["ui"].(map[string]any); ui == nil || ui["csp"] != nil {
		t.Errorf("view _meta: %v (want ui metadata without csp: it needs no origin)", rr.Contents[0].Meta)
	}

	// What the view does through the host: the tool result first, then
	// the next page of the kept result.
	c := mcptest.NewClient(t, cs)
	r := c.Query(t, acme+" ORDER BY name")
	if r.IsError || r.RowCount != 250 || len(r.Rows) != 100 || r.ResultID == "" {
		t.Fatalf("first page: %+v", r)
	}
	p := c.Call(t, mcptest.Context(t), "fetch_result_page", map[string]any{"result_id": r.ResultID, "offset": 100, "limit": 100})
	if p.IsError || len(p.Rows) != 100 || p.Rows[0][0] != "repo-100" || !p.HasMore {
		t.Fatalf("second page: %+v", p)
	}
}

// TestAppViewHiddenFromOtherHosts: a client that does not declare the
// extension sees no link and no ui:// resource (nothing new).
func TestAppViewHiddenFromOtherHosts(t *testing.T) {
	fake := fakegithub.ForTest(t)
	cs := appSession(t, fake, false)
	if links := toolMetaUI(t, cs); len(links) != 0 {
		t.Errorf("tools linked to a view for a host without the extension: %v", links)
	}
	if listed := listedUI(t, cs); len(listed) != 0 {
		t.Errorf("ui:// resources listed for a host without the extension: %+v", listed)
	}
	// The tasks extension is declared to every client; the view's is not.
	if ext := cs.InitializeResult().Capabilities.Extensions; ext[mcptest.AppExtension] != nil || len(ext) != 1 {
		t.Errorf("server capabilities declare extensions: %v", ext)
	}
}

// TestAppViewStateless: under protocol 2026-07-28 (HTTP, no session) the
// client's capabilities come with each request, and so does the view.
func TestAppViewStateless(t *testing.T) {
	fake := fakegithub.ForTest(t)
	endpoint := httpServer(t, fake)
	for _, declare := range []bool{true, false} {
		cs := mcptest.Connect(t, mcptest.HTTP(endpoint), mcptest.AppsHost(declare), "2026-07-28")
		if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" || cs.ID() != "" {
			t.Fatalf("negotiated %q, session %q", v, cs.ID())
		}
		links, listed := toolMetaUI(t, cs), listedUI(t, cs)
		cs.Close()
		if declare && (len(links) != 1 || len(listed) != 1) {
			t.Errorf("declaring the extension: links %v, ui:// resources %+v", links, listed)
		}
		if !declare && (len(links) != 0 || len(listed) != 0) {
			t.Errorf("not declaring it: links %v, ui:// resources %+v", links, listed)
		}
	}
}

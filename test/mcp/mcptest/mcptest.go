// Package mcptest is the shared client side of the MCP tests: it calls
// tools through a real go-sdk client session, validates every
// structuredContent against the output schema the server declared (the Go
// client does not), checks the success/error invariants of docs/architecture.md's MCP
// contract, and decodes results. It must not import mcpsurface or cmd, so
// that it tests the surface only as a client sees it (the error object is
// engine.ErrorBody, the wire shape's one declaration).
package mcptest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine"
)

// ErrorBody is the error object of an error result: the engine's one
// declaration of the wire shape.
type ErrorBody = engine.ErrorBody

// Column is a result column.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Result is the structuredContent of run_select_query and
// fetch_result_page (fields of both).
type Result struct {
	Columns      []Column `json:"columns"`
	Rows         [][]any  `json:"rows"`
	RowCount     int      `json:"row_count"`
	ReturnedRows int      `json:"returned_rows"`
	Truncated    bool     `json:"truncated"`
	Notice       string   `json:"notice"`
	ResultID     string   `json:"result_id"`
	ResultURI    string   `json:"result_uri"`
	Stats        struct {
		HTTPRequests int   `json:"http_requests"`
		Pages        int   `json:"pages"`
		ElapsedMS    int64 `json:"elapsed_ms"`
	} `json:"stats"`
	Offset     int        `json:"offset"`
	Limit      int        `json:"limit"`
	HasMore    bool       `json:"has_more"`
	NextOffset int        `json:"next_offset"`
	Error      *ErrorBody `json:"error"`

	// Raw is the structuredContent as JSON; Text the first text block.
	Raw     map[string]any `json:"-"`
	Text    string         `json:"-"`
	IsError bool           `json:"-"`
}

// Client wraps a session with the tools' resolved output schemas.
type Client struct {
	S       *mcp.ClientSession
	schemas map[string]*jsonschema.Resolved
}

// NewClient lists the tools and resolves their output schemas.
func NewClient(t testing.TB, cs *mcp.ClientSession) *Client {
	t.Helper()
	c := &Client{S: cs, schemas: map[string]*jsonschema.Resolved{}}
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	for _, tool := range lt.Tools {
		if tool.OutputSchema == nil {
			continue
		}
		b, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("tool %s: output schema: %v", tool.Name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("tool %s: resolving output schema: %v", tool.Name, err)
		}
		c.schemas[tool.Name] = r
	}
	return c
}

// Call calls a tool and checks the contract: a protocol error fails the
// test; structuredContent validates against the declared schema; isError
// results carry {"error": {...}} and the same JSON as text; successes
// carry no error.
func (c *Client) Call(t testing.TB, ctx context.Context, tool string, args map[string]any, progressToken ...any) Result {
	t.Helper()
	p := &mcp.CallToolParams{Name: tool, Arguments: args}
	if len(progressToken) > 0 {
		p.SetProgressToken(progressToken[0])
	}
	res, err := c.S.CallTool(ctx, p)
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return c.Check(t, tool, res)
}

// Query calls run_select_query with sql (no deadline of its own: the
// server's timeouts bound it).
func (c *Client) Query(t testing.TB, sql string) Result {
	t.Helper()
	return c.Call(t, context.Background(), "run_select_query", map[string]any{"sql": sql})
}

// CallTimeout is the deadline Context gives one call.
const CallTimeout = 30 * time.Second

// Context is the context for one call or ping: it ends after CallTimeout
// or when the test ends, so a server that does not answer fails the test
// instead of hanging it.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	t.Cleanup(cancel)
	return ctx
}

// QueryBounded is Query under a deadline of CallTimeout.
func (c *Client) QueryBounded(t testing.TB, sql string) Result {
	t.Helper()
	return c.Call(t, Context(t), "run_select_query", map[string]any{"sql": sql})
}

// ListTools lists the server's tools under a deadline of CallTimeout;
// an error fails the test.
func (c *Client) ListTools(t testing.TB) *mcp.ListToolsResult {
	t.Helper()
	lt, err := c.S.ListTools(Context(t), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	return lt
}

// Read reads the resource uri under a deadline of CallTimeout.
func (c *Client) Read(t testing.TB, uri string) (*mcp.ReadResourceResult, error) {
	return c.S.ReadResource(Context(t), &mcp.ReadResourceParams{URI: uri})
}

// CallRaw calls a tool without a deadline of its own and returns the
// result as it came (Check validates and decodes it).
func (c *Client) CallRaw(t testing.TB, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := c.S.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

// Check validates and decodes a tool result.
func (c *Client) Check(t testing.TB, tool string, res *mcp.CallToolResult) Result {
	t.Helper()
	var out Result
	out.IsError = res.IsError
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			out.Text = tc.Text
			break
		}
	}
	if out.Text == "" {
		t.Fatalf("%s: no text block", tool)
	}
	if res.StructuredContent == nil {
		if _, has := c.schemas[tool]; has {
			t.Fatalf("%s: no structuredContent", tool)
		}
		return out
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var inst any
	json.Unmarshal(raw, &inst) //nolint:errcheck
	if s := c.schemas[tool]; s != nil {
		if err := s.Validate(inst); err != nil {
			t.Fatalf("%s: structuredContent does not validate against the output schema: %v\n%s", tool, err, raw)
		}
	}
	out.Raw, _ = inst.(map[string]any)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: decoding structuredContent: %v", tool, err)
	}
	switch {
	case res.IsError && out.Error == nil:
		t.Fatalf("%s: isError without an error object: %s", tool, raw)
	case !res.IsError && out.Error != nil:
		t.Fatalf("%s: error object without isError: %s", tool, raw)
	case res.IsError:
		var fromText Result
		if err := json.Unmarshal([]byte(out.Text), &fromText); err != nil || fromText.Error == nil || *fromText.Error != *out.Error {
			t.Fatalf("%s: error text block is not the structured error: %q", tool, out.Text)
		}
		if _, has := out.Raw["rows"]; has {
			t.Fatalf("%s: error result carries rows: %s", tool, raw)
		}
	}
	return out
}

// TSVLines splits a result's text block into its header, rows and
// summary line (the column statistics line of a truncated result, just
// before the summary, is left out: StatsLine).
func TSVLines(text string) (header string, rows []string, summary string) {
	lines := strings.Split(text, "\n")
	header, summary = lines[0], lines[len(lines)-1]
	rows = lines[1 : len(lines)-1]
	if n := len(rows); n > 0 && strings.HasPrefix(rows[n-1], StatsPrefix) {
		rows = rows[:n-1]
	}
	return header, rows, summary
}

// StatsPrefix starts the column statistics line of a truncated result.
const StatsPrefix = "# column stats over all "

// StatsLine returns the column statistics line of a result's text block,
// or "".
func StatsLine(text string) string {
	lines := strings.Split(text, "\n")
	if n := len(lines); n > 2 && strings.HasPrefix(lines[n-2], StatsPrefix) {
		return lines[n-2]
	}
	return ""
}

// ToolCall is one call of a tool, Label saying what it asks for.
type ToolCall struct {
	Tool, Label string
	Args        map[string]any
}

// DiscoveryCalls are the calls an agent makes to find its table, whose
// cost docs/mcp.md ("What a result costs") and test/bench measure: every
// table, one service's tables, one table's description.
var DiscoveryCalls = []ToolCall{
	{"list_resources", "(every table)", nil},
	{"list_resources", "service=repos", map[string]any{"service": "repos"}},
	{"describe_resource", "github.repos.repos", map[string]any{"resource": "github.repos.repos"}},
}

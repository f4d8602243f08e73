package mcpsurface

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine/result"
)

// DefaultMaxResourceBytes bounds the rendering of one result resource
// (8 MiB, about two million tokens: more than any model's context).
const DefaultMaxResourceBytes = 8 << 20

var errResourceTooLarge = errors.New("result resource too large")

// cappedBuffer is a buffer that refuses to grow past max bytes.
type cappedBuffer struct {
	bytes.Buffer
	max int
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.Len()+len(p) > c.max {
		return 0, errResourceTooLarge
	}
	return c.Buffer.Write(p)
}

// Results are served in result's machine formats (Format.Exact), TSV by
// default; otherFormats lists the rest by name ("csv|json", "csv or json").
const defaultFormat = "tsv"

func otherFormats(sep, last string) string {
	var names []string
	for _, f := range result.ExactFormats() {
		if f.Name != defaultFormat {
			names = append(names, f.Name)
		}
	}
	slices.Sort(names)
	if n := len(names); n > 1 {
		return strings.Join(names[:n-1], sep) + last + names[n-1]
	}
	return strings.Join(names, sep)
}

func (s *Server) addResources() {
	def, _ := result.LookupFormat(defaultFormat)
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "result",
		URITemplate: "engine://results/{id}{?format}",
		Description: "A whole result kept by run_select_query: TSV, or ?format=" + otherFormats("|", "|") + ".",
		MIMEType:    def.MIMEType,
	}, s.readResult)
}

// resultNotFound answers resources/read of a result the server does not
// keep (unknown, evicted or expired): invalid params, -32602, the code the
// MCP specification gives "resource not found" (SEP-2164) and the go-sdk
// sends since 1.7.0 (it was -32002 before), with the URI as data, and a
// message that says what to do.
func resultNotFound(uri string) error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Data: data,
		Message: "resource not found: " + uri + " is no result this server keeps (unknown, evicted or expired); re-run the query with run_select_query for a new result_id"}
}

func (s *Server) readResult(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "engine" || u.Host != "results" {
		return nil, resultNotFound(uri)
	}
	format := u.Query().Get("format")
	if format == "" {
		format = defaultFormat
	}
	f, err := result.LookupFormat(format)
	if err != nil || !f.Exact {
		// Invalid params (-32602), not a failure of the server.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "format " + strconv.Quote(format) + " is not served: use ?format=tsv (the default), " + otherFormats(", ", " or ")}
	}
	mime := f.MIMEType
	k, err := s.store.Info(ctx, resultID(u.Path[1:]), principal(req))
	if err != nil {
		return nil, resultNotFound(uri)
	}
	// The rendering streams from the kept rows into a buffer bounded by
	// MaxResourceBytes: a result that renders longer is refused (the SDK
	// sends a resource as one string, so it cannot be streamed to the
	// client), pointing to fetch_result_page; memory is the bound plus one
	// row, whatever the size of the result.
	b := &cappedBuffer{max: s.cfg.MaxResourceBytes}
	st, err := result.NewStream(b, format, 0)
	if err != nil {
		return nil, err
	}
	err = st.Begin(k.Columns)
	if err == nil {
		err = s.store.Each(ctx, k, 0, -1, func(row []any) (bool, error) {
			return true, st.Row(row)
		})
	}
	if err == nil {
		err = st.End()
	}
	if errors.Is(err, errResourceTooLarge) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(
			"result %s (%d rows) renders longer than %d bytes, the resource bound (mcp_max_resource_bytes); read it in pages with fetch_result_page(result_id=%q, offset=0), or narrow the query (fewer columns, WHERE, aggregate in SQL)",
			k.ID, k.RowCount, b.max, k.ID)}
	}
	if err != nil {
		return nil, err
	}
	text := b.String()
	tokens := tokenField(text)
	s.logMu.Lock()
	defer s.logMu.Unlock()
	_, _ = s.cfg.Log.Write([]byte("engine mcp: resource=" + uri + " bytes=" + itoa(len(text)) + " " + tokens + "\n"))
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: text}}}, nil
}

package mcpsurface

import (
	"bytes"
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine/result"
)

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

func (s *Server) readResult(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "engine" || u.Host != "results" {
		return nil, mcp.ResourceNotFoundError(uri)
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
	k, err := s.store.Info(ctx, resultID(u.Path[1:]))
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	rows, err := s.store.Rows(ctx, k, 0, -1)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := result.Write(&b, &result.Result{Columns: k.Columns, Rows: rows}, format, 0); err != nil {
		return nil, err
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	n := b.Len()
	_, _ = s.cfg.Log.Write([]byte("engine mcp: resource=" + uri + " bytes=" + itoa(n) + " approx_tokens=" + itoa((n+3)/4) + "\n"))
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: b.String()}}}, nil
}

package mcpsurface

import (
	"bytes"
	"context"
	"net/url"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine/result"
)

// Resource MIME types by ?format=.
var resultFormats = map[string]string{
	"tsv":  "text/tab-separated-values",
	"csv":  "text/csv",
	"json": "application/json",
}

func (s *Server) addResources() {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "result",
		URITemplate: "engine://results/{id}{?format}",
		Description: "A whole result kept by run_select_query: TSV, or ?format=csv|json.",
		MIMEType:    resultFormats["tsv"],
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
		format = "tsv"
	}
	mime, ok := resultFormats[format]
	if !ok {
		// Invalid params (-32602), not a failure of the server.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "format " + strconv.Quote(format) + " is not served: use ?format=tsv (the default), csv or json"}
	}
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

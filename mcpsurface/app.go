package mcpsurface

import (
	"context"
	_ "embed"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The interactive view of results for hosts that render MCP Apps (the
// extension io.modelcontextprotocol/ui; docs/mcp.md, "Interactive view"):
// one ui:// resource, a self-contained HTML page (no external scripts,
// styles or connections) that shows a result of run_select_query as a
// sortable, pageable grid and pages through fetch_result_page, called
// through the host. It is offered only to a client that declares the
// extension with the view's MIME type: for it, tools/list links
// run_select_query to the view (_meta.ui.resourceUri) and resources/list
// lists the view; every other client sees the server as before.

const (
	// AppExtension is the MCP Apps extension's identifier.
	AppExtension = "io.modelcontextprotocol/ui"
	// AppMIMEType is the MIME type of an MCP App's HTML.
	AppMIMEType = "text/html;profile=mcp-app"
	// AppURI is the resource of the result view.
	AppURI = "ui://engine/result-grid"
)

//go:embed app/grid.html
var appHTML string

// appTools are the tools whose results the view renders.
var appTools = []string{"run_select_query"}

func (s *Server) addApp() {
	s.mcp.AddResource(&mcp.Resource{
		URI:         AppURI,
		Name:        "result-grid",
		Title:       "Query result grid",
		Description: "Interactive view of a run_select_query result (MCP Apps): a sortable grid that pages with fetch_result_page.",
		MIMEType:    AppMIMEType,
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: AppURI, MIMEType: AppMIMEType, Text: appHTML,
			// No csp: the view needs no origin (the host's restrictive
			// default applies); a border suits a grid.
			Meta: mcp.Meta{"ui": map[string]any{"prefersBorder": true}},
		}}}, nil
	})
	s.mcp.AddReceivingMiddleware(appMiddleware)
}

// appMiddleware shows the view to clients that declare the extension and
// hides it from the others: tools/list gains the link, resources/list
// keeps or drops the ui:// resource.
func appMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.ListToolsResult:
			if !appClient(req) {
				return res, nil
			}
			out := *r
			out.Tools = make([]*mcp.Tool, len(r.Tools))
			for i, t := range r.Tools {
				out.Tools[i] = t
				if slices.Contains(appTools, t.Name) {
					c := *t
					c.Meta = mcp.Meta{}
					for k, v := range t.Meta {
						c.Meta[k] = v
					}
					c.Meta["ui"] = map[string]any{"resourceUri": AppURI}
					out.Tools[i] = &c
				}
			}
			return &out, nil
		case *mcp.ListResourcesResult:
			if appClient(req) {
				return res, nil
			}
			out := *r
			out.Resources = slices.DeleteFunc(slices.Clone(r.Resources), func(x *mcp.Resource) bool {
				return strings.HasPrefix(x.URI, "ui://")
			})
			return &out, nil
		}
		return res, nil
	}
}

// appClient reports whether the client of req declared the MCP Apps
// extension with the HTML MIME type (in initialize, or in a request's
// _meta under protocol 2026-07-28).
func appClient(req mcp.Request) bool {
	r, ok := req.(interface {
		ClientCapabilities() *mcp.ClientCapabilities
	})
	if !ok {
		return false
	}
	caps := r.ClientCapabilities()
	if caps == nil {
		return false
	}
	ext, ok := caps.Extensions[AppExtension].(map[string]any)
	if !ok {
		return false
	}
	types, _ := ext["mimeTypes"].([]any)
	for _, t := range types {
		if s, _ := t.(string); s == AppMIMEType {
			return true
		}
	}
	if ss, ok := ext["mimeTypes"].([]string); ok {
		return slices.Contains(ss, AppMIMEType)
	}
	return false
}

package mcpsurface_test

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/mcpsurface"
)

// TestAppOnlyForDeclaredMIMEType: the view is linked only when the
// client's extension settings name the view's MIME type (the extension's
// required mimeTypes); a declaration without it changes nothing.
func TestAppOnlyForDeclaredMIMEType(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings map[string]any // nil: the extension is not declared
		want     bool
	}{
		{"not declared", nil, false},
		{"no mimeTypes", map[string]any{}, false},
		{"other type", map[string]any{"mimeTypes": []string{"text/uri-list"}}, false},
		{"mimeTypes not a list", map[string]any{"mimeTypes": mcpsurface.AppMIMEType}, false},
		{"html app", map[string]any{"mimeTypes": []string{"text/uri-list", mcpsurface.AppMIMEType}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			caps := &mcp.ClientCapabilities{}
			if tc.settings != nil {
				caps.AddExtension(mcpsurface.AppExtension, tc.settings)
			}
			e := newEnv(t, envOpts{client: mcp.ClientOptions{Capabilities: caps}})
			lt, err := e.c.S.ListTools(e.ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			linked := false
			for _, tool := range lt.Tools {
				if ui, ok := tool.Meta["ui"].(map[string]any); ok {
					linked = tool.Name == "run_select_query" && ui["resourceUri"] == mcpsurface.AppURI
				}
			}
			lr, err := e.c.S.ListResources(e.ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			listed := false
			for _, r := range lr.Resources {
				listed = listed || r.URI == mcpsurface.AppURI
			}
			if linked != tc.want || listed != tc.want {
				t.Errorf("linked %v, listed %v; want %v", linked, listed, tc.want)
			}
		})
	}
}

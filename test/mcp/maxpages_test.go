package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
)

// TestMaxPagesIsAPlanError: over MCP a call past the page limit is the
// same error result as one past the request limit (docs/architecture.md,
// "Errors"): kind plan, not retryable, no provider or HTTP status, and a
// message that names the setting (max-pages) but no CLI flag.
func TestMaxPagesIsAPlanError(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil, "--max-pages", "2")
	r := c.Call(t, context.Background(), "run_select_query", map[string]any{
		"sql": "SELECT count(*) FROM github.repos.repos WHERE org = 'acme'"})
	e := r.Error
	if !r.IsError || e == nil || e.Kind != engine.KindPlan || e.Retryable || e.HTTPStatus != 0 || e.Provider != "" {
		t.Fatalf("want a plan error result, got %+v", e)
	}
	if !strings.Contains(e.Message, "max-pages") || !strings.Contains(e.Message, "3 pages, more than 2") || strings.Contains(e.Message, "--") {
		t.Fatalf("message: %s", e.Message)
	}
}

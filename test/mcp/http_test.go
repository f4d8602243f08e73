package mcp_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// TestHTTPConcurrentQueries: 16 concurrent run_select_query calls (4
// sessions x 4 calls) each get their own correct result.
func TestHTTPConcurrentQueries(t *testing.T) {
	endpoint := httpServer(t, fakegithub.ForTest(t))
	sessions := make([]*mcptest.Client, 4)
	for s := range sessions {
		sessions[s] = mcptest.ConnectHTTP(t, endpoint)
	}
	errs := atOnce(16, func(i int) string {
		sql := fmt.Sprintf("SELECT name, stargazers_count FROM github.repos.repos WHERE org = 'acme' ORDER BY name LIMIT %d OFFSET %d", i+1, i*7)
		r := sessions[i/4].Query(t, sql)
		want := fmt.Sprintf("repo-%03d", i*7)
		if r.IsError || r.RowCount != i+1 || len(r.Rows) != i+1 || r.Rows[0][0] != want || r.Rows[0][1] != float64((37*i*7)%500) {
			return fmt.Sprintf("query %d: %+v", i, r)
		}
		return ""
	})
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
}

func TestHTTPRefusesCrossOrigin(t *testing.T) {
	fake := fakegithub.ForTest(t)
	endpoint := httpServer(t, fake)
	req, _ := http.NewRequest("POST", endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Origin", "https://attacker.example")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin POST: %d", resp.StatusCode)
	}
	c := mcptest.ConnectHTTP(t, endpoint)
	if r := c.Query(t, acme+" LIMIT 2"); r.RowCount != 2 {
		t.Fatalf("%+v", r)
	}
}

func TestHTTPNonLoopbackListenRefused(t *testing.T) {
	r := testutil.Run(t, testutil.Env(t), "", "mcp", "--transport", "http", "--listen", "0.0.0.0:0")
	if r.Code != 1 || !strings.Contains(r.Stderr, "not a loopback address") {
		t.Fatalf("code %d stderr %q", r.Code, r.Stderr)
	}
}

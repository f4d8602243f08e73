package mcp_test

import (
	"fmt"
	"strings"
	"testing"
)

// Issue 34: the file functions in the MCP surface: a workflow read,
// decoded and parsed in one statement, and a bad pattern as an error
// result of kind sql that names it.
func TestFileFunctionsMCP(t *testing.T) {
	_, c := fakeClient(t)
	res := c.Query(t, `SELECT json_extract(yaml_to_json(base64_decode(content)), '$.on') AS triggers,
	  regexp_count(base64_decode(content), '@[0-9a-f]{40}') AS pinned
	  FROM github.repos.contents WHERE owner = 'tiny' AND repo = 'beta' AND path = '.github/workflows/pr.yml'`)
	if res.IsError || len(res.Rows) != 1 || fmt.Sprint(res.Rows[0]) != `[{"pull_request_target":{"types":["opened","synchronize"]}} 1]` {
		t.Fatalf("rows %v, error %+v\n%s", res.Rows, res.Error, res.Text)
	}
	res = c.Query(t, `SELECT regexp_like('a', '(')`)
	if !res.IsError || res.Error == nil || res.Error.Kind != "sql" || !strings.Contains(res.Error.Message, "invalid regular expression '('") {
		t.Fatalf("a bad pattern: %+v\n%s", res.Error, res.Text)
	}
}

package mcp_test

import (
	"strings"
	"testing"
)

// describe_resource of a --provider table shows the API's spelling of a
// column whose SQL name got a suffix (organizerKey_2 is organizerKey).
func TestDescribeShowsAPINames(t *testing.T) {
	doc := `{"openapi": "3.0.3", "info": {"title": "acme", "version": "1"}, "servers": [{"url": "http://127.0.0.1:1"}],
  "paths": {"/meetings": {"get": {"operationId": "listMeetings", "tags": ["meetings"],
    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items":
      {"type": "object", "properties": {"OrganizerKey": {"type": "string"}, "organizerKey": {"type": "string", "description": "The organizer."}}}}}}}}}}}}`
	d := toolText(t, providerClient(t, doc).S, "describe_resource", map[string]any{"resource": "acme.meetings.meetings"})
	for _, want := range []string{"OrganizerKey\tTEXT\t\n", "organizerKey_2\tTEXT\tAPI name: organizerKey. The organizer.\n"} {
		if !strings.Contains(d, want) {
			t.Fatalf("describe_resource does not say %q:\n%s", want, d)
		}
	}
}

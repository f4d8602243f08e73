package profiles_test

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// Issue 32: "more" signals inside envelopes, each a list of 5 items in
// pages of 2 (test/fakeapis/more.go). Before, each answered exit 0 with a
// partial or overlapping list.

// requestsTo returns the request URIs under prefix since the first n.
func requestsTo(prefix string, n int) []string {
	var out []string
	for _, q := range fake.Queries()[n:] {
		if strings.HasPrefix(q, prefix) {
			out = append(out, q)
		}
	}
	return out
}

// pagedRequests runs sql with the provider (--provider arg) and fails
// the test unless it exits 0 with the rows' column col equal to want, in
// order; it returns the URIs of the requests under prefix the run sent.
func pagedRequests(t *testing.T, arg, sql, prefix, col string, want ...string) []string {
	t.Helper()
	n := len(fake.Queries())
	wantColumn(t, "", run(t, env(t), "-o", "json", "--provider", arg, sql), col, want...)
	return requestsTo(prefix, n)
}

// Twilio v1 (every v1/v2 description): the next page's URL is
// meta.next_page_url, inferred from the 200's schema; the 5 services in 3
// requests, PageSize sent (before: the first 2 rows, exit 0).
func TestTwilioMetaNextPageURL(t *testing.T) {
	qs := pagedRequests(t, twilioArg, "SELECT sid, friendly_name FROM twilio.services.services", "/twilio/v1/Services", "sid", "IS001", "IS002", "IS003", "IS004", "IS005")
	if len(qs) != 3 || !strings.Contains(qs[0], "PageSize=100") || !strings.Contains(qs[2], "PageToken=PT4") {
		t.Fatalf("requests %v, want 3: PageSize=100 (the client's page size), then the URLs of meta.next_page_url", qs)
	}
}

// Box: offset paging over {entries, total_count, limit, offset, order}:
// the list is entries (order is an array of objects too, but it describes
// the answer), so the offset advances by the 2 entries of a page, never
// by 1 per envelope: the 5 items once each, in order (before: no column
// id, the envelope read as rows).
func TestBoxOffsetEnvelope(t *testing.T) {
	qs := pagedRequests(t, boxArg, "SELECT id, type, name FROM box.folders.items WHERE folder_id = '0'", "/box/2.0/folders/0/items", "id", "11", "12", "13", "14", "15")
	var offsets []string
	for _, q := range qs {
		if m := regexp.MustCompile(`offset=(\d+)`).FindStringSubmatch(q); m != nil {
			offsets = append(offsets, m[1])
		}
	}
	if len(qs) != 3 || !reflect.DeepEqual(offsets, []string{"2", "4"}) {
		t.Fatalf("requests %v (offsets %v), want 3 with offsets 2 and 4", qs, offsets)
	}
}

// Box's legal hold policies (as Box's description declares them, in
// make corpus-rows): next_marker is an integer beside the marker
// parameter; it is the cursor, sent back as marker: the 5 policies in 3
// requests (before: exit 2, incomplete: "the engine does not know how
// operation get_legal_hold_policies fetches its next page").
func TestBoxIntegerMarker(t *testing.T) {
	if qs := pagedRequests(t, boxArg, "SELECT id FROM box.legal_hold_policies.legal_hold_policies", "/box/2.0/legal_hold_policies", "id", "p1", "p2", "p3", "p4", "p5"); len(qs) != 3 || !strings.Contains(qs[1], "marker=2") || !strings.Contains(qs[2], "marker=4") {
		t.Fatalf("requests %v, want 3, with marker=2 then marker=4", qs)
	}
}

// Mailchimp: {lists, total_items, _links: [...]} paged by offset and
// count: the list is lists (beside _links, an array of objects too), the
// paging offset with count as the page size and total_items as the total
// (inferred); the 5 lists in 3 requests (before: the first 2, exit 0:
// total_items said more and nothing read it). The automations, whose
// description declares no paging parameter, answer 2 of 5: exit 2, kind
// incomplete, naming total_items (before: the 2 rows, exit 0).
func TestMailchimpTotalItems(t *testing.T) {
	if qs := pagedRequests(t, mcArg, "SELECT id, name FROM mailchimp.lists.lists", "/mailchimp/lists", "id", "l1", "l2", "l3", "l4", "l5"); len(qs) != 3 || !strings.Contains(qs[0], "count=") || !strings.Contains(qs[2], "offset=4") {
		t.Fatalf("requests %v, want 3: count sent, offsets 2 and 4", qs)
	}
	r := run(t, env(t), "-o", "json", "--provider", mcArg, "SELECT id FROM mailchimp.automations.automations")
	eb := testutil.JSONError(t, r)
	if r.Code != 2 || eb.Kind != "incomplete" || !strings.Contains(eb.Message, `"total_items" 5`) || strings.Contains(r.Stdout, "l1") {
		t.Fatalf("exit %d error %+v, want 2, kind incomplete naming total_items, no rows\nstdout: %s", r.Code, eb, r.Stdout)
	}
}

// Mailchimp's {conversation_messages, conversation_id, total_items,
// _links}: a list beside an echo of the path's id, _links and
// total_items is the list of messages, 3 rows (before: one row holding
// the envelope).
func TestMailchimpListBesideLinks(t *testing.T) {
	r := run(t, env(t), "-o", "json", "--provider", mcArg, "SELECT id FROM mailchimp.conversations.messages WHERE conversation_id = 'c1'")
	wantColumn(t, "", r, "id", "m1", "m2", "m3")
}

// A server that ignores the offset answers every page with the first:
// the next page is the page before, byte for byte, so its rows would
// repeat. exit 2, kind incomplete, "pagination loop" (before: the 2
// items 3 times over, exit 0).
func TestIgnoredOffsetIsALoop(t *testing.T) {
	r := run(t, env(t), "-o", "json", "--provider", boxArg, "SELECT id FROM box.folders.items WHERE folder_id = 'stuck'")
	eb := testutil.JSONError(t, r)
	if r.Code != 2 || eb.Kind != "incomplete" || !strings.Contains(eb.Message, "pagination loop") || !strings.Contains(eb.Message, "same as the page before") {
		t.Fatalf("exit %d error %+v, want 2, kind incomplete, a pagination loop\nstdout: %s", r.Code, eb, r.Stdout)
	}
	if strings.Contains(r.Stdout, "11") {
		t.Fatalf("rows were printed:\n%s", r.Stdout)
	}
}

// Asana: {data, next_page: {offset, path, uri}}: next_page.offset is sent
// back as offset (inferred); 5 projects in 3 requests (before: 2, exit 0).
func TestAsanaNextPageOffset(t *testing.T) {
	if qs := pagedRequests(t, asanaArg, "SELECT gid, name FROM asana.projects.projects", "/asana/projects", "gid", "101", "102", "103", "104", "105"); len(qs) != 3 || !strings.Contains(qs[2], "offset=eyJ4") {
		t.Fatalf("requests %v, want 3, the last with offset=eyJ4", qs)
	}
	// One tag is one row, not its followers.
	r := run(t, env(t), "-o", "json", "--provider", asanaArg, "SELECT * FROM asana.tags.tags WHERE tag_gid = '7'")
	if rows := testutil.JSONRows(t, r); r.Code != 0 || len(rows) != 1 {
		t.Fatalf("exit %d rows %v, want one row (the tag)\n%s", r.Code, rows, r.Stderr)
	}
}

// Issue 32 item 2: one entity wrapped as {"data": {...}} (Asana's GET
// /tags/{tag_gid}) is one row with the entity's columns (gid, name,
// color, followers as JSON), not one column data holding it (before: a
// single column data) nor its nested list of followers.
func TestAsanaWrappedEntityColumns(t *testing.T) {
	r := run(t, env(t), "-o", "json", "--provider", asanaArg, "SELECT gid, name, color, json_array_length(followers) AS n FROM asana.tags.tags WHERE tag_gid = '7'")
	rows := testutil.JSONRows(t, r)
	if r.Code != 0 || len(rows) != 1 || rows[0]["gid"] != "7" || rows[0]["name"] != "urgent" || rows[0]["color"] != "dark-red" || rows[0]["n"] != float64(2) {
		t.Fatalf("exit %d rows %v, want the one tag 7 (urgent, dark-red, 2 followers)\n%s", r.Code, rows, r.Stderr)
	}
	r = run(t, env(t), "-o", "json", "--provider", asanaArg, "DESCRIBE asana.tags.tags")
	for _, row := range testutil.JSONRows(t, r) {
		if row["name"] == "data" {
			t.Fatalf("DESCRIBE lists a column data (the wrapper): %v", row)
		}
	}
}

// The rule that cannot break, for a signal the description does not
// declare: Box's users answer next_marker beside entries, and the test
// description declares only entries. exec exits 2 with kind incomplete,
// naming the field and the profile line that follows it, and prints no
// row; MCP answers isError with kind incomplete; the profile line taken
// from the message, given as a profile, gets the 5 users.
func TestUndeclaredMoreSignalIsIncomplete(t *testing.T) {
	r := run(t, env(t), "-o", "json", "--provider", boxArg, "SELECT id FROM box.users.users")
	eb := testutil.JSONError(t, r)
	if r.Code != 2 || eb.Kind != "incomplete" || eb.Provider != "box" || eb.Retryable || !strings.Contains(eb.Message, `"next_marker" is not empty`) {
		t.Fatalf("exit %d error %+v, want 2, kind incomplete, not retryable, naming next_marker\nstdout: %s", r.Code, eb, r.Stdout)
	}
	if strings.Contains(r.Stdout, "u1") {
		t.Fatalf("rows of the first page were printed:\n%s", r.Stdout)
	}
	m := regexp.MustCompile(`declare it in the provider's profile: (\{.*\}\}\}\})`).FindStringSubmatch(eb.Message)
	if m == nil {
		t.Fatalf("the message gives no profile line:\n%s", eb.Message)
	}
	var prof map[string]any
	if err := json.Unmarshal([]byte(m[1]), &prof); err != nil {
		t.Fatalf("the profile line %s is not JSON: %v", m[1], err)
	}
	if !strings.Contains(m[1], `"get_users": {"style": "cursor", "param": "marker", "next": "next_marker"}`) {
		t.Fatalf("profile line %s, want the cursor style sending next_marker back as marker", m[1])
	}
	profile := testutil.TempFile(t, "box-profile.json", m[1])
	r = run(t, env(t), "-o", "json", "--provider", boxArg+",profile="+profile, "SELECT id FROM box.users.users")
	wantColumn(t, "with the profile of the message: ", r, "id", "u1", "u2", "u3", "u4", "u5")

	cl, _, stderr := mcptest.Stdio(t, env(t, testutil.FastRetry...), "mcp", "--provider", boxArg)
	res := cl.Query(t, "SELECT id FROM box.users.users")
	if !res.IsError || res.Error == nil || res.Error.Kind != "incomplete" || res.Error.Provider != "box" || len(res.Rows) != 0 {
		t.Fatalf("MCP: result %+v error %+v, want isError with kind incomplete and no rows\nstderr: %s", res, res.Error, stderr)
	}
}

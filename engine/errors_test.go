package engine_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/engine/store"
	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/client"
)

// TestClassifyAsksTheLeaf: each leaf error says its kind (ErrorKind) and
// its fields, also when wrapped; Classify knows no leaf type.
func TestClassifyAsksTheLeaf(t *testing.T) {
	missing := map[string][]string{"list_branches": {"owner", "repo"}}
	pe := &providers.ProviderError{Provider: "github", Status: 403, Retryable: true, Kind: "http"}
	cases := []struct {
		name    string
		err     error
		kind    engine.Kind
		msg     string
		pos     int
		table   string
		setting string
	}{
		{"sql syntax", &sqlfront.Error{Pos: 7, Msg: "bad"}, engine.KindSQL, "SQL error at position 8: bad", 7, "", ""},
		{"sqlite", &store.QueryError{Err: errors.New("no such table: x")}, engine.KindSQL, "SQL error: no such table: x (provider tables have three-part names, provider.service.resource: SHOW RESOURCES lists them)", -1, "", ""},
		{"plan, missing keys", &plan.Error{Table: "github.branches.branches", Missing: missing, Msg: "needs owner"}, engine.KindPlan, "needs owner", -1, "github.branches.branches", ""},
		{"plan, no missing keys", &plan.Error{Table: "t", Msg: "unknown"}, engine.KindPlan, "unknown", -1, "", ""},
		{"request limit", plan.RequestLimitError("t", "needs %d requests", 9), engine.KindPlan, "needs 9 requests", -1, "", plan.SettingMaxRequests},
		{"provider", pe, engine.KindProvider, pe.Error(), -1, "", ""},
		{"wrapped provider", fmt.Errorf("github.repos.repos: %w", pe), engine.KindProvider, "github.repos.repos: " + pe.Error(), -1, "", ""},
		{"page limit", &client.PageLimitError{Provider: "github", URL: "https://x/y", Limit: 2, Total: 3}, engine.KindPlan, (&client.PageLimitError{Provider: "github", URL: "https://x/y", Limit: 2, Total: 3}).Error(), -1, "", "max-pages"},
		{"incomplete", &providers.ProviderError{Kind: "incomplete", Message: "partial"}, engine.KindIncomplete, "GET  failed: partial", -1, "", ""},
		{"deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), engine.KindTimeout, "query timed out: x: context deadline exceeded", -1, "", ""},
		{"cancelled", context.Canceled, engine.KindCancelled, "query cancelled", -1, "", ""},
		{"other", errors.New("boom"), engine.KindInternal, "boom", -1, "", ""},
		{"usage", engine.Errorf(engine.KindUsage, "offset %d", -1), engine.KindUsage, "offset -1", -1, "", ""},
	}
	for _, c := range cases {
		e := engine.Classify(c.err)
		if e.Kind != c.kind || e.Error() != c.msg || e.Pos != c.pos || e.Table != c.table || e.Setting != c.setting {
			t.Errorf("%s: got kind %s msg %q pos %d table %q setting %q", c.name, e.Kind, e.Error(), e.Pos, e.Table, e.Setting)
		}
		if !slices.Contains(engine.Kinds(), e.Kind) {
			t.Errorf("%s: kind %q is not in Kinds()", c.name, e.Kind)
		}
		if b := e.Body(); b.Kind != e.Kind || b.Message != e.Error() {
			t.Errorf("%s: body %+v", c.name, b)
		}
	}
	if e := engine.Classify(pe); e.Provider != pe || !e.Retryable() || e.Body().HTTPStatus != 403 {
		t.Errorf("provider fields: %+v", e)
	}
	if engine.Classify(nil) != nil {
		t.Error("Classify(nil) != nil")
	}
}

// A statement stopped by its own time limit names the limit, carries the
// setting and is not retryable; a deadline of another making stays a
// retryable timeout.
func TestQueryTimeoutIsNotRetryable(t *testing.T) {
	e := engine.Classify(fmt.Errorf("run: %w", &engine.QueryTimeoutError{Limit: 30 * time.Second}))
	if e.Kind != engine.KindTimeout || e.Retryable() || e.Setting != engine.SettingQueryTimeout ||
		!strings.Contains(e.Error(), "query timed out after 30s, the time limit of one statement (query-timeout): narrow the query") {
		t.Fatalf("%+v: %s", e, e)
	}
	if !errors.Is(e, context.DeadlineExceeded) {
		t.Fatal("not a context.DeadlineExceeded")
	}
	if other := engine.Classify(context.DeadlineExceeded); other.Kind != engine.KindTimeout || !other.Retryable() {
		t.Fatalf("another deadline: %+v", other)
	}
}

// NextStep says what to do about a provider's refusal that no retry
// changes, and nothing for other errors.
func TestNextStep(t *testing.T) {
	for _, tc := range []struct {
		pe   *providers.ProviderError
		want string
	}{
		{&providers.ProviderError{Provider: "github", Kind: "http", Status: 404}, "check the spelling of the names in WHERE"},
		{&providers.ProviderError{Provider: "github", Kind: "http", Status: 403}, "the credentials lack a permission"},
		{&providers.ProviderError{Provider: "github", Kind: "http", Status: 403, RateLimited: true, Retryable: true, RetryAfter: time.Minute}, "wait 60s"},
		{&providers.ProviderError{Provider: "github", Kind: "http", Status: 401}, "credentials for github were missing or refused"},
		{&providers.ProviderError{Provider: "github", Kind: "http", Status: 500, Retryable: true}, ""},
		{&providers.ProviderError{Provider: "github", Kind: "redirect", Status: 301}, ""},
	} {
		got := engine.Classify(tc.pe).NextStep()
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%d %s: %q, want %q", tc.pe.Status, tc.pe.Kind, got, tc.want)
		}
	}
}

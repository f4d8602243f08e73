// Package profiles_test runs the built engine binary against the fake
// Stripe-, Slack- and Jira-like APIs of test/fakeapis, loaded with
// --provider NAME=PATH[,profile=FILE] (docs/providers.md): pagination styles other
// than GitHub's Link headers, the "unknown pagination says more" error,
// errors in a 200, and each provider's own credential advice.
package profiles_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/testutil"
)

// fake serves every test of the package; it ends with the test process.
var fake = fakeapis.New()

// env points every fake provider at the fake server, with
// testutil.RetryOnce so that retryable errors surface at once.
func env(t *testing.T, extra ...string) []string {
	e := append([]string{
		"ENGINE_BASE_URL_STRIPE=" + fake.URL() + "/stripe",
		"ENGINE_BASE_URL_SLACK=" + fake.URL() + "/slack",
		"ENGINE_BASE_URL_JIRA=" + fake.URL() + "/jira",
		"ENGINE_BASE_URL_TWILIO=" + fake.URL() + "/twilio",
		"ENGINE_BASE_URL_BOX=" + fake.URL() + "/box/2.0",
		"ENGINE_BASE_URL_ASANA=" + fake.URL() + "/asana",
		"ENGINE_BASE_URL_MAILCHIMP=" + fake.URL() + "/mailchimp",
	}, testutil.RetryOnce...)
	return testutil.Env(t, append(e, extra...)...)
}

var (
	stripeArg = "stripe=" + fakeapis.Doc("stripe")
	jiraArg   = "jira=" + fakeapis.Doc("jira")
	slackArg  = "slack=" + fakeapis.Doc("slack") + ",profile=" + fakeapis.Doc("slack-profile")
	slackAuth = `{"slack":{"type":"bearer","credentialsenvvar":"SLACK_TOKEN"}}`
	twilioArg = "twilio=" + fakeapis.Doc("twilio")
	boxArg    = "box=" + fakeapis.Doc("box")
	asanaArg  = "asana=" + fakeapis.Doc("asana")
	mcArg     = "mailchimp=" + fakeapis.Doc("mailchimp")
)

func run(t *testing.T, e []string, args ...string) testutil.Result {
	t.Helper()
	return testutil.Run(t, e, "", append([]string{"exec"}, args...)...)
}

// table returns the one table of provider.service (looked up, so that the
// tests do not depend on how a resource inside a service is named).
func table(t *testing.T, providerArg, service string, extra ...string) string {
	t.Helper()
	name, _, _ := strings.Cut(providerArg, "=")
	r := run(t, env(t), append([]string{"-o", "json", "--provider", providerArg}, append(extra, "SHOW RESOURCES IN "+name+"."+service)...)...)
	rows := testutil.JSONRows(t, r)
	if len(rows) != 1 {
		t.Fatalf("SHOW RESOURCES IN %s.%s: want one table, got %v\n%s", name, service, rows, r.Stderr)
	}
	full, _ := rows[0]["full_name"].(string)
	if full == "" {
		t.Fatalf("SHOW RESOURCES row without full_name: %v", rows[0])
	}
	return full
}

// wantColumn fails the test unless the run exited 0 with -o json rows
// whose column name is want, in order; what starts the message.
func wantColumn(t *testing.T, what string, r testutil.Result, name string, want ...string) {
	t.Helper()
	if got := column(testutil.JSONRows(t, r), name); r.Code != 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("%sexit %d %s %v, want %v\n%s", what, r.Code, name, got, want, r.Stderr)
	}
}

// column returns one column of the rows, as strings.
func column(rows []map[string]any, name string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, toString(r[name]))
	}
	return out
}

func toString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return "NULL"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// Package profiles_test runs the built engine binary against the fake
// Stripe-, Slack- and Jira-like APIs of test/fakeapis, loaded with
// --provider NAME=PATH[,profile=FILE] (docs/providers.md): pagination styles other
// than GitHub's Link headers, the "unknown pagination says more" error,
// errors in a 200, and each provider's own credential advice.
package profiles_test

import (
	"encoding/json"
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
	rows := jsonRows(t, r)
	if len(rows) != 1 {
		t.Fatalf("SHOW RESOURCES IN %s.%s: want one table, got %v\n%s", name, service, rows, r.Stderr)
	}
	full, _ := rows[0]["full_name"].(string)
	if full == "" {
		t.Fatalf("SHOW RESOURCES row without full_name: %v", rows[0])
	}
	return full
}

func jsonRows(t *testing.T, r testutil.Result) []map[string]any {
	t.Helper()
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &rows); err != nil {
		t.Fatalf("exit %d: stdout is not a JSON array: %v\n%s\nstderr: %s", r.Code, err, r.Stdout, r.Stderr)
	}
	return rows
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

// errorBody decodes `exec -o json`'s error object from stdout.
type errorBody struct {
	Message    string `json:"message"`
	Kind       string `json:"kind"`
	HTTPStatus int    `json:"http_status"`
	Provider   string `json:"provider"`
	Retryable  bool   `json:"retryable"`
}

func jsonError(t *testing.T, r testutil.Result) errorBody {
	t.Helper()
	var eb struct {
		Error *errorBody `json:"error"`
	}
	for _, l := range strings.Split(r.Stdout+"\n"+r.Stderr, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), `{"error"`) && json.Unmarshal([]byte(l), &eb) == nil && eb.Error != nil {
			return *eb.Error
		}
	}
	t.Fatalf("no JSON error object (exit %d)\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	return errorBody{}
}

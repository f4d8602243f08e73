package faults

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// token is sent by every surface; no output may contain it.
const token = "ghp_FAULTSUITE_7c1d9e2b4a6f80135"

// query lists every acme repository: 250 rows over 3 pages of 100.
const (
	query    = `SELECT name FROM github.repos.repos WHERE org = 'acme'`
	wantRows = fakegithub.AcmeRepos
	lastPage = 3
)

// faultEnv is every surface's environment against fake: one retry
// (testutil.RetryOnce: the matrix has faults that fail once), a short
// request timeout, and a 1 MiB body cap (a page of 100 acme repositories
// is about 480 KB).
func faultEnv(t *testing.T, fake *fakegithub.Server) []string {
	e := append([]string{"GITHUB_TOKEN=" + token}, testutil.RetryOnce...)
	return testutil.FakeEnv(t, fake.URL(), append(e, "ENGINE_REQUEST_TIMEOUT=800ms", "ENGINE_MAX_BODY_BYTES=1048576")...)
}

// faultCase is one row of the matrix and the error every surface must
// report for it.
type faultCase struct {
	name      string
	fault     fakegithub.Fault // Path and Page are filled in per case
	page      int
	status    int // http_status of the error object (0: none, a transport failure)
	retryable bool
	retryWait bool // retry_after_seconds must be set
}

// matrix is the whole fault matrix, shared by every surface.
func matrix() []faultCase {
	type f = fakegithub.Fault
	base := []faultCase{
		{name: "400", fault: f{Kind: fakegithub.KindStatus, Status: 400}, status: 400},
		{name: "401", fault: f{Kind: fakegithub.KindStatus, Status: 401}, status: 401},
		{name: "403-plain", fault: f{Kind: fakegithub.KindStatus, Status: 403}, status: 403},
		{name: "403-rate-limit", fault: f{Kind: fakegithub.KindRateLimit, RetryAfter: 1800}, status: 403, retryable: true, retryWait: true},
		{name: "403-secondary", fault: f{Kind: fakegithub.KindSecondaryRateLimit, RetryAfter: 60}, status: 403, retryable: true, retryWait: true},
		{name: "404", fault: f{Kind: fakegithub.KindStatus, Status: 404}, status: 404},
		{name: "422", fault: f{Kind: fakegithub.KindStatus, Status: 422}, status: 422},
		{name: "429", fault: f{Kind: fakegithub.KindTooManyRequests, RetryAfter: 60}, status: 429, retryable: true, retryWait: true},
		{name: "500", fault: f{Kind: fakegithub.KindStatus, Status: 500}, status: 500, retryable: true},
		{name: "502", fault: f{Kind: fakegithub.KindStatus, Status: 502}, status: 502, retryable: true},
		{name: "503", fault: f{Kind: fakegithub.KindStatus, Status: 503}, status: 503, retryable: true},
		{name: "reset", fault: f{Kind: fakegithub.KindReset}, retryable: true},
		{name: "timeout", fault: f{Kind: fakegithub.KindSlow, Delay: 10 * time.Second}, retryable: true},
		{name: "malformed", fault: f{Kind: fakegithub.KindMalformed}, status: 200},
		{name: "truncated", fault: f{Kind: fakegithub.KindTruncated}, retryable: true},
		{name: "oversized", fault: f{Kind: fakegithub.KindOversized, Size: 4 << 20}, status: 200},
		{name: "link-loop", fault: f{Kind: fakegithub.KindLinkLoop}},
	}
	var out []faultCase
	for _, page := range []int{1, lastPage} {
		for _, c := range base {
			if c.fault.Kind == fakegithub.KindLinkLoop && page != 1 {
				continue // the last page has no rel="next" to loop on
			}
			c.page = page
			c.fault.Path = "^/orgs/acme/repos$"
			c.fault.Page = page
			c.name = fmt.Sprintf("%s/page%d", c.name, page)
			out = append(out, c)
		}
	}
	return out
}

// errorBody is the error object as every surface prints it: the engine's
// one declaration of the wire shape.
type errorBody = engine.ErrorBody

// outcome is what one surface reported for one statement.
type outcome struct {
	ok   bool       // reported success (rows)
	rows int        // row count of a success
	err  *errorBody // the error object of a failure
	raw  string     // everything the surface printed, for messages
}

// checkFault asserts that a faulted run is an error with the case's
// status, provider and retryability, and never a success.
func checkFault(t *testing.T, c faultCase, o outcome) {
	t.Helper()
	if strings.Contains(o.raw, token) {
		t.Errorf("the token appears in the output")
	}
	if o.ok {
		t.Fatalf("success with %d of %d rows under fault %s\n%s", o.rows, wantRows, c.name, o.raw)
	}
	e := o.err
	if e == nil {
		t.Fatalf("no error object\n%s", o.raw)
	}
	if e.Kind != "provider" || e.Provider != "github" || e.HTTPStatus != c.status || e.Retryable != c.retryable {
		t.Fatalf("error %+v; want kind provider, provider github, http_status %d, retryable %t", *e, c.status, c.retryable)
	}
	if c.retryWait != (e.RetryAfterSeconds > 0) {
		t.Fatalf("retry_after_seconds %d; want set: %t", e.RetryAfterSeconds, c.retryWait)
	}
	if e.Message == "" {
		t.Fatal("empty error message")
	}
}

// checkHealthy asserts a complete success.
func checkHealthy(t *testing.T, o outcome) {
	t.Helper()
	if !o.ok || o.rows != wantRows {
		t.Fatalf("healthy query: ok %t rows %d, want %d\n%s", o.ok, o.rows, wantRows, o.raw)
	}
}

// runMatrix drives one surface through the whole matrix: under each
// case's fault, run must report it (checkFault); with the faults cleared
// it must report a complete success (checkHealthy): after every case
// when each (one long-lived process must recover from every fault), else
// once at the end.
func runMatrix(t *testing.T, fake *fakegithub.Server, each bool, run func(t *testing.T) outcome) {
	t.Helper()
	for _, c := range matrix() {
		t.Run(c.name, func(t *testing.T) {
			inject(fake, c)
			checkFault(t, c, run(t))
			if each {
				fake.ClearFaults()
				checkHealthy(t, run(t))
			}
		})
	}
	if !each {
		fake.ClearFaults()
		checkHealthy(t, run(t))
	}
}

// inject clears the server's faults and installs the case's.
func inject(fake *fakegithub.Server, c faultCase) {
	fake.ClearFaults()
	fake.Inject(c.fault)
}

package orgscale

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// admissionRun runs n engine exec processes of one statement of 24
// requests at once on one credential whose shared window (20 requests
// per 2 s) cannot serve them all before their 30 s limit, and returns
// how many completed, were refused early (retryable, naming the shared
// window) and failed otherwise, with the requests the fake served.
func admissionRun(t *testing.T, n int, state string) (completed, refused int, failed []testutil.Result, served int, wall time.Duration, noticed int) {
	return admissionRunOf(t, n, state, reposIn(0, 24), 25)
}

func admissionRunOf(t *testing.T, n int, state, q string, lines int) (completed, refused int, failed []testutil.Result, served int, wall time.Duration, noticed int) {
	fake := fakegithub.ForTest(t, fakegithub.WithLatency(20*time.Millisecond), fakegithub.WithRepos("paged", 2350))
	env := governed(t, fake, "ENGINE_STATE="+state, "ENGINE_RATE=20/2s", "ENGINE_QUERY_TIMEOUT=30s", "ENGINE_MAX_CONCURRENCY=8", "ENGINE_RETRY_MAX=0")
	results := make([]testutil.Result, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range results {
		wg.Go(func() {
			results[i] = testutil.Run(t, env, "", "exec", "-o", "csv", q)
		})
	}
	wg.Wait()
	wall = time.Since(start)
	checkNoToken(t, results...)
	for _, res := range results {
		switch {
		case res.Code == 0 && strings.Count(res.Stdout, "\n") == lines:
			completed++
			if strings.Contains(res.Stderr, "shared with the other processes using --state") {
				noticed++
			}
		case strings.Contains(res.Stderr, "shared with other processes (--state) and busy") && strings.Contains(res.Stderr, "Retry in about") && !strings.Contains(res.Stderr, "time out again"):
			refused++
		default:
			failed = append(failed, res)
		}
	}
	return completed, refused, failed, len(fake.Requests()), wall, noticed
}

// TestAdmissionFinishesWork: 16 processes of a 24-request statement on
// one credential whose shared window serves about 240 requests before
// their time limit: the statements the window can serve are admitted
// and complete, the others are refused before their first request with
// a retryable error saying the window is shared and busy and when it
// will have room; none times out after spending its share.
func TestAdmissionFinishesWork(t *testing.T) {
	r := testutil.StartRedis(t)
	const n = 16
	completed, refused, failed, served, wall, noticed := admissionRun(t, n, r.URL())
	t.Logf("%d processes of a 24-request statement, shared window 20/2s, 30 s limit: %d completed, %d refused early, %d failed otherwise; %d requests served (%d for completed statements), %s", n, completed, refused, len(failed), served, 24*completed, wall.Round(100*time.Millisecond))
	for _, res := range failed {
		t.Errorf("a statement neither completed nor was refused early: exit %d\n%s", res.Code, res.Stderr)
	}
	if completed < n/2 || refused == 0 {
		t.Fatalf("%d completed and %d refused of %d; want at least half completed and the rest refused", completed, refused, n)
	}
	if noticed == 0 {
		t.Errorf("no admitted statement said it waited for the shared window")
	}
	if wasted := served - 24*completed; wasted != 0 {
		t.Errorf("%d requests were spent on statements that did not complete; want none (refused before their first request)", wasted)
	}
}

// TestAdmissionOfPages: the same with a list of 24 pages (its first page
// says the last): each statement reserves the 23 pages after the first.
func TestAdmissionOfPages(t *testing.T) {
	r := testutil.StartRedis(t)
	const n = 16
	completed, refused, failed, served, wall, _ := admissionRunOf(t, n, r.URL(), "SELECT count(*) FROM github.repos.repos WHERE org = 'paged'", 2)
	t.Logf("%d processes of a 24-page statement, shared window 20/2s, 30 s limit: %d completed, %d refused early, %d failed otherwise; %d requests served (%d for completed statements), %s", n, completed, refused, len(failed), served, 24*completed, wall.Round(100*time.Millisecond))
	for _, res := range failed {
		t.Errorf("a statement neither completed nor was refused early: exit %d\n%s", res.Code, res.Stderr)
	}
	if completed < n/2 || refused == 0 {
		t.Fatalf("%d completed and %d refused of %d; want at least half completed and the rest refused", completed, refused, n)
	}
	if wasted := served - 24*completed; wasted > refused {
		t.Errorf("%d requests were spent on statements that did not complete; want at most their first pages (%d)", wasted, refused)
	}
}

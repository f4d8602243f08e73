package orgscale

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestKilledProcessSlotsLapse: a process killed (kill -9) while it holds
// every shared slot of the credential does not stall another process for
// the old two minutes: its slots are leases it no longer renews, free
// within seconds. The second statement's --query-timeout (60 s) is half
// the old slot expiry, so before leases it timed out.
func TestKilledProcessSlotsLapse(t *testing.T) {
	r := testutil.StartRedis(t)
	fake := fakegithub.ForTest(t)
	// The first process's 4 requests (all it may have in flight) hang until it dies.
	fake.Inject(fakegithub.Fault{Path: `/repos/acme/repo-00[0-3]$`, Kind: fakegithub.KindSlow, Delay: 10 * time.Minute})
	env := func() []string {
		return governed(t, fake, "ENGINE_STATE="+r.URL(), "ENGINE_MAX_CONCURRENCY=4", "ENGINE_QUERY_TIMEOUT=60s", "ENGINE_REQUEST_TIMEOUT=5m")
	}
	holder := testutil.Start(t, 5*time.Minute, env(), "exec", "-o", "csv", reposIn(0, 4))
	if n := fake.WaitStarted(4, 60*time.Second); n < 4 {
		t.Fatalf("the first process started %d requests of 4 within 60s", n)
	}
	slots := func() int {
		keys, err := r.Keys("engine:v1:gov:*:slots")
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) != 1 {
			return 0
		}
		n, err := r.Do("ZCARD", keys[0])
		if err != nil {
			t.Fatal(err)
		}
		v, _ := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(n), ":"))
		return v
	}
	if n := slots(); n != 4 {
		t.Fatalf("the first process holds %d shared slots; want all 4", n)
	}
	holder.Signal(syscall.SIGKILL)
	holder.Wait()
	start := time.Now()
	res := testutil.Run(t, env(), "", "exec", "-o", "csv", reposIn(100, 4))
	checkNoToken(t, res)
	t.Logf("a process killed holding all 4 slots; another process's 4-request statement ended %s later", time.Since(start).Round(100*time.Millisecond))
	if res.Code != 0 || strings.Count(res.Stdout, "\n") != 5 {
		t.Fatalf("the second process: exit %d\nstdout:\n%s\nstderr:\n%s", res.Code, res.Stdout, res.Stderr)
	}
}

// TestSharedPauseFailsFast: a pause another process recorded in the
// shared state (a 429 with a far Retry-After) makes a statement fail at
// once, unsent and retryable, as a pause of its own does; it is not
// waited out to --query-timeout. A stale or hostile pause key is bounded
// by the longest wait the engine accepts (an hour).
func TestSharedPauseFailsFast(t *testing.T) {
	r := testutil.StartRedis(t)
	fake := fakegithub.ForTest(t)
	fake.Inject(fakegithub.Fault{Path: `/repos/acme/repo-000$`, Kind: fakegithub.KindTooManyRequests, RetryAfter: 3000, Times: 1})
	env := governed(t, fake, "ENGINE_STATE="+r.URL(), "ENGINE_QUERY_TIMEOUT=60s", "ENGINE_RETRY_MAX=0")
	first := testutil.Run(t, env, "", "exec", "-o", "csv", reposIn(0, 1))
	if first.Code == 0 {
		t.Fatalf("the first process: exit 0 after a 429\n%s", first.Stderr)
	}
	fake.ResetRequests()
	second := testutil.Run(t, env, "", "exec", "-o", "json", reposIn(10, 3))
	checkNoToken(t, first, second)
	if second.Code == 0 || !strings.Contains(second.Stderr, "not sent") || !strings.Contains(second.Stderr, "paused until") || strings.Contains(second.Stderr, "time out again") {
		t.Fatalf("the second process during the first's pause: exit %d\n%s", second.Code, second.Stderr)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Fatalf("the second process sent %d requests during the pause", n)
	}
	// A pause key set 30 days ahead (a broken or hostile writer).
	keys, err := r.Keys("engine:v1:gov:*:pause")
	if err != nil || len(keys) != 1 {
		t.Fatalf("no pause key in the shared state: %q, %v", keys, err)
	}
	key := keys[0]
	far := time.Now().Add(30 * 24 * time.Hour).UnixMilli()
	if _, err := r.Do("SET", key, fmt.Sprint(far)); err != nil {
		t.Fatal(err)
	}
	third := testutil.Run(t, env, "", "exec", "-o", "json", reposIn(10, 3))
	if third.Code == 0 || !strings.Contains(third.Stderr, "paused until") || strings.Contains(third.Stderr, "in 720h") {
		t.Fatalf("a 30-day pause key: exit %d\n%s", third.Code, third.Stderr)
	}
	if !strings.Contains(third.Stderr, "(in 1h0m0s)") && !strings.Contains(third.Stderr, "(in 59m") {
		t.Errorf("a 30-day pause key was not bounded to an hour:\n%s", third.Stderr)
	}
}

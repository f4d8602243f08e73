package orgscale

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

const token = "ghp_ORGSCALETESTTOKEN0123456789abcd"

// limits is GitHub's secondary limiter (900 points a minute, 100 requests
// in flight) scaled down for test time: 30 points per 5 s, 8 in flight.
var limits = fakegithub.Limits{Points: 30, Window: 5 * time.Second, MaxConcurrent: 8, RetryAfter: 1}

// governed is the environment of a governed run on one credential, paced
// at the fake's scaled limits, plus extra.
func governed(t *testing.T, fake *fakegithub.Server, extra ...string) []string {
	return testutil.FakeEnv(t, fake.URL(), append([]string{
		"GITHUB_TOKEN=" + token,
		"ENGINE_GOVERNOR=on",
		"ENGINE_RATE=30/5s",
		"ENGINE_MAX_CONCURRENCY=8",
		"ENGINE_RETRY_MAX=2",
		"ENGINE_MAX_RETRY_WAIT=20s",
	}, extra...)...)
}

// reposIn is a statement of n requests: acme's repositories from..from+n-1
// by name (one request each).
func reposIn(from, n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("'repo-%03d'", from+i)
	}
	return "SELECT name FROM github.repos.repos WHERE owner = 'acme' AND repo IN (" + strings.Join(names, ",") + ") ORDER BY name"
}

func checkNoToken(t *testing.T, rs ...testutil.Result) {
	t.Helper()
	for _, r := range rs {
		if strings.Contains(r.Stdout+r.Stderr, token) {
			t.Fatal("the token leaked into the output")
		}
	}
}

// runners runs three engine exec processes and two engine mcp HTTP
// replicas at once on one credential, each reading 12 different
// repositories (60 requests together, twice the scaled window), and
// returns the fake's limiter figures.
func runners(t *testing.T, state string) (fakegithub.LimiterStats, []testutil.Result, time.Duration) {
	fake := fakegithub.ForTest(t, fakegithub.WithLatency(40*time.Millisecond), fakegithub.WithLimits(limits))
	var extra []string
	if state != "" {
		extra = append(extra, "ENGINE_STATE="+state)
	}
	var replicas []*mcptest.Client
	for i := 0; i < 2; i++ {
		endpoint, _ := mcptest.StartHTTP(t, governed(t, fake, extra...))
		replicas = append(replicas, mcptest.ConnectHTTP(t, endpoint))
	}
	results := make([]testutil.Result, 5)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range results {
		wg.Go(func() {
			q := reposIn(12*i, 12)
			if i < 3 {
				results[i] = testutil.Run(t, governed(t, fake, extra...), "", "exec", "-o", "csv", q)
				return
			}
			res := replicas[i-3].QueryBounded(t, q)
			results[i] = testutil.Result{Stdout: res.Text}
			if res.IsError || res.RowCount != 12 {
				results[i].Code = 1
			}
		})
	}
	wg.Wait()
	checkNoToken(t, results...)
	return fake.LimiterStats(), results, time.Since(start)
}

// TestRunnersShareOneBudget: three exec processes and two MCP replicas on
// one credential each pace themselves within the limits, so together they
// exceed them; with --state they pace together and meet no limit.
func TestRunnersShareOneBudget(t *testing.T) {
	r := testutil.StartRedis(t)
	alone, ra, da := runners(t, "")
	shared, rs, ds := runners(t, r.URL())
	t.Logf("three engine exec and two engine mcp replicas on one credential, 60 requests against %d per %s and %d in flight:", limits.Points, limits.Window, limits.MaxConcurrent)
	t.Logf("  without --state: %d secondary-limit answers (%d over the in-flight limit), at most %d in flight, %s", alone.SecondaryResponses, alone.ConcurrentResponses, alone.MaxInFlight, da.Round(100*time.Millisecond))
	t.Logf("  with --state:    %d secondary-limit answers (%d over the in-flight limit), at most %d in flight, %s", shared.SecondaryResponses, shared.ConcurrentResponses, shared.MaxInFlight, ds.Round(100*time.Millisecond))
	for i, res := range rs {
		if res.Code != 0 || (i < 3 && strings.Count(res.Stdout, "\n") != 13) {
			t.Fatalf("runner %d with --state: exit %d\nstdout:\n%s\nstderr:\n%s", i, res.Code, res.Stdout, res.Stderr)
		}
		if strings.Contains(res.Stderr, "warning") {
			t.Errorf("runner %d with --state warned:\n%s", i, res.Stderr)
		}
	}
	if shared.SecondaryResponses != 0 || shared.MaxInFlight > limits.MaxConcurrent {
		t.Errorf("with --state: %d secondary-limit answers and %d in flight at most; want 0 and at most %d", shared.SecondaryResponses, shared.MaxInFlight, limits.MaxConcurrent)
	}
	if alone.SecondaryResponses == 0 {
		t.Errorf("without --state the runners met no limit (exits %d %d %d %d %d): the test does not load the limiter", ra[0].Code, ra[1].Code, ra[2].Code, ra[3].Code, ra[4].Code)
	}
}

// TestSecondRunnerRevalidates: a second process, with a cache directory
// of its own, revalidates what the first cached (304s only, which cost no
// rate limit) through the shared cache; --state comes from the config
// file here.
func TestSecondRunnerRevalidates(t *testing.T) {
	r := testutil.StartRedis(t)
	fake := fakegithub.ForTest(t)
	cfg := testutil.TempFile(t, "config.yaml", "state: "+r.URL()+"\n")
	q := "SELECT name, stargazers_count FROM github.repos.repos WHERE org = 'acme' ORDER BY name"
	run := func() testutil.Result {
		e := testutil.FakeEnv(t, fake.URL(), "GITHUB_TOKEN="+token, "ENGINE_NO_CACHE=", "ENGINE_CONFIG="+cfg, "ENGINE_CACHE_DIR="+t.TempDir())
		res := testutil.Run(t, e, "", "exec", "-o", "csv", q)
		checkNoToken(t, res)
		if res.Code != 0 {
			t.Fatalf("exit %d: %s", res.Code, res.Stderr)
		}
		return res
	}
	first := run()
	firstReqs := fake.Requests()
	fake.ResetRequests()
	second := run()
	reqs := fake.Requests()
	if first.Stdout != second.Stdout {
		t.Fatalf("the second runner's answer differs from the first's")
	}
	n304 := 0
	for _, q := range reqs {
		if q.Status == 304 && q.IfNoneMatch != "" {
			n304++
		}
	}
	t.Logf("first runner: %d requests; second runner (another cache directory, same --state): %d requests, %d of them 304", len(firstReqs), len(reqs), n304)
	if len(reqs) == 0 || n304 != len(reqs) || len(reqs) != len(firstReqs) {
		t.Fatalf("second runner: %d requests, %d answered 304; want all %d revalidated (304)", len(reqs), n304, len(firstReqs))
	}
}

// TestResultOnAnotherReplica: a result kept by one `engine mcp` replica is
// paged on another (fetch_result_page, engine://results/{id}).
func TestResultOnAnotherReplica(t *testing.T) {
	r := testutil.StartRedis(t)
	fake := fakegithub.ForTest(t)
	e := testutil.FakeEnv(t, fake.URL(), "GITHUB_TOKEN="+token)
	one, log1 := mcptest.StartHTTP(t, e, "--state", r.URL(), "--max-rows", "5")
	two, log2 := mcptest.StartHTTP(t, e, "--state", r.URL(), "--max-rows", "5")
	c1, c2 := mcptest.ConnectHTTP(t, one), mcptest.ConnectHTTP(t, two)
	res := c1.QueryBounded(t, "SELECT name, id FROM github.repos.repos WHERE org = 'acme' ORDER BY name")
	if res.IsError || res.ResultID == "" || res.RowCount != fakegithub.AcmeRepos {
		t.Fatalf("replica 1: %+v", res)
	}
	page := func(c *mcptest.Client) mcptest.Result {
		return c.Call(t, mcptest.Context(t), "fetch_result_page", map[string]any{"result_id": res.ResultID, "offset": 100, "limit": 5})
	}
	p2 := page(c2)
	if p2.IsError || len(p2.Rows) != 5 || !p2.HasMore {
		t.Fatalf("replica 2 paging replica 1's result: %+v\nreplica 2 log:\n%s", p2, log2)
	}
	p1 := page(c1)
	if !reflect.DeepEqual(p1.Rows, p2.Rows) || p2.Rows[0][0] != "repo-100" {
		t.Fatalf("the page differs between replicas:\n%v\n%v", p1.Rows, p2.Rows)
	}
	rr, err := c2.Read(t, res.ResultURI+"?format=csv")
	if err != nil || len(rr.Contents) == 0 || !strings.Contains(rr.Contents[0].Text, "repo-249") {
		t.Fatalf("replica 2 reading %s: %v", res.ResultURI, err)
	}
	unknown := c2.Call(t, mcptest.Context(t), "fetch_result_page", map[string]any{"result_id": "0123456789abcdef01"})
	if !unknown.IsError {
		t.Fatalf("an id no replica kept: %+v", unknown)
	}
	checkNoToken(t, testutil.Result{Stderr: log1.String() + log2.String()})
}

// TestRedisKilledMidStatement: the state's server dies while a statement
// runs: the statement completes on the process's local state, each
// surface says so once, nothing hangs.
func TestRedisKilledMidStatement(t *testing.T) {
	r := testutil.StartRedis(t)
	midStatement(t, r, "killed", r.Kill)
}

// TestRedisFrozenMidStatement: the state's server stops answering (an
// overloaded or partitioned server: its port stays open) while a
// statement runs: every call gives up after its bound, and the statement
// completes as above.
func TestRedisFrozenMidStatement(t *testing.T) {
	r := testutil.StartRedis(t)
	midStatement(t, r, "frozen", r.Freeze)
}

func midStatement(t *testing.T, r *testutil.Redis, what string, fail func()) {
	fake := fakegithub.ForTest(t, fakegithub.WithLatency(100*time.Millisecond), fakegithub.WithLimits(limits))
	e := governed(t, fake, "ENGINE_STATE="+r.URL(), "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+t.TempDir(), "ENGINE_MAX_CONCURRENCY=3")
	run := testutil.Start(t, 90*time.Second, e, "exec", "-o", "csv", reposIn(0, 24))
	for deadline := time.Now().Add(30 * time.Second); len(fake.Requests()) < 4; {
		if time.Now().After(deadline) {
			t.Fatal("the statement sent no request within 30s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	before := len(fake.Requests())
	fail()
	start := time.Now()
	res, hung := run.Wait()
	if hung {
		t.Fatalf("the statement hung after redis-server was %s:\n%s", what, res.Stderr)
	}
	t.Logf("redis-server %s after %d of 24 requests; the statement ended %s later", what, before, time.Since(start).Round(10*time.Millisecond))
	checkNoToken(t, res)
	if res.Code != 0 || strings.Count(res.Stdout, "\n") != 25 {
		t.Fatalf("statement: exit %d, %d lines\nstderr:\n%s", res.Code, strings.Count(res.Stdout, "\n"), res.Stderr)
	}
	stderr := res.Stderr
	if n := strings.Count(stderr, "rate-limit governor: shared rate-limit state unavailable"); n != 1 {
		t.Errorf("the governor said %d times that the state is down; want once:\n%s", n, stderr)
	}
	if n := strings.Count(stderr, "response cache: shared response cache unavailable"); n != 1 {
		t.Errorf("the cache said %d times that the state is down; want once:\n%s", n, stderr)
	}
	if strings.Contains(stderr, "reachable again") {
		t.Errorf("a dead state was reported back:\n%s", stderr)
	}
	if st := fake.LimiterStats(); st.SecondaryResponses != 0 {
		t.Errorf("%d secondary-limit answers after falling back to local state; want 0 (one process within its own bounds)", st.SecondaryResponses)
	}
}

// TestStateRefusesBadURL: a --state that is not a redis:// URL is a usage
// error naming the form, without the password.
func TestStateRefusesBadURL(t *testing.T) {
	fake := fakegithub.ForTest(t)
	for _, u := range []string{"localhost:6379", "postgres://u:hunter2@h/db", "redis://:hunter2@127.0.0.1:6379/x"} {
		res := testutil.Run(t, testutil.FakeEnv(t, fake.URL(), "GITHUB_TOKEN="+token, "ENGINE_STATE="+u), "", "exec", "SELECT 1")
		if res.Code != 1 || !strings.Contains(res.Stderr, "redis://") || strings.Contains(res.Stderr, "hunter2") {
			t.Errorf("ENGINE_STATE=%s: exit %d, stderr %q; want a usage error naming redis://HOST:PORT/DB, without the password", u, res.Code, res.Stderr)
		}
	}
}

// TestStatePassword: a Redis with a password is used with it, and the
// password never appears in what the engine prints, also when it is
// refused.
func TestStatePassword(t *testing.T) {
	const pw = "s3cretRedisPassw0rd"
	r := testutil.StartRedis(t, "--requirepass", pw)
	fake := fakegithub.ForTest(t)
	q := "SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name"
	for _, c := range []struct {
		url  string
		warn bool
	}{
		{"redis://:" + pw + "@" + r.Addr + "/0", false},
		{"redis://:wrong" + pw + "@" + r.Addr + "/0", true},
	} {
		e := governed(t, fake, "ENGINE_STATE="+c.url, "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+t.TempDir())
		res := testutil.Run(t, e, "", "exec", "-o", "csv", q)
		checkNoToken(t, res)
		if res.Code != 0 || strings.Contains(res.Stdout+res.Stderr, pw) {
			t.Fatalf("%s: exit %d, or the password in the output:\n%s", strings.ReplaceAll(c.url, pw, "xxxxx"), res.Code, res.Stderr)
		}
		if warned := strings.Contains(res.Stderr, "unavailable"); warned != c.warn {
			t.Fatalf("%s: warned %v, want %v:\n%s", strings.ReplaceAll(c.url, pw, "xxxxx"), warned, c.warn, res.Stderr)
		}
	}
	if n, err := r.Do("DBSIZE"); err != nil || n == ":0" {
		t.Fatalf("nothing was shared with the right password: %q, %v", n, err)
	}
}

// TestBudgetSeenByAnotherRunner: what one runner's answers said of the
// core bucket (x-ratelimit-remaining) is the other runner's budget: a
// statement that needs more than is left is refused before its first
// request, where alone the second runner would spend the rest and fail
// half-way.
func TestBudgetSeenByAnotherRunner(t *testing.T) {
	r := testutil.StartRedis(t)
	left := 30
	fake := fakegithub.ForTest(t, fakegithub.WithLimits(fakegithub.Limits{Buckets: map[string]fakegithub.BucketLimit{
		"core": {Limit: 5000, Remaining: &left, Window: time.Hour},
	}}))
	e := func() []string { return governed(t, fake, "ENGINE_STATE="+r.URL(), "ENGINE_RETRY_MAX=0") }
	first := testutil.Run(t, e(), "", "exec", "-o", "csv", reposIn(0, 20))
	if first.Code != 0 {
		t.Fatalf("first runner: exit %d\n%s", first.Code, first.Stderr)
	}
	fake.ResetRequests()
	second := testutil.Run(t, e(), "", "exec", "-o", "csv", reposIn(20, 15))
	checkNoToken(t, first, second)
	if second.Code != 2 || !strings.Contains(second.Stderr, "only 10 of 5000 remain") || !strings.Contains(second.Stderr, "nothing was sent") {
		t.Fatalf("second runner: exit %d, want 2 and a budget refusal naming the 10 left\n%s", second.Code, second.Stderr)
	}
	for _, q := range fake.Requests() {
		if q.Path != "/rate_limit" {
			t.Fatalf("the second runner sent %s %s", q.Method, q.Path)
		}
	}
}

// TestStateDatabaseOutOfRange: a --state database the server does not
// have is a configuration error said at start (exit 1), not an outage
// the process waits out ("until it answers again").
func TestStateDatabaseOutOfRange(t *testing.T) {
	r := testutil.StartRedis(t)
	fake := fakegithub.ForTest(t)
	u := "redis://" + r.Addr + "/99"
	res := testutil.Run(t, testutil.FakeEnv(t, fake.URL(), "GITHUB_TOKEN="+token, "ENGINE_STATE="+u), "", "exec", "SELECT name FROM github.repos.repos WHERE org = 'tiny'")
	if res.Code != 1 || !strings.Contains(res.Stderr, "has no database 99") || strings.Contains(res.Stderr, "answers again") || res.Stdout != "" || fake.Arrived() != 0 {
		t.Fatalf("exit %d, %d requests\nstdout %q\nstderr %q", res.Code, fake.Arrived(), res.Stdout, res.Stderr)
	}
}

// TestSharedResultsPeakMemory: 4 concurrent calls keeping results of
// 4,000 rows (SELECT *) with --state: each result goes to Redis in
// chunks (several values each, none over 1 MiB; before, one value read
// whole and copied again for the script), and the server's peak RSS
// stays within 1.5 times (plus 20 MB) of the same calls without --state.
// (Here the peak is the statements' own, about 320 MB either way, before
// and after: the memory the issue measured with ~31 MB results, 267 MB
// against 65, is not reproduced by this set-up; the chunk count is what
// fails before.)
func TestSharedResultsPeakMemory(t *testing.T) {
	t.Parallel() // its own Redis, fake and servers
	r := testutil.StartRedis(t)
	alone, _ := resultsPeak(t, nil)
	shared, keys := resultsPeak(t, r)
	t.Logf("%d concurrent results of 4,000 rows (SELECT *) kept: server peak RSS %d MB without --state, %d MB with it (%d values in Redis)", concurrentResults, alone>>20, shared>>20, keys)
	if keys < concurrentResults*2 {
		t.Fatalf("%d values in Redis; want each result in several chunks", keys)
	}
	if shared > alone*3/2+(20<<20) {
		t.Fatalf("peak RSS %d MB with --state against %d MB without; want at most 1.5 times and 20 MB more", shared>>20, alone>>20)
	}
}

// concurrentResults is how many calls keep a result at once. Each
// call's deadline is long: four 4,000-row statements at once take a busy
// 2-core machine tens of seconds.
const concurrentResults = 4

func resultsPeak(t *testing.T, r *testutil.Redis) (peak int64, keys int) {
	fake := fakegithub.ForTest(t)
	e := testutil.FakeEnv(t, fake.URL(), "GITHUB_TOKEN="+token, "ENGINE_QUERY_TIMEOUT=5m")
	args := append(append([]string{}, mcptest.HTTPArgs...), "--max-rows", "5")
	if r != nil {
		args = append(args, "--state", r.URL())
	}
	s := mcptest.ServeHTTP(t, testutil.EngineBinary(t), e, args...)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for i := range concurrentResults {
		wg.Go(func() {
			c := mcptest.ConnectHTTP(t, s.Endpoint)
			res := c.Call(t, ctx, "run_select_query", map[string]any{"sql": "SELECT * FROM github.repos.repos WHERE org = 'scale-4000'"})
			if res.IsError || res.ResultID == "" {
				t.Errorf("call %d: %+v", i, res)
			}
		})
	}
	wg.Wait()
	peak = s.PeakRSS(t)
	if r != nil {
		k, _ := r.Keys("engine:v1:results:v:*")
		keys = len(k)
	}
	return peak, keys
}

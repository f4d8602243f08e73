package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// stateRows measures N processes sharing one credential through --state
// (a redis-server of the bench's own on a loopback port) against
// GitHub's limit of 900 requests a minute: 20 engine exec processes of
// the same 100-page statement at once, with the default settings
// (--query-timeout 2 min). The window serves about 1,800 of their 2,000
// requests before the limit: the statements admitted must complete and
// the rest be refused early, spending nothing but their first page.
func (b *bench) stateRows(add addRow) {
	redis, err := testutil.LaunchRedis()
	if err != nil {
		add("20 processes, --state: 100-page statement", "skipped: "+err.Error(), "")
		return
	}
	defer redis.Close()
	const n = 20
	fake := fakegithub.New(fakegithub.WithRepos("shared", 9950), fakegithub.WithLatency(20*time.Millisecond),
		fakegithub.WithLimits(fakegithub.Limits{Points: 900, Window: time.Minute}))
	defer fake.Close()
	env := b.env("ENGINE_BASE_URL_GITHUB="+fake.URL(), "ENGINE_STATE="+redis.URL())
	q := "SELECT count(*) FROM github.repos.repos WHERE org = 'shared'"
	type outcome struct {
		code   int
		stderr string
	}
	outs := make([]outcome, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range outs {
		wg.Go(func() {
			cmd := exec.Command(b.bin, "exec", "-o", "csv", "--auth", `{"github":{"type":"null_auth"}}`, q)
			cmd.Env = env
			var errb bytes.Buffer
			cmd.Stderr = &errb
			err := cmd.Run()
			outs[i] = outcome{code: cmd.ProcessState.ExitCode(), stderr: errb.String()}
			_ = err
		})
	}
	wg.Wait()
	wall := time.Since(start)
	completed, refused, timedOut := 0, 0, 0
	for _, o := range outs {
		switch {
		case o.code == 0:
			completed++
		case strings.Contains(o.stderr, "shared with other processes (--state) and busy"):
			refused++
		case strings.Contains(o.stderr, "timed out"):
			timedOut++
		}
	}
	ok, _ := count(fake)
	st := fake.LimiterStats()
	pages := 100
	wasted := ok - completed*pages
	add(fmt.Sprintf("%d processes, --state, 900/min: 100-page statement each", n), fmt.Sprintf("%d completed, %d refused early, %d timed out, %d other; %s", completed, refused, timedOut, n-completed-refused-timedOut, ms(wall)), ">= 16 completed, 0 timed out, <= 2m10s")
	add("  requests spent on statements that failed", fmt.Sprintf("%d of %d (%d limit answers)", wasted, ok, st.SecondaryResponses+st.PrimaryResponses), "<= 1 per refused statement, 0 limit answers")
}

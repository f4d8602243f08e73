package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
)

// stateRows measures N processes sharing one credential through --state
// (a redis-server of the bench's own on a loopback port) against
// GitHub's limit of 900 requests a minute: 20 engine exec processes of
// the same 100-page statement at once, with the default settings
// (--query-timeout 2 min). The window serves about 1,800 of their 2,000
// requests before the limit: the statements admitted must complete and
// the rest be refused early, spending nothing but their first page.
func (b *bench) stateRows(add func(name, value, target string)) {
	addr, stop, err := startRedis()
	if err != nil {
		add("20 processes, --state: 100-page statement", "skipped: "+err.Error(), "")
		return
	}
	defer stop()
	const n = 20
	fake := fakegithub.New(fakegithub.WithRepos("shared", 9950), fakegithub.WithLatency(20*time.Millisecond),
		fakegithub.WithLimits(fakegithub.Limits{Points: 900, Window: time.Minute}))
	defer fake.Close()
	env := b.env("ENGINE_BASE_URL_GITHUB="+fake.URL(), "ENGINE_STATE=redis://"+addr+"/0")
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

// startRedis starts a redis-server without persistence on a free
// loopback port.
func startRedis() (addr string, stop func(), err error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return "", nil, fmt.Errorf("redis-server is not on PATH (make testdeps)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir, _ := os.MkdirTemp("", "engine-bench-redis-")
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir)
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	stop = func() { cmd.Process.Kill(); cmd.Wait(); os.RemoveAll(dir) } //nolint:errcheck
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr, stop, nil
		}
	}
	stop()
	return "", nil, fmt.Errorf("redis-server did not answer on %s", addr)
}

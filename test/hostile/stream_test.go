package hostile

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// peakRun runs the engine binary with args and returns stdout, the exit
// code and the process's peak RSS (ru_maxrss, KB on Linux) in MB.
func peakRun(t *testing.T, fake *fakegithub.Server, stdin string, args ...string) (string, float64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testutil.EngineBinary(t), args...)
	cmd.Env = testutil.Env(t, "ENGINE_BASE_URL_GITHUB="+fake.URL())
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("engine %v: %v\n%.500s", args, err, errb.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return out.String(), float64(ru.Maxrss) / 1024
}

// TestFanOutBoundedMemory: a fan-out over 4 large orgs loads each page
// into SQLite as it arrives, so its peak RSS is about that of one org,
// not four orgs' worth of JSON. Before the fix exec buffered every page
// of a fan-out and loaded them in call order: 4 x scale-10000 (4 x 53 MB
// of JSON) peaked at about 300 MB (4 x scale-20000: 578 MB) where one org
// takes 36 MB; after it, 4 x scale-10000 peaks at about 50 MB. Bound:
// under 100 MB, and under the one-org peak + 40 MB (the pages in flight:
// 8 calls x 4 pages x 0.5 MB, plus their decoding).
func TestFanOutBoundedMemory(t *testing.T) {
	fake := fakegithub.New()
	t.Cleanup(fake.Close)
	_, one := peakRun(t, fake, "", "exec", "-o", "csv", "SELECT count(*) FROM github.repos.repos WHERE org = 'scale-10000'")
	out, four := peakRun(t, fake, "", "exec", "-o", "csv",
		"SELECT org, count(*), min(name), max(name) FROM github.repos.repos WHERE org IN ('scale-10000', 'scale-10001', 'scale-10002', 'scale-10003') GROUP BY org ORDER BY org")
	want := "org,count(*),min(name),max(name)\n" +
		"scale-10000,10000,repo-0000,repo-9999\n" +
		"scale-10001,10001,repo-00000,repo-10000\n" +
		"scale-10002,10002,repo-00000,repo-10001\n" +
		"scale-10003,10003,repo-00000,repo-10002\n"
	if out != want {
		t.Fatalf("fan-out result:\n%s\nwant\n%s", out, want)
	}
	t.Logf("peak RSS: one org %.1f MB, 4 orgs %.1f MB", one, four)
	if four > 100 || four > one+40 {
		t.Fatalf("fan-out over 4 orgs peaked at %.1f MB (one org: %.1f MB), want under 100 MB and under one org + 40 MB", four, one)
	}
}

// TestFanOutRowOrder: the rows of a fan-out come out in call order then
// page order (the order of the IN list's calls), whatever the order in
// which the answers arrive: the first org's answer is slowed down so
// that the second one is loaded first.
func TestFanOutRowOrder(t *testing.T) {
	fake := fakegithub.New()
	t.Cleanup(fake.Close)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/scale-150/repos$", Page: 1, Kind: fakegithub.KindSlow, Delay: 300 * time.Millisecond})
	q := "SELECT org, name FROM github.repos.repos WHERE org IN "
	big, _ := peakRun(t, fake, "", "exec", "-o", "tsv", q+"('scale-150')")
	small, _ := peakRun(t, fake, "", "exec", "-o", "tsv", q+"('scale-3')")
	out, _ := peakRun(t, fake, "", "exec", "-o", "tsv", q+"('scale-150', 'scale-3')")
	_, smallRows, _ := strings.Cut(small, "\n")
	if want := big + smallRows; out != want || strings.Count(out, "\n") != 1+150+3 {
		t.Fatalf("fan-out rows:\n%.600s\nwant the rows of scale-150, then those of scale-3:\n%.600s", out, want)
	}
}

package orgscale

import (
	"bufio"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// hostileRedis answers every command with an error of n bytes (a broken
// or hostile server); it returns its --state URL.
func hostileRedis(t *testing.T, n int) string {
	msg := "-ERR " + strings.Repeat("broken ", n/7) + "\r\n"
	return serveRedisURL(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		for {
			// One command: *N, then N bulk strings ($len, data).
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			args, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "*")))
			for i := 0; i < 2*args; i++ {
				if _, err := br.ReadString('\n'); err != nil {
					return
				}
			}
			if _, err := c.Write([]byte(msg)); err != nil {
				return
			}
		}
	})
}

// TestHostileRedisTextCut: a server whose every answer is a 200 kB error
// costs a statement its shared state, said once per surface in a few
// lines, never the server's whole text.
func TestHostileRedisTextCut(t *testing.T) {
	fake := fakegithub.ForTest(t)
	e := governed(t, fake, "ENGINE_STATE="+hostileRedis(t, 200_000), "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+t.TempDir())
	res := testutil.Run(t, e, "", "exec", "-o", "csv", reposIn(0, 3))
	checkNoToken(t, res)
	if res.Code != 0 || strings.Count(res.Stdout, "\n") != 4 {
		t.Fatalf("exit %d\n%s", res.Code, res.Stderr[:min(len(res.Stderr), 2000)])
	}
	if len(res.Stderr) > 4000 || !strings.Contains(res.Stderr, "unavailable") {
		t.Fatalf("stderr of %d bytes (want a few warnings, at most 4000 bytes):\n%s", len(res.Stderr), res.Stderr[:min(len(res.Stderr), 2000)])
	}
}

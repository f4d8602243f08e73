//go:build uicheck

package mcpapp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// browser is headless Chromium driven over the DevTools protocol on a
// pipe (--remote-debugging-pipe: commands on fd 3, answers on fd 4, each
// message ended by a NUL byte), so no port and no websocket library.
type browser struct {
	cmd     *exec.Cmd
	w       io.WriteCloser
	mu      sync.Mutex
	next    int
	waiting map[int]chan cdpReply
	stderr  testutil.SyncBuffer // written while the browser runs
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// chromium finds the browser: $CHROMIUM, else chromium on PATH.
func chromium(t *testing.T) string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no Chromium: install it (Debian: apt-get install chromium) or set CHROMIUM to its path")
	return ""
}

func startBrowser(t *testing.T, width, height int) *browser {
	t.Helper()
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	b := &browser{w: cmdW, waiting: map[int]chan cdpReply{}}
	b.cmd = exec.Command(chromium(t), "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
		"--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
		"--force-device-scale-factor=1", fmt.Sprintf("--window-size=%d,%d", width, height),
		"--user-data-dir="+t.TempDir(), "about:blank")
	b.cmd.ExtraFiles = []*os.File{cmdR, outW}
	b.cmd.Stderr = &b.stderr
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmdR.Close()
	outW.Close()
	t.Cleanup(func() {
		cmdW.Close()
		b.cmd.Process.Kill() //nolint:errcheck
		b.cmd.Wait()         //nolint:errcheck
	})
	go func() {
		r := bufio.NewReader(outR)
		for {
			msg, err := r.ReadBytes(0)
			if err != nil {
				b.mu.Lock()
				for id, ch := range b.waiting {
					close(ch)
					delete(b.waiting, id)
				}
				b.mu.Unlock()
				return
			}
			var m struct {
				ID int `json:"id"`
				cdpReply
			}
			if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
				continue // an event
			}
			b.mu.Lock()
			ch := b.waiting[m.ID]
			delete(b.waiting, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m.cdpReply
			}
		}
	}()
	return b
}

// call sends one command (to the browser, or to a page's session) and
// decodes its result into out.
func (b *browser) call(ctx context.Context, session, method string, params, out any) error {
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan cdpReply, 1)
	b.waiting[id] = ch
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	j, _ := json.Marshal(msg)
	_, err := b.w.Write(append(j, 0))
	b.mu.Unlock()
	if err != nil {
		return err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: browser exited: %s", method, b.stderr.String())
		}
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// open opens url in a new page and returns the page's session.
func (b *browser) open(ctx context.Context, url string) (string, error) {
	var tg struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": url}, &tg); err != nil {
		return "", err
	}
	var at struct {
		SessionID string `json:"sessionId"`
	}
	err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": tg.TargetID, "flatten": true}, &at)
	return at.SessionID, err
}

// eval evaluates expr in the page (awaiting a promise) and decodes its
// value into out.
func (b *browser) eval(ctx context.Context, session, expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := b.call(ctx, session, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &r); err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("evaluate: %s", r.ExceptionDetails.Text)
	}
	if out == nil || len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

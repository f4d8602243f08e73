package mcpsurface

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxFrame bounds one inbound stdio line.
const DefaultMaxFrame = 4 << 20

// LineTransport is newline-delimited JSON-RPC over a reader and a writer
// (stdin/stdout), more forgiving than the SDK's: CRLF line endings and
// blank lines are accepted, and a malformed or oversized line is answered
// with a JSON-RPC error (parse error or invalid request) instead of ending
// the session. JSON-RPC batches are refused (removed from MCP in
// 2025-06-18).
type LineTransport struct {
	In  io.Reader
	Out io.Writer
	// MaxFrame bounds one line (default DefaultMaxFrame).
	MaxFrame int
	// Log receives one line per rejected frame (default discard).
	Log io.Writer
}

// Connect implements mcp.Transport.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	max := t.MaxFrame
	if max <= 0 {
		max = DefaultMaxFrame
	}
	log := t.Log
	if log == nil {
		log = io.Discard
	}
	c := &lineConn{in: t.In, out: t.Out, log: log, incoming: make(chan jsonrpc.Message), closed: make(chan struct{}), done: make(chan struct{}),
		pending: map[jsonrpc.ID]bool{}, wake: make(chan struct{}, 1)}
	go c.readLoop(max)
	return c, nil
}

type lineConn struct {
	in       io.Reader
	out      io.Writer
	log      io.Writer
	wmu      sync.Mutex
	incoming chan jsonrpc.Message
	closed   chan struct{} // closed by Close
	done     chan struct{} // closed when the input ends
	readErr  error
	once     sync.Once

	// Requests read but not yet answered: at the end of the input, Read
	// waits for their answers before reporting EOF, so that a piped
	// client (printf ... | engine mcp) gets every response.
	pmu     sync.Mutex
	pending map[jsonrpc.ID]bool
	wake    chan struct{}
}

func (c *lineConn) readLoop(max int) {
	defer close(c.done)
	r := bufio.NewReaderSize(c.in, 64<<10)
	for {
		line, tooLong, err := readLine(r, max)
		if len(line) > 0 || tooLong {
			if msg := c.decode(line, tooLong); msg != nil {
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.readErr = err
			}
			return
		}
	}
}

// readLine reads one line without its CR/LF, discarding the rest of a
// line longer than max (tooLong).
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+2 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSpace(line), tooLong, err
	}
}

// decode returns the message of a line, or answers it with an error and
// returns nil.
func (c *lineConn) decode(line []byte, tooLong bool) jsonrpc.Message {
	switch {
	case tooLong:
		c.reject(nil, jsonrpc.CodeInvalidRequest, "message too large")
		return nil
	case !json.Valid(line):
		c.reject(nil, jsonrpc.CodeParseError, "parse error: not a JSON value")
		return nil
	case line[0] == '[':
		c.reject(nil, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported")
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		var probe struct {
			ID any `json:"id"`
		}
		json.Unmarshal(line, &probe) //nolint:errcheck
		switch probe.ID.(type) {
		case string, float64:
		default:
			probe.ID = nil
		}
		c.reject(probe.ID, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	if r, ok := msg.(*jsonrpc.Response); ok && r.Result == nil && r.Error == nil {
		// {"jsonrpc":"2.0","id":3}: no method, so not a request, and
		// neither result nor error, so not a response. The SDK would drop
		// it as a response to nothing; JSON-RPC says -32600.
		c.reject(r.ID.Raw(), jsonrpc.CodeInvalidRequest, `invalid request: no "method" (a request needs one; a response needs "result" or "error")`)
		return nil
	}
	return msg
}

func (c *lineConn) reject(id any, code int, msg string) {
	fmt.Fprintf(c.log, "engine mcp: rejected stdio frame: %s\n", msg)
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	c.writeLine(b) //nolint:errcheck
}

func (c *lineConn) writeLine(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(append(b, '\n'))
	return err
}

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m := <-c.incoming:
		if req, ok := m.(*jsonrpc.Request); ok && req.ID.IsValid() {
			c.pmu.Lock()
			c.pending[req.ID] = true
			c.pmu.Unlock()
		}
		return m, nil
	case <-c.closed:
		return nil, io.EOF
	case <-c.done:
	}
	for {
		c.pmu.Lock()
		n := len(c.pending)
		c.pmu.Unlock()
		if n == 0 {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case <-c.wake:
		}
	}
	if c.readErr != nil {
		return nil, c.readErr
	}
	return nil, io.EOF
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	err = c.writeLine(b)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.pmu.Lock()
		delete(c.pending, resp.ID)
		c.pmu.Unlock()
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}
	return err
}

func (c *lineConn) Close() error {
	c.once.Do(func() {
		close(c.closed)
		if cl, ok := c.in.(io.Closer); ok {
			cl.Close()
		}
	})
	return nil
}

func (c *lineConn) SessionID() string { return "" }

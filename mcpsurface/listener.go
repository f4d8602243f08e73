package mcpsurface

import (
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/enginehq/engine/providers/defaults"
)

// Defaults of the HTTP transport's connection bounds. A stalled client
// (headers sent, then nothing) holds a connection and a file descriptor
// until a timeout ends it; the connection bound keeps those descriptors
// well under a process's usual limit, whatever the clients do, and the
// timeouts free them.
const (
	// DefaultReadTimeout bounds reading one request, body included
	// (bodies are at most MaxBody, 1 MiB by default).
	DefaultReadTimeout = 30 * time.Second
	// DefaultWriteTimeout bounds writing one response: longer than the
	// default query timeout (2 minutes), so a tool call's streamed answer
	// (progress notifications, then the result) is not cut; a GET event
	// stream is closed after it and the client opens a new one.
	DefaultWriteTimeout = 10 * time.Minute
	// DefaultIdleTimeout closes a kept-alive connection with no request.
	DefaultIdleTimeout = 2 * time.Minute
	// DefaultMaxConnections bounds the connections served at once; more
	// wait in the listen queue until one closes.
	DefaultMaxConnections = 128
)

// HTTPServer returns the http.Server of the streamable HTTP transport:
// HTTPHandlerOpts(o) with the read, write, idle and header timeouts of o
// (zero: the defaults above; negative: none). Serve it on
// LimitListener(ln, o.MaxConnections).
func (s *Server) HTTPServer(o HTTPOptions) *http.Server {
	d := func(v, def time.Duration) time.Duration {
		switch {
		case v == 0:
			return def
		case v < 0:
			return 0
		}
		return v
	}
	return &http.Server{
		Handler:           s.HTTPHandlerOpts(o),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       d(o.ReadTimeout, DefaultReadTimeout),
		WriteTimeout:      d(o.WriteTimeout, DefaultWriteTimeout),
		IdleTimeout:       d(o.IdleTimeout, DefaultIdleTimeout),
	}
}

// LimitListener returns a listener that has at most n connections open
// at once (n <= 0: DefaultMaxConnections): Accept waits while n are open,
// so further clients wait in the kernel's listen queue, holding no file
// descriptor of the process, until a connection closes.
func LimitListener(ln net.Listener, n int) net.Listener {
	defaults.Set(&n, DefaultMaxConnections)
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

package fakegithub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// bufWriter captures a whole response in memory.
type bufWriter struct {
	header http.Header
	status int
	buf    bytes.Buffer
}

func (b *bufWriter) Header() http.Header { return b.header }
func (b *bufWriter) WriteHeader(c int) {
	if b.status == 0 {
		b.status = c
	}
}
func (b *bufWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.buf.Write(p)
}

// truncated renders the real response, then sends the status line, the
// headers with the full Content-Length and only half of the body before
// closing the connection.
func (s *Server) truncated(w *recorder, r *http.Request) {
	bw := &bufWriter{header: http.Header{}}
	s.mux.ServeHTTP(bw, r)
	body := bw.buf.Bytes()
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	defer conn.Close()
	w.status = http.StatusOK
	var head bytes.Buffer
	head.WriteString("HTTP/1.1 200 OK\r\n")
	bw.header.Set("Content-Length", strconv.Itoa(len(body)))
	bw.header.Del("Transfer-Encoding")
	bw.header.Set("Connection", "close")
	bw.header.Write(&head) //nolint:errcheck
	head.WriteString("\r\n")
	head.Write(body[:len(body)/2])
	conn.Write(head.Bytes()) //nolint:errcheck
}

// oversized streams a valid JSON array of repositories of about f.Size bytes.
func (s *Server) oversized(w http.ResponseWriter, f *Fault) {
	size := f.Size
	if size <= 0 {
		size = DefaultOversize
	}
	o, _ := s.org("acme")
	item, _ := json.Marshal(o.repo(0).repoJSON())
	s.setHeaders(w)
	w.WriteHeader(http.StatusOK)
	chunk := bytes.Repeat(append(item, ','), max(1, (64<<10)/(len(item)+1)))
	if _, err := w.Write([]byte("[")); err != nil {
		return
	}
	written := int64(1)
	for written+int64(len(chunk)) < size {
		n, err := w.Write(chunk)
		written += int64(n)
		if err != nil {
			return
		}
	}
	fmt.Fprintf(w, "%s]", item) //nolint:errcheck
}

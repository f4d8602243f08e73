package fakegithub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// bufWriter captures a whole response in memory (the ETag wrapper and the
// faults that rewrite a response read it whole before sending).
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

// rewriteFirstItem renders the real response and replaces one property of
// its first item (of a list, or the object itself) with a value that is
// valid JSON but unusable: 1e999 (KindHugeNumber) or arrays nested 1,500
// deep (KindDeepNesting). Everything else, headers included, is as served.
func (s *Server) rewriteFirstItem(w http.ResponseWriter, r *http.Request, kind FaultKind) {
	bw := &bufWriter{header: http.Header{}}
	s.mux.ServeHTTP(bw, r)
	body := bw.buf.Bytes()
	var list []map[string]json.RawMessage
	var one map[string]json.RawMessage
	item := one
	if json.Unmarshal(body, &list) == nil && len(list) > 0 {
		item = list[0]
	} else if json.Unmarshal(body, &one) == nil {
		item = one
	}
	if item != nil {
		switch kind {
		case KindHugeNumber:
			key := "stargazers_count"
			if _, ok := item[key]; !ok {
				key = "id"
			}
			item[key] = json.RawMessage("1e999")
		case KindDeepNesting:
			key := "topics"
			if _, ok := item[key]; !ok {
				key = "description"
			}
			item[key] = json.RawMessage(strings.Repeat("[", 1500) + strings.Repeat("]", 1500))
		}
		if list != nil {
			body, _ = json.Marshal(list)
		} else {
			body, _ = json.Marshal(one)
		}
	}
	for k, v := range bw.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(bw.status)
	w.Write(body) //nolint:errcheck
}

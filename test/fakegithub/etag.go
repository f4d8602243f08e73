package fakegithub

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
)

// etagWriter buffers a handler's response so that a 200 gets a weak ETag
// (a hash of the body, as GitHub sends), Cache-Control and Vary, and a
// request whose If-None-Match matches it gets 304 Not Modified without a
// body (see cachehdr.go).
type etagWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (e *etagWriter) Header() http.Header { return e.header }

func (e *etagWriter) WriteHeader(code int) {
	if e.status == 0 {
		e.status = code
	}
}

func (e *etagWriter) Write(b []byte) (int, error) {
	if e.status == 0 {
		e.status = http.StatusOK
	}
	return e.body.Write(b)
}

// serveWithETag runs h and writes its response to w, answering 304 when
// the client already holds the same body.
func serveWithETag(w http.ResponseWriter, r *http.Request, h http.Handler) {
	ew := &etagWriter{header: http.Header{}}
	h.ServeHTTP(ew, r)
	if ew.status == 0 {
		ew.status = http.StatusOK
	}
	for k, v := range ew.header {
		if _, set := w.Header()[k]; set && strings.HasPrefix(k, "X-Ratelimit-") {
			continue // the limiter's bucket headers (WithLimits)
		}
		w.Header()[k] = v
	}
	if ew.status != http.StatusOK || r.Method != http.MethodGet {
		w.WriteHeader(ew.status)
		w.Write(ew.body.Bytes()) //nolint:errcheck
		return
	}
	// Search answers are no-cache without a validator (see cachehdr.go).
	if w.Header().Get("Cache-Control") == cacheControlNoCache {
		w.Header().Set("Vary", "Accept, Accept-Encoding, Accept, X-Requested-With")
		w.WriteHeader(http.StatusOK)
		w.Write(ew.body.Bytes()) //nolint:errcheck
		return
	}
	sum := sha256.Sum256(ew.body.Bytes())
	etag := `W/"` + hex.EncodeToString(sum[:16]) + `"`
	w.Header().Set("ETag", etag)
	if w.Header().Get("Cache-Control") == "" {
		w.Header().Set("Cache-Control", cacheControlPrivate)
	}
	if w.Header().Get("Vary") == "" {
		w.Header().Set("Vary", varyGitHub)
	}
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.Header().Del("Content-Length")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(ew.body.Len()))
	w.WriteHeader(http.StatusOK)
	w.Write(ew.body.Bytes()) //nolint:errcheck
}

package fakegithub

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
)

// serveWithETag runs h and writes its response to w: a 200 gets a weak
// ETag (a hash of the body, as GitHub sends), Cache-Control and Vary, and
// a request whose If-None-Match matches it gets 304 Not Modified without
// a body (see cachehdr.go).
func serveWithETag(w http.ResponseWriter, r *http.Request, h http.Handler) {
	ew := &bufWriter{header: http.Header{}}
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
		w.Write(ew.buf.Bytes()) //nolint:errcheck
		return
	}
	// Search answers are no-cache without a validator (see cachehdr.go).
	if w.Header().Get("Cache-Control") == cacheControlNoCache {
		w.Header().Set("Vary", "Accept, Accept-Encoding, Accept, X-Requested-With")
		w.WriteHeader(http.StatusOK)
		w.Write(ew.buf.Bytes()) //nolint:errcheck
		return
	}
	sum := sha256.Sum256(ew.buf.Bytes())
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
	w.Header().Set("Content-Length", strconv.Itoa(ew.buf.Len()))
	w.WriteHeader(http.StatusOK)
	w.Write(ew.buf.Bytes()) //nolint:errcheck
}

package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// Bounds of a document read by Fetch or ReadDocument.
const (
	// MaxDocumentBytes is the largest document accepted (as read; a gzip
	// document is also bounded once decompressed, see providers/openapi).
	MaxDocumentBytes = 256 << 20
	// FetchTimeout bounds a whole download.
	FetchTimeout = 2 * time.Minute
)

// IsURL reports whether s names an http or https URL (anything else is a
// file path).
func IsURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// Fetch downloads a document from an http or https URL: at most maxBytes
// (<= 0: MaxDocumentBytes), within timeout (<= 0: FetchTimeout), and only
// a 200 answer. Redirects are followed (at most 10), to http(s) only.
func Fetch(ctx context.Context, rawURL string, maxBytes int64, timeout time.Duration) ([]byte, error) {
	if maxBytes <= 0 {
		maxBytes = MaxDocumentBytes
	}
	if timeout <= 0 {
		timeout = FetchTimeout
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http or https URL", rawURL)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "engine-registry")
	client := &http.Client{CheckRedirect: func(r *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("more than 10 redirects")
		}
		if r.URL.Scheme != "http" && r.URL.Scheme != "https" {
			return fmt.Errorf("redirect to %s URL refused", r.URL.Scheme)
		}
		return nil
	}}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("GET %s: no complete answer within %s", redact(u), timeout)
		}
		return nil, fmt.Errorf("GET %s: %w", redact(u), unwrapURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: HTTP %s (want 200)", redact(u), resp.Status)
	}
	if resp.ContentLength > maxBytes {
		return nil, fmt.Errorf("GET %s: the document is %d bytes, over the %d-byte limit", redact(u), resp.ContentLength, maxBytes)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("GET %s: no complete answer within %s", redact(u), timeout)
		}
		return nil, fmt.Errorf("GET %s: reading the answer: %w", redact(u), err)
	}
	if int64(len(data)) > maxBytes {
		return nil, fmt.Errorf("GET %s: the document is over the %d-byte limit", redact(u), maxBytes)
	}
	return data, nil
}

// ReadDocument reads a document from a file, bounded by maxBytes (<= 0:
// MaxDocumentBytes).
func ReadDocument(path string, maxBytes int64) ([]byte, error) {
	if maxBytes <= 0 {
		maxBytes = MaxDocumentBytes
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxBytes {
		return nil, fmt.Errorf("%s is over the %d-byte limit", path, maxBytes)
	}
	return data, nil
}

// redact drops a URL's user information and query (they may hold
// credentials) for messages.
func redact(u *url.URL) string {
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		c.RawQuery = "…"
	}
	return c.String()
}

// RedactURL is redact for a URL string (unparsable ones are cut to their
// scheme and host where possible).
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return redact(u)
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

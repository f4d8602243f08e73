package fakegithub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

const (
	defaultPerPage = 30
	maxPerPage     = 100
)

// pageParam is the page query parameter; 1 when absent or invalid.
func pageParam(r *http.Request) int {
	p, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || p < 1 {
		return 1
	}
	return p
}

// perPageParam is per_page: default 30, capped at 100.
func perPageParam(r *http.Request) int {
	p, err := strconv.Atoi(r.URL.Query().Get("per_page"))
	if err != nil || p < 1 {
		return defaultPerPage
	}
	return min(p, maxPerPage)
}

type ctxKey int

const linkLoopKey ctxKey = 1

func withLinkLoop(ctx context.Context) context.Context {
	return context.WithValue(ctx, linkLoopKey, true)
}

const linkElsewhereKey ctxKey = 3

func withLinkElsewhere(ctx context.Context, path string) context.Context {
	return context.WithValue(ctx, linkElsewhereKey, path)
}

// linkElsewhere returns the path the next link is bent to, or "".
func linkElsewhere(r *http.Request) string {
	v, _ := r.Context().Value(linkElsewhereKey).(string)
	return v
}

// Keys of the link_endless and link_huge_cursor faults.
const (
	linkEndlessKey ctxKey = 10
	hugeCursorKey  ctxKey = 11
)

func isLinkLoop(r *http.Request) bool {
	v, _ := r.Context().Value(linkLoopKey).(bool)
	return v
}

// pageURL is the absolute URL of this request with page replaced, built
// from the request Host like GitHub does.
func pageURL(r *http.Request, page int) string { return pageURLOnPath(r, r.URL.Path, page) }

// pageURLOnPath is pageURL with another path (the link_elsewhere fault).
func pageURLOnPath(r *http.Request, path string, page int) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	q := r.URL.Query()
	q.Del("page")
	enc := q.Encode()
	if enc != "" {
		enc += "&"
	}
	u := url.URL{Scheme: scheme, Host: r.Host, Path: path, RawQuery: enc + "page=" + strconv.Itoa(page)}
	return u.String()
}

// linkHeader builds an RFC 8288 Link value in GitHub's order (prev, next,
// last, first); "" when everything fits on page 1.
func linkHeader(r *http.Request, page, last int) string {
	var parts []string
	add := func(p int, rel string) {
		parts = append(parts, fmt.Sprintf("<%s>; rel=%q", pageURL(r, p), rel))
	}
	if page > 1 {
		add(min(page-1, max(last, 1)), "prev")
	}
	if page < last {
		add(page+1, "next")
	}
	if page != last && last > 1 {
		add(last, "last")
	}
	if page > 1 {
		add(1, "first")
	}
	return strings.Join(parts, ", ")
}

// window computes the item range [start, end) of the requested page over
// total items, and the last page number.
func window(r *http.Request, total int) (page, start, end, last int) {
	page, per := pageParam(r), perPageParam(r)
	last = max((total+per-1)/per, 1)
	start = total
	if page-1 <= total/per { // guards overflow for huge page numbers
		start = min((page-1)*per, total)
	}
	end = min(start+per, total)
	return page, start, end, last
}

// writeList writes one page of a list of total items; item(k) renders the
// k-th item (0-based, in response order). When wrapKey is not "", the page
// is wrapped as {"total_count": total, wrapKey: [...]} (Actions style).
func (s *Server) writeList(w http.ResponseWriter, r *http.Request, total int, wrapKey string, item func(k int) any) {
	s.writeListPrefix(w, r, total, wrapKey, "", item)
}

// writeListPrefix is writeList with extra members (JSON text ending in a
// comma, e.g. `"incomplete_results":false,`) written after total_count in
// a wrapped page.
func (s *Server) writeListPrefix(w http.ResponseWriter, r *http.Request, total int, wrapKey, extra string, item func(k int) any) {
	s.writeListServed(w, r, total, total, wrapKey, extra, item)
}

// writeListServed is writeListPrefix for a list of total items of which
// only the first served are served (pages and Link stop there; a
// search's cap).
func (s *Server) writeListServed(w http.ResponseWriter, r *http.Request, total, served int, wrapKey, extra string, item func(k int) any) {
	page, start, end, last := window(r, served)
	var buf bytes.Buffer
	if wrapKey != "" {
		fmt.Fprintf(&buf, `{"total_count":%d,%s%q:`, total, extra, wrapKey)
	}
	buf.WriteByte('[')
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for k := start; k < end; k++ {
		if k > start {
			buf.WriteByte(',')
		}
		if err := enc.Encode(item(k)); err != nil {
			writeError(s, w, r, http.StatusInternalServerError, "Server Error")
			return
		}
		buf.Truncate(buf.Len() - 1) // Encoder adds '\n'
	}
	buf.WriteByte(']')
	if wrapKey != "" {
		buf.WriteByte('}')
	}
	s.setHeaders(w)
	if isLinkLoop(r) {
		w.Header().Set("Link", fmt.Sprintf("<%s>; rel=\"next\"", pageURL(r, page)))
	} else if n, _ := r.Context().Value(hugeCursorKey).(int); n > 0 {
		w.Header().Set("Link", fmt.Sprintf("<%s&cursor=%s>; rel=\"next\"", pageURL(r, page+1), strings.Repeat("A", n)))
	} else if endless, _ := r.Context().Value(linkEndlessKey).(bool); endless {
		w.Header().Set("Link", fmt.Sprintf("<%s>; rel=\"next\"", pageURL(r, page+1)))
	} else if other := linkElsewhere(r); other != "" && page < last {
		w.Header().Set("Link", fmt.Sprintf("<%s>; rel=\"next\"", pageURLOnPath(r, other, page+1)))
	} else if l := linkHeader(r, page, last); l != "" {
		w.Header().Set("Link", l)
	}
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(http.StatusOK)
	w.Write(buf.Bytes()) //nolint:errcheck
}

// writeSlice is writeList over a materialised slice.
func writeSlice[T any](s *Server, w http.ResponseWriter, r *http.Request, items []T) {
	s.writeList(w, r, len(items), "", func(k int) any { return items[k] })
}

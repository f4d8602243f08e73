package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/buger/jsonparser"

	"github.com/enginehq/engine/providers"
)

// callStats are the counters of one Do, updated from page goroutines.
type callStats struct{ requests, pages, cacheHits, revalidated, parts, shared atomic.Int64 }

func (s *callStats) snapshot() Stats {
	return Stats{Requests: int(s.requests.Load()), Pages: int(s.pages.Load()), CacheHits: int(s.cacheHits.Load()), Revalidated: int(s.revalidated.Load()), Parts: int(s.parts.Load()), Shared: int(s.shared.Load())}
}

// Do executes the call, following pagination, and calls emit with each
// page's items in page order, serially (never concurrently). It returns
// nil only when every page was fetched and decoded. On error, items already
// emitted are an incomplete result that the caller must discard. An error
// returned by emit stops the call and is returned as is. A status listed in
// Method.AbsentStatuses on the first page means no items and no error.
// Context cancellation returns ctx.Err() promptly and stops all in-flight
// requests.
func (c *Client) Do(ctx context.Context, call Call, emit func(items []json.RawMessage) error) (Stats, error) {
	var stats callStats
	first, err := c.buildURL(call)
	if err != nil {
		return Stats{}, err
	}
	if err := ctx.Err(); err != nil {
		return Stats{}, err
	}
	p := &pager{c: c, call: call, emit: emit, stats: &stats, visited: map[string]bool{}, cursors: map[string]bool{}}
	p.whole = call.Method != nil && call.Method.Shape == providers.ShapeObject
	err = p.run(ctx, first)
	if err == nil && p.held != nil {
		err = p.emit([]json.RawMessage{p.held})
	}
	return stats.snapshot(), err
}

// pager is the state of one Do.
type pager struct {
	c       *Client
	call    Call
	emit    func([]json.RawMessage) error
	stats   *callStats
	visited map[string]bool // normalized URLs requested
	cursors map[string]bool // cursors received (body paging, pages_body.go)
	pages   int             // pages emitted
	items   int             // items emitted
	// whole: the answer is one object (ShapeObject) that may still page
	// (GitHub's commit, 300 files a page, each page the whole commit
	// with its slice of files): its pages are one row, held until the
	// last page, with the arrays the pages differ in joined (mergePage).
	whole bool
	held  json.RawMessage
	// seen holds the keys of the results emitted by a split query
	// (capsplit.go); nil otherwise.
	seen map[string]struct{}
	keys []string // the item paths of a result's key
	// counted is the number of elements of the method's count-cap
	// property over the call's pages (Method.CountCap).
	counted atomic.Int64
}

func (p *pager) run(ctx context.Context, first string) error {
	firstURL, err := url.Parse(first)
	if err != nil {
		return p.c.newError(p.call, first, "transport", "invalid request URL")
	}
	p.visited[urlKey(firstURL)] = true
	items, cur, absent, err := p.getPage(ctx, first, true)
	if err != nil || absent {
		return err
	}
	if total, over := p.overCap(cur); over {
		return p.split(ctx, firstURL, cur, total) // capsplit.go
	}
	if err := p.emitPage(items); err != nil {
		return err
	}
	return p.follow(ctx, cur, items)
}

// follow fetches the pages after cur (whose items were emitted) until the
// last one, or until the call's limit is reached.
func (p *pager) follow(ctx context.Context, cur *response, items []json.RawMessage) error {
	fresh := true // cur is the first page of this run of pages
	var err error
	for {
		if p.call.Limit > 0 && p.items >= p.call.Limit && !p.whole {
			return nil
		}
		links := ParseLink(strings.Join(cur.header.Values("Link"), ", "))
		var next *url.URL
		if links["next"] == "" {
			// No Link: the body may hold the next page (pages_body.go),
			// or say there is more without a known way to get it.
			n, done, err := p.nextFromBody(cur, items)
			if err == nil && done {
				err = p.countCapReached(ctx, cur)
			}
			if err != nil || done {
				return err
			}
			next = n
		} else if next, err = p.resolve(cur, links["next"]); err != nil {
			return err
		}
		if p.pages >= p.c.opts.MaxPages {
			return p.limitError(next.String(), 0)
		}
		if links["next"] != "" && fresh && p.call.Limit == 0 && links["last"] != "" {
			if last, err := cur.url.Parse(links["last"]); err == nil {
				if from, to, ok := numberedPages(next, last); ok {
					if p.pages+to-from+1 > p.c.opts.MaxPages {
						return p.limitError(next.String(), p.pages+to-from+1)
					}
					if err := p.c.reserve(ctx, next.Path, to-from+1); err != nil {
						return err
					}
					if cur, err = p.concurrent(ctx, next, from, to); err != nil {
						return err
					}
					items, fresh = nil, false
					continue
				}
			}
		}
		fresh = false
		p.visited[urlKey(next)] = true
		prev := cur
		if items, cur, _, err = p.getPage(ctx, next.String(), false); err != nil {
			return err
		}
		if links["next"] == "" && len(items) > 0 && bytes.Equal(bytes.TrimSpace(cur.body), bytes.TrimSpace(prev.body)) {
			// Paging in the body, and the next page is the page before,
			// byte for byte: the provider ignored the paging parameter
			// (an offset, a page number, a cursor), so its rows would
			// repeat; a loop, never rows.
			return p.pagingError(cur, fmt.Sprintf("pagination loop: the page at %s is the same as the page before it (the provider ignored the paging parameter), so its rows would repeat", p.c.sanitize(next.String())))
		}
		if err := p.emitPage(items); err != nil {
			return err
		}
	}
}

func (p *pager) emitPage(items []json.RawMessage) error {
	p.pages++
	if p.seen != nil {
		items = p.unseen(items) // a split: each result once (capsplit.go)
	}
	if p.whole && len(items) == 1 {
		if p.held == nil {
			p.held, p.items = items[0], 1
		} else if merged, err := mergePage(p.held, items[0]); err != nil {
			return p.c.newError(p.call, "", "decode", "a later page of one object: "+err.Error())
		} else {
			p.held = merged
		}
	} else {
		p.items += len(items)
		if err := p.emit(items); err != nil {
			return err
		}
	}
	if p.call.OnPage != nil {
		p.call.OnPage(p.pages)
	}
	return nil
}

// mergePage joins a later page of one object to the pages before it:
// each array the page holds that differs from the one held (a commit's
// files) is appended to it; arrays every page repeats (its parents) and
// every other field are the first page's.
func mergePage(held, page json.RawMessage) (json.RawMessage, error) {
	var firstErr error
	err := jsonparser.ObjectEach(page, func(key, value []byte, typ jsonparser.ValueType, _ int) error {
		if typ != jsonparser.Array {
			return nil
		}
		have, htyp, _, err := jsonparser.Get(held, string(key))
		if err != nil || htyp != jsonparser.Array {
			return nil // not an array on the first page: keep the first page's
		}
		if bytes.Equal(bytes.TrimSpace(have), bytes.TrimSpace(value)) {
			return nil
		}
		inner := bytes.TrimSpace(value)
		inner = bytes.TrimSpace(inner[1 : len(inner)-1])
		if len(inner) == 0 {
			return nil
		}
		joined := bytes.TrimSpace(have)
		joined = append([]byte{}, joined[:len(joined)-1]...)
		if len(bytes.TrimSpace(joined[1:])) > 0 {
			joined = append(joined, ',')
		}
		joined = append(append(joined, inner...), ']')
		held, err = jsonparser.Set(held, joined, string(key))
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return nil
	})
	if err == nil {
		err = firstErr
	}
	return held, err
}

// getPage fetches and decodes one page. absent reports a declared absent
// status on the first page.
func (p *pager) getPage(ctx context.Context, u string, first bool) (items []json.RawMessage, r *response, absent bool, err error) {
	c := p.c
	r, err = c.sharedFetch(ctx, p.call, u, p.stats)
	if err != nil {
		return nil, nil, false, err
	}
	if f, failed := failedIn200(c.prof, r.body); failed && r.status >= 200 && r.status <= 299 {
		return nil, nil, false, c.in200Error(p.call, r, f) // errin200.go
	}
	if r.status < 200 || r.status > 299 {
		// "No rows" only for the answer the method documents (status and
		// message), on the first page, and never through a redirect.
		if first && !r.redirected && p.call.Method.IsAbsent(r.status, apiMessageOf(c.prof, r.body)) {
			return nil, r, true, nil
		}
		return nil, nil, false, c.statusError(p.call, r)
	}
	items, derr := decodeItems(p.call.Method, r.status, r.body, r.header.Get("Content-Type"))
	if derr != nil {
		pe := c.newError(p.call, r.url.String(), "decode", derr.Error())
		pe.Status = r.status
		pe.Body = providers.TruncateUTF8(c.redact(string(r.body)), bodyExcerpt)
		pe.Attempts = r.attempts
		return nil, nil, false, pe
	}
	if markedPartial(p.call.Method, r.body) {
		pe := c.newError(p.call, r.url.String(), "incomplete",
			fmt.Sprintf("the provider marked this answer as partial (%q: true; GitHub's search timed out before it found every match): the rows would be incomplete; retry, or narrow the query", p.call.Method.IncompleteFlag))
		pe.Status = r.status
		pe.Retryable = true
		pe.Attempts = r.attempts
		return nil, nil, false, pe
	}
	if pm := p.call.Method.Partial; pm != nil && markedCut(pm, r.body) {
		msg := fmt.Sprintf("the provider marked this answer as cut short (%q: %s): %s; the rows would be incomplete", pm.Property, pm.Value, pm.Reason)
		if pm.Advice != "" {
			msg += "; " + pm.Advice
		}
		pe := c.newError(p.call, r.url.String(), "incomplete", msg)
		pe.Status = r.status
		pe.Attempts = r.attempts
		return nil, nil, false, pe
	}
	if cc := p.call.Method.CountCap; cc != nil && cc.Property != "" {
		if v, typ, _, err := jsonparser.Get(r.body, pathParts(cc.Property)...); err == nil && typ == jsonparser.Array {
			n := 0
			jsonparser.ArrayEach(v, func([]byte, jsonparser.ValueType, int, error) { n++ }) //nolint:errcheck
			p.counted.Add(int64(n))
		}
	}
	p.stats.pages.Add(1)
	c.pages.Add(1)
	if r.shared {
		p.stats.shared.Add(1)
		c.shared.Add(1)
	}
	return items, r, false, nil
}

// resolve turns a next link into an absolute URL on the base origin that
// was not requested before.
func (p *pager) resolve(cur *response, raw string) (*url.URL, error) {
	next, err := cur.url.Parse(raw)
	if err != nil {
		return nil, p.linkError(cur, "response has an unparseable Link rel=\"next\" URL")
	}
	if !sameOrigin(next, p.c.base) {
		return nil, p.linkError(cur,
			fmt.Sprintf("refusing to follow Link rel=\"next\" to %s: it leaves %s", p.c.sanitize(next.Scheme+"://"+next.Host), p.c.sanitize(p.c.base.Scheme+"://"+p.c.base.Host)))
	}
	if !samePagePath(cur.url, next) {
		return nil, p.linkError(cur,
			fmt.Sprintf("refusing to follow Link rel=\"next\" to %s: it leaves the request's path %s, so its rows would not be this query's rows", p.c.sanitize(next.EscapedPath()), p.c.sanitize(cur.url.EscapedPath())))
	}
	if p.visited[urlKey(next)] {
		return nil, p.linkError(cur,
			fmt.Sprintf("pagination loop: Link rel=\"next\" points to %s, which was already fetched", p.c.sanitize(next.String())))
	}
	return next, nil
}

func (p *pager) limitError(u string, total int) error {
	return &PageLimitError{Provider: p.c.provider, URL: p.c.sanitize(u), Limit: p.c.opts.MaxPages, Total: total}
}

// concurrent fetches pages from..to (URLs made from tmpl by setting page)
// in page order and emits them in order. The pages in flight or waiting
// to be emitted take slots of the client's page budget (PageConcurrency,
// by default the credential's --max-concurrency), shared by every call of
// the client: one call may use the credential's whole concurrency, and
// the calls of a fan-out together hold no more pages than one. It returns
// the last page's response, whose Link header may still point further
// (the list grew meanwhile).
func (p *pager) concurrent(parent context.Context, tmpl *url.URL, from, to int) (*response, error) {
	n := to - from + 1
	urls := make([]string, n)
	for i := range urls {
		u := withPage(tmpl, from+i)
		p.visited[urlKey(u)] = true
		urls[i] = u.String()
	}
	type result struct {
		items []json.RawMessage
		r     *response
		err   error
	}
	results := make([]chan result, n)
	for i := range results {
		results[i] = make(chan result, 1)
	}
	ctx, cancel := context.WithCancel(parent)
	slots := p.c.pageSlots
	var held atomic.Int64 // slots taken and not given back
	defer func() {        // runs last, when no goroutine is left
		for ; held.Load() > 0; held.Add(-1) {
			<-slots
		}
	}()
	var wg sync.WaitGroup
	defer wg.Wait() // runs after cancel: no goroutine outlives Do
	defer cancel()
	wg.Go(func() { // dispatcher
		for i := range n {
			select {
			case slots <- struct{}{}:
				held.Add(1)
			case <-ctx.Done():
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				items, r, _, err := p.getPage(ctx, urls[i], false)
				results[i] <- result{items, r, err}
			}()
		}
	})
	var last *response
	for i := range n {
		var res result
		select {
		case res = <-results[i]:
		case <-ctx.Done():
			return nil, parent.Err()
		}
		if res.err != nil {
			return nil, res.err
		}
		<-slots
		held.Add(-1)
		if err := p.emitPage(res.items); err != nil {
			return nil, err
		}
		last = res.r
	}
	return last, nil
}

// numberedPages reports whether next and last differ only in an integer
// page query value, and returns the page range they span.
func numberedPages(next, last *url.URL) (from, to int, ok bool) {
	if !strings.EqualFold(next.Scheme, last.Scheme) || !strings.EqualFold(next.Host, last.Host) || next.EscapedPath() != last.EscapedPath() {
		return 0, 0, false
	}
	nq, lq := next.Query(), last.Query()
	if len(nq["page"]) != 1 || len(lq["page"]) != 1 {
		return 0, 0, false
	}
	from, err1 := strconv.Atoi(nq.Get("page"))
	to, err2 := strconv.Atoi(lq.Get("page"))
	if err1 != nil || err2 != nil || from < 2 || to < from {
		return 0, 0, false
	}
	nq.Del("page")
	lq.Del("page")
	if nq.Encode() != lq.Encode() {
		return 0, 0, false
	}
	return from, to, true
}

func withPage(tmpl *url.URL, page int) *url.URL {
	u := *tmpl
	q := u.Query()
	q.Set("page", strconv.Itoa(page))
	u.RawQuery = q.Encode()
	return &u
}

// urlKey normalizes a URL for loop detection: query parameters sorted.
func urlKey(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host) + u.EscapedPath() + "?" + u.Query().Encode()
}

// repoPrefix matches GitHub's two spellings of a repository's path prefix:
// /repos/{owner}/{repo} and /repositories/{id}. GitHub may write the Link
// header of a repository's list in the second form.
var repoPrefix = regexp.MustCompile(`^(.*?)/(repos/[^/]+/[^/]+|repositories/[0-9]+)(/.*)?$`)

// samePagePath reports whether next stays on cur's path: pagination changes
// only the query. The one exception is GitHub's /repositories/{id}
// spelling of /repos/{owner}/{repo} (the id cannot be checked here): a
// change between the two spellings with the rest equal is allowed; two
// different /repos/{owner}/{repo} (or two different ids) are not.
func samePagePath(cur, next *url.URL) bool {
	a, b := cur.EscapedPath(), next.EscapedPath()
	if a == b {
		return true
	}
	ma, mb := repoPrefix.FindStringSubmatch(a), repoPrefix.FindStringSubmatch(b)
	if ma == nil || mb == nil || ma[1] != mb[1] || ma[3] != mb[3] {
		return false
	}
	return strings.HasPrefix(ma[2], "repos/") != strings.HasPrefix(mb[2], "repos/")
}

// markedPartial reports whether a 2xx body carries the method's
// incomplete flag set to true (GitHub search: "incomplete_results").
func markedPartial(m *providers.Method, body []byte) bool {
	if m == nil || m.IncompleteFlag == "" {
		return false
	}
	v, err := jsonparser.GetBoolean(body, m.IncompleteFlag)
	return err == nil && v
}

// markedCut reports whether a 2xx body holds the method's partial marker:
// the value at its property equals the marker's value.
func markedCut(pm *providers.PartialMarker, body []byte) bool {
	raw, typ, _, err := jsonparser.Get(body, pathParts(pm.Property)...)
	if err != nil || typ == jsonparser.NotExist {
		return false
	}
	if typ == jsonparser.String {
		q, err := json.Marshal(string(raw))
		if err != nil {
			return false
		}
		if s, err := jsonparser.ParseString(raw); err == nil {
			q, _ = json.Marshal(s)
		}
		raw = q
	}
	return string(raw) == pm.Value
}

// countCapReached is the end of a call whose method has a count cap
// (Method.CountCap: GitHub stops a pull request's files at 3,000, a
// directory at 1,000 entries, a comparison's files at 300, without a
// marker): a call that reached it is an error of kind "incomplete" naming
// the cap and the way round, since the rows past it were never served;
// for a window the provider documents (events), a notice beside the
// rows. A complete answer of exactly the cap cannot be told from a cut
// one, so it fails closed too.
func (p *pager) countCapReached(ctx context.Context, cur *response) error {
	cc := p.call.Method.CountCap
	if cc == nil {
		return nil
	}
	n, what := p.items, "rows"
	if cc.Property != "" {
		n, what = int(p.counted.Load()), fmt.Sprintf("entries of %q", cc.Property)
	}
	if n < cc.Max {
		return nil
	}
	if cc.Notice {
		noticeSay(ctx, fmt.Sprintf("%s's answer of operation %q reached %d %s: %s", p.c.provider, opName(p.call.Method), cc.Max, what, cc.Reason))
		return nil
	}
	msg := fmt.Sprintf("the answer reached %d %s, where the provider stops without saying so (%s): the rows may be incomplete", cc.Max, what, cc.Reason)
	if cc.Advice != "" {
		msg += "; " + cc.Advice
	}
	pe := p.c.newError(p.call, cur.url.String(), "incomplete", msg)
	pe.Status = cur.status
	pe.Attempts = cur.attempts
	return pe
}

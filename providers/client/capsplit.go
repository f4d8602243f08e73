package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/buger/jsonparser"

	"github.com/enginehq/engine/providers"
)

// Result caps (providers.ResultCap, the profile's "result_cap"): a
// provider may serve only the first Max results of one query while its
// body counts every match (GitHub search: 1,000, "total_count"). When the
// first page counts more than Max and the call needs more than Max (no
// limit, or a limit above it), the answer is complete only if every match
// is fetched:
//
//   - A method without a split, or a query the engine cannot split, fails
//     with an error of kind "incomplete" naming both counts and how to
//     narrow the query; never the first Max rows as if they were all.
//   - Otherwise the query is split into date ranges of the method's date
//     qualifier (q + " created:FROM..TO"): it starts where the first
//     page's oldest item says the matches begin (firstPieces), and a
//     range still over the cap is bisected, using
//     each range's first page and its match count, until every range's
//     matches fit under Max. Each fitting range is a part: its first page
//     is kept (emitted), its further pages are fetched once every part is
//     known. Results are kept once by the method's key (id), and the call
//     fails ("incomplete") when the parts hold fewer distinct results than
//     the first page counted.
//   - The range covers the whole time line: from the profile's earliest
//     date (the provider's epoch, GitHub 2007-10-01: nothing is older, so
//     no range before it is ever asked for) to now, with an open-ended
//     range after it. The user's
//     own qualifier stays in the query (the provider applies it as
//     written) and bounds the range, widened by a day on each side so that
//     no reading of its time zone narrows what it matches.
//   - Rate limits: right after the first page the split needs at least one
//     request per page of every match (a lower bound); once the parts are
//     known it needs exactly one per further page. Both counts are checked
//     against the method's bucket (checkSplitBudget) before anything more
//     is sent.

// overCap returns the first page's match count and whether it is more
// than the method's cap while the call needs more results than the cap.
func (p *pager) overCap(cur *response) (int, bool) {
	m := p.call.Method
	if m == nil || m.Cap == nil || m.Cap.Max <= 0 || cur == nil {
		return 0, false
	}
	total, ok := intAt(cur.body, m.Cap.Total)
	if !ok || total <= m.Cap.Max || (p.call.Limit > 0 && p.call.Limit <= m.Cap.Max) {
		return total, false
	}
	return total, true
}

// span is a range of the split qualifier's dates, both ends included
// (whole seconds); an open end is "*".
type span struct {
	lo, hi         time.Time
	openLo, openHi bool
}

const qualifierTime = "2006-01-02T15:04:05-07:00"

func (s span) qualifier(name string) string {
	lo, hi := "*", "*"
	if !s.openLo {
		lo = s.lo.UTC().Format(qualifierTime)
	}
	if !s.openHi {
		hi = s.hi.UTC().Format(qualifierTime)
	}
	return name + ":" + lo + ".." + hi
}

// halves splits s in two (earlier first); ok is false when s is one
// second. An open end is split at from (before) or now (after), and by
// ten years when s lies wholly beyond them.
func (s span) halves(from, now time.Time) (a, b span, ok bool) {
	switch {
	case s.openLo && s.openHi:
		return span{hi: from.Add(-time.Second), openLo: true}, span{lo: from, openHi: true}, true
	case s.openLo:
		pivot := from
		if pivot.After(s.hi) {
			pivot = s.hi.AddDate(-10, 0, 0)
		}
		return span{hi: pivot.Add(-time.Second), openLo: true}, span{lo: pivot, hi: s.hi}, true
	case s.openHi:
		pivot := now
		if s.lo.After(pivot) {
			pivot = s.lo.AddDate(10, 0, 0)
		}
		return span{lo: s.lo, hi: pivot}, span{lo: pivot.Add(time.Second), openHi: true}, true
	case !s.lo.Before(s.hi):
		return span{}, span{}, false
	}
	mid := s.lo.Add(s.hi.Sub(s.lo) / 2).Truncate(time.Second)
	if mid.Before(s.lo) {
		mid = s.lo
	}
	return span{lo: s.lo, hi: mid}, span{lo: mid.Add(time.Second), hi: s.hi}, true
}

// firstPieces is where the split starts when the method names its items'
// date (CapSplit.Field): the first page's items match the query, so the
// oldest of them, oldest, bounds where the matches begin. The range
// before it is one piece (few matches, if any), and the rest, up to now,
// is cut into as many equal pieces as total matches need at four fifths
// of the cap each (the last open-ended when root is: nothing is newer
// than now), so that a search
// of 2,500 matches takes about its 25 pages and a few more, instead of
// bisecting from the provider's epoch. nil: bisect root.
func (p *pager) firstPieces(cur *response, root span, from, now time.Time, total int) []span {
	cp := p.call.Method.Cap
	if cp.Split.Field == "" {
		return nil
	}
	items, err := decodeItems(p.call.Method, cur.status, cur.body, cur.header.Get("Content-Type"))
	if err != nil || len(items) == 0 {
		return nil
	}
	var oldest time.Time
	for _, it := range items {
		v := stringAt(it, cp.Split.Field)
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return nil // an item without the date: no estimate
		}
		if oldest.IsZero() || t.Before(oldest) {
			oldest = t
		}
	}
	oldest = oldest.UTC().Truncate(time.Second)
	hi := now
	if !root.openHi {
		hi = root.hi
	}
	if root.openLo || !oldest.After(root.lo) || !oldest.Before(hi) || oldest.Before(from) {
		return nil
	}
	target := max(cp.Max*4/5, 1)
	k := max((total+target-1)/target, 1)
	pieces := []span{{lo: root.lo, hi: oldest.Add(-time.Second)}}
	step := hi.Sub(oldest) / time.Duration(k)
	if step < time.Second {
		return nil
	}
	lo := oldest
	for i := range k {
		end := lo.Add(step).Truncate(time.Second)
		switch {
		case i == k-1 && root.openHi:
			pieces = append(pieces, span{lo: lo, openHi: true})
			return pieces
		case i == k-1:
			end = hi
		}
		pieces = append(pieces, span{lo: lo, hi: end})
		lo = end.Add(time.Second)
	}
	return pieces
}

// part is a range whose matches fit under the cap and that has further
// pages: its first page's response (without the body) and match count.
type part struct {
	r     *response
	total int
}

// split fetches every match of a query whose first page (cur) counted
// total > the cap, by date ranges (see the comment at the top).
func (p *pager) split(ctx context.Context, first *url.URL, cur *response, total int) error {
	cp := p.call.Method.Cap
	sp := cp.Split
	if sp == nil {
		return p.capError(cur, total, cp.Advice)
	}
	q := first.Query().Get(sp.Param)
	if why := unsplittable(q); why != "" {
		return p.capError(cur, total, fmt.Sprintf("the engine cannot split this search by %s: ranges: %s", sp.Qualifier, why))
	}
	from, err := time.Parse(time.DateOnly, sp.From)
	if err != nil {
		return p.capError(cur, total, "the provider's profile has no usable earliest date for the split")
	}
	perPage, _ := strconv.Atoi(first.Query().Get("per_page"))
	if perPage <= 0 {
		perPage = p.c.opts.PerPage
	}
	pagesOf := func(n int) int { return max((n+perPage-1)/perPage, 1) }
	if n := pagesOf(total); n > p.c.opts.MaxPages {
		return p.limitError(cur.url.String(), n)
	}
	if err := p.checkSplitBudget(ctx, cur, total, pagesOf(total), false); err != nil {
		return err
	}
	prog := &splitProgress{provider: p.c.provider, total: total, served: cp.Max}
	prog.sent.Store(1) // the first page; the governor's hook counts the others
	prog.planned.Store(int64(1 + pagesOf(total)))
	ctx = withSplit(ctx, prog)
	now := time.Now().UTC().Truncate(time.Second)
	root := userSpan(q, sp.Qualifier)
	if root.openLo && (root.openHi || !root.hi.Before(from)) {
		// Nothing is older than the provider's epoch (GitHub 2007-10-01):
		// the range starts there, and no request asks for the time
		// before it.
		root.lo, root.openLo = from, false
	}
	p.seen = map[string]struct{}{}
	p.keys = sp.Key

	// Phase 1: bisect until every range fits; emit each part's first page.
	var stack []span
	push := func(s span) error {
		if s.openLo && s.hi.Before(from) {
			return p.capError(cur, total, fmt.Sprintf("the search's range (%s) lies before the provider's earliest date %s, where the engine does not split", s.qualifier(sp.Qualifier), sp.From))
		}
		a, b, ok := s.halves(from, now)
		if !ok {
			return p.capError(cur, total, fmt.Sprintf("one second (%s) alone matches more than %d, so even the engine's split by %s: cannot get them all", s.qualifier(sp.Qualifier), cp.Max, sp.Qualifier))
		}
		stack = append(stack, b, a) // a (earlier) is fetched first
		return nil
	}
	if first := p.firstPieces(cur, root, from, now, total); len(first) > 0 {
		for i := len(first) - 1; i >= 0; i-- {
			stack = append(stack, first[i]) // the earliest is fetched first
		}
	} else if err := push(root); err != nil {
		return err
	}
	var parts []part
	wasted := 1 // pages not emitted: the first, and ranges over the cap
	for len(stack) > 0 {
		if p.call.Limit > 0 && p.items >= p.call.Limit {
			break
		}
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		u := withParam(first, sp.Param, strings.TrimSpace(q)+" "+s.qualifier(sp.Qualifier))
		if wasted+p.pages >= p.c.opts.MaxPages {
			return p.limitError(u.String(), 0)
		}
		p.visited[urlKey(u)] = true
		items, r, _, err := p.getPage(ctx, u.String(), false)
		if err != nil {
			return err
		}
		n, ok := intAt(r.body, cp.Total)
		if !ok {
			return p.c.newError(p.call, r.url.String(), "decode", fmt.Sprintf("a part of the split search has no %q: the engine cannot tell whether it holds every match", cp.Total))
		}
		if n > cp.Max {
			prog.planned.Add(1) // a range that did not fit: one request more
			wasted++
			if err := push(s); err != nil {
				return err
			}
			continue
		}
		p.stats.parts.Add(1)
		if err := p.emitPage(items); err != nil {
			return err
		}
		if n > len(items) {
			kept := *r
			kept.body = nil // its items are in; only the Link header is followed
			parts = append(parts, part{r: &kept, total: n})
		}
	}

	// Phase 2: the further pages of every part, once their number is known.
	need := 0
	for _, pt := range parts {
		need += pagesOf(pt.total) - 1
	}
	if err := p.checkSplitBudget(ctx, cur, total, need, true); err != nil {
		return err
	}
	prog.planned.Store(prog.sent.Load() + int64(need))
	prog.exact.Store(true)
	for _, pt := range parts {
		if p.call.Limit > 0 && p.items >= p.call.Limit {
			return nil
		}
		if err := p.follow(ctx, pt.r, nil); err != nil {
			return err
		}
	}
	if (p.call.Limit == 0 || p.items < p.call.Limit) && p.items < total {
		pe := p.c.newError(p.call, cur.url.String(), "incomplete", fmt.Sprintf(
			"the search matched %d results but its %s: ranges returned only %d distinct ones (the matches changed while the engine read them): the rows would be incomplete; retry", total, sp.Qualifier, p.items))
		pe.Status, pe.Retryable = cur.status, true
		return pe
	}
	return nil
}

// unseen drops the items whose key was emitted before (a split query).
func (p *pager) unseen(items []json.RawMessage) []json.RawMessage {
	out := items[:0:0]
	for _, it := range items {
		k := itemKey(it, p.keys)
		if k == "" {
			out = append(out, it) // no key to compare: kept
			continue
		}
		if _, dup := p.seen[k]; dup {
			continue
		}
		p.seen[k] = struct{}{}
		out = append(out, it)
	}
	return out
}

// itemKey joins the item's values at the key paths ("" when one is
// missing).
func itemKey(item []byte, paths []string) string {
	var b strings.Builder
	for _, path := range paths {
		v, typ, _, err := jsonparser.Get(item, strings.Split(path, ".")...)
		if err != nil || typ == jsonparser.NotExist || typ == jsonparser.Null {
			return ""
		}
		b.Write(v)
		b.WriteByte(0)
	}
	return b.String()
}

// capError is the error of a query over the cap that the engine cannot
// complete: kind "incomplete", not retryable.
func (p *pager) capError(cur *response, total int, why string) error {
	cp := p.call.Method.Cap
	msg := fmt.Sprintf("the query matched %d results (%q) but the provider serves only the first %d of one query: the rows would be incomplete", total, cp.Total, cp.Max)
	if why != "" {
		msg += "; " + why
	}
	msg += fmt.Sprintf("; or read at most %d rows with LIMIT (a plain SELECT without ORDER BY or aggregates)", cp.Max)
	pe := p.c.newError(p.call, cur.url.String(), "incomplete", msg)
	pe.Attempts = cur.attempts
	return pe
}

// checkSplitBudget refuses a split whose need further requests the
// method's rate-limit bucket cannot serve: when fewer remain than needed
// and the reset is further than the retry budget (Client.CheckBudget), or
// when the bucket cannot give that many before the statement's deadline:
// what remains until the reset plus, with the refill period the profile
// declares (rate_limit.windows), its limit at each refill before the
// deadline. exact says whether need is the count once the parts are known
// (else the lower bound of the first page).
func (p *pager) checkSplitBudget(ctx context.Context, cur *response, total, need int, exact bool) error {
	if need <= 0 {
		return nil
	}
	path := p.call.Method.Path
	if err := p.c.CheckBudget(ctx, path, need); err != nil {
		if pe, ok := err.(*providers.ProviderError); ok {
			pe.Message = fmt.Sprintf("the search matched %d results, more than the %d the provider serves of one query, so the engine must split it: %s",
				total, p.call.Method.Cap.Max, strings.Replace(pe.Message, "nothing was sent", "nothing more was sent", 1))
		}
		return err
	}
	b, ok := p.c.Budget(path)
	deadline, bounded := ctx.Deadline()
	if !ok || !bounded {
		return nil
	}
	now := time.Now()
	capacity := b.Remaining
	if deadline.After(b.Reset) {
		w := p.c.prof.BucketWindow(b.Bucket)
		if w <= 0 {
			return nil // refills unknown: the pacing decides
		}
		capacity += b.Limit * (int(deadline.Sub(b.Reset)/w) + 1)
	}
	if need <= capacity {
		return nil
	}
	what := "at least"
	if exact {
		what = "exactly"
	}
	pe := p.c.newError(p.call, cur.url.String(), "budget", fmt.Sprintf(
		"the search matched %d results, more than the %d the provider serves of one query; reading every one needs %s %d more requests of the %q rate-limit bucket (%d of %d left until its reset at %s), more than it can serve before the statement's time limit (in %s); nothing more was sent. Narrow the search (e.g. with a %s: range), read at most %d rows with LIMIT, or allow the statement more time",
		total, p.call.Method.Cap.Max, what, need, b.Bucket, b.Remaining, b.Limit, b.Reset.UTC().Format(time.RFC3339), deadline.Sub(now).Round(time.Second),
		p.call.Method.Cap.Split.Qualifier, p.call.Method.Cap.Max))
	pe.Status, pe.RateLimited = cur.status, true
	return pe
}

// unsplittable says why an added qualifier could change what q means
// ("" when it cannot): an OR, AND or NOT operator or parentheses outside
// quotes (an added term would bind to one side only). An operator is a
// word of its own: any Unicode white space or other non-word character
// (not a letter, digit or underscore), or either end of q, around it
// separates it (GitHub reads "a\u00a0OR\u00a0b" and "(a)OR(b)" as OR).
func unsplittable(q string) string {
	quoted := false
	rs := []rune(q)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '"':
			quoted = !quoted
		case quoted:
		case r == '(' || r == ')':
			return "the search uses parentheses, and an added range could change their meaning; split the search by hand into searches without them"
		case wordRune(r) && (i == 0 || !wordRune(rs[i-1])):
			j := i
			for j < len(rs) && wordRune(rs[j]) {
				j++
			}
			if w := string(rs[i:j]); w == "OR" || w == "AND" || w == "NOT" {
				return fmt.Sprintf("the search uses the %s operator, and an added range would bind to one side of it; split the search by hand into searches without it", w)
			}
			i = j - 1
		}
	}
	return ""
}

// wordRune reports whether r is part of a word: a letter, digit or '_'.
func wordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// searchTokens splits a search on Unicode white space outside double
// quotes.
func searchTokens(q string) []string {
	var out []string
	var b strings.Builder
	quoted := false
	for _, r := range q {
		switch {
		case r == '"':
			quoted = !quoted
			b.WriteRune(r)
		case !quoted && unicode.IsSpace(r):
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

// userSpan is the range the user's own qualifiers (name:>=D, name:<D,
// name:A..B, name:D, ...) allow, each bound widened by a day (two after
// an upper bound, for a date that means its whole day) so that no reading
// of its time zone narrows it; the qualifiers stay in the query, so the
// provider applies them exactly. Values it cannot read leave that end
// open.
func userSpan(q, name string) span {
	s := span{openLo: true, openHi: true}
	setLo := func(t time.Time) {
		t = t.AddDate(0, 0, -1).UTC().Truncate(time.Second)
		if s.openLo || t.After(s.lo) {
			s.lo, s.openLo = t, false
		}
	}
	setHi := func(t time.Time) {
		t = t.AddDate(0, 0, 2).UTC().Truncate(time.Second)
		if s.openHi || t.Before(s.hi) {
			s.hi, s.openHi = t, false
		}
	}
	prefix := strings.ToLower(name) + ":"
	for _, tok := range searchTokens(q) {
		if !strings.HasPrefix(strings.ToLower(tok), prefix) {
			continue // other qualifiers, words, and -name: negations
		}
		v := tok[len(prefix):]
		switch {
		case strings.HasPrefix(v, ">="), strings.HasPrefix(v, ">"):
			if t, ok := parseSearchDate(strings.TrimLeft(v, ">=")); ok {
				setLo(t)
			}
		case strings.HasPrefix(v, "<="), strings.HasPrefix(v, "<"):
			if t, ok := parseSearchDate(strings.TrimLeft(v, "<=")); ok {
				setHi(t)
			}
		case strings.Contains(v, ".."):
			a, b, _ := strings.Cut(v, "..")
			if t, ok := parseSearchDate(a); ok {
				setLo(t)
			}
			if t, ok := parseSearchDate(b); ok {
				setHi(t)
			}
		default:
			if t, ok := parseSearchDate(v); ok {
				setLo(t)
				setHi(t)
			}
		}
	}
	if !s.openLo && !s.openHi && s.hi.Before(s.lo) {
		return span{openLo: true, openHi: true} // contradictory: let the provider say
	}
	return s
}

// parseSearchDate reads a search date: YYYY-MM-DD, optionally with a time
// and a UTC offset.
func parseSearchDate(v string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04Z07:00", "2006-01-02T15:04", time.DateOnly} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

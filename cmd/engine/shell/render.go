package shell

import (
	"fmt"
	"io"
	"sync"

	"github.com/enginehq/engine/engine/result"
)

// footer is the line after every result (rows: its rows):
// "250 rows (3 HTTP requests, 3 pages, 0.42 s)"; pages answered 304 from
// the response cache add "3 revalidated", pages served by it without a
// request (--cache-ttl) "3 from cache". One line per provider table then
// names the API method it was read with ("read github.repos.repos: GET
// /user/repos"), and, when the statement used a rate-limit bucket, a last
// line gives its budget:
// "rate limit github core: 3 used, 4997 of 5000 left, resets 15:58:00 UTC".
func footer(r *result.Result, rows int, timer bool) string {
	cost := r.Stats.Cost()
	if timer {
		cost += fmt.Sprintf(", %.2f s", r.Stats.Elapsed.Seconds())
	}
	out := result.Plural(rows, "row") + " (" + cost + ")"
	for _, m := range r.Stats.Methods {
		out += "\nread " + m
	}
	if rl := r.Stats.RateLimitSummary(); rl != "" {
		out += "\n" + rl
	}
	return out
}

// progress shows "fetched N pages…" on a terminal's stderr while a query
// runs and erases it before anything else is printed. The engine calls
// update from its fetching goroutines.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	shown bool
	done  bool
	last  int // pages shown; updates from concurrent fetches never go back
}

func (p *progress) update(pages int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done || pages <= p.last {
		return
	}
	p.last = pages
	fmt.Fprintf(p.w, "\r\033[Kfetched %s… (Ctrl-C cancels)", result.Plural(pages, "page"))
	p.shown = true
}

// notice prints a statement's notice (engine.QueryOptions.Notice) on
// its own line of stderr, after erasing the progress line; the next
// update draws it again.
func (p *progress) notice(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
	fmt.Fprintln(p.w, "notice: "+msg)
}

// clear erases the progress line; later updates are ignored.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

package enginetest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/enginehq/engine/engine/exec"
	"github.com/enginehq/engine/providers"
)

// Page is one page of an answer: the JSON array of its items, or a fault
// (the error the provider's client would return for that page).
type Page struct {
	JSON string
	Err  error
}

// Fault is a page the provider fails with an HTTP status, as the client
// reports it (a *providers.ProviderError).
func Fault(status int, message string) Page {
	return Page{Err: &providers.ProviderError{Provider: "fake", Method: "GET", Status: status, Kind: "http", Message: message}}
}

// Fake is an exec.Fetcher that serves pages from memory. Requests are
// named as Request renders them; a request with no pages is an error
// (a case states every request it lets the engine make).
type Fake struct {
	pages map[string][]Page

	mu   sync.Mutex
	sent []string
}

var _ exec.Fetcher = (*Fake)(nil)

// NewFake serves pages by request.
func NewFake(pages map[string][]Page) *Fake { return &Fake{pages: pages} }

// Request renders a call as the fake's key: the method's path with its
// path parameters substituted, then the query parameters (the API's
// names) in name order: "/repos/acme/a/pulls?state=all".
func Request(call providers.Call) string {
	path := call.Method.Path
	var query []string
	for name, v := range call.Params {
		p := call.Method.Param(name)
		if p == nil {
			continue
		}
		if p.In == providers.InPath {
			path = strings.ReplaceAll(path, "{"+p.Key()+"}", v)
		} else {
			query = append(query, p.Key()+"="+v)
		}
	}
	if len(query) == 0 {
		return path
	}
	slices.Sort(query)
	return path + "?" + strings.Join(query, "&")
}

// Do serves the call's pages in order, like the client: it stops once
// call.Limit items are out, and a fault of any page is the call's error
// (after the pages before it were emitted).
func (f *Fake) Do(ctx context.Context, call providers.Call, emit func(items []json.RawMessage) error) (providers.FetchStats, error) {
	var st providers.FetchStats
	req := Request(call)
	pages, ok := f.pages[req]
	if !ok {
		return st, fmt.Errorf("fake: no pages for GET %s", req)
	}
	emitted := 0
	for i, pg := range pages {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		f.log(req, i+1)
		st.Requests++
		if pg.Err != nil {
			return st, pg.Err
		}
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(pg.JSON), &items); err != nil {
			return st, fmt.Errorf("fake: page %d of %s: %w", i+1, req, err)
		}
		st.Pages++
		if err := emit(items); err != nil {
			return st, err
		}
		if call.OnPage != nil {
			call.OnPage(st.Pages)
		}
		emitted += len(items)
		if call.Limit > 0 && emitted >= call.Limit {
			break
		}
	}
	return st, nil
}

func (f *Fake) log(req string, page int) {
	if page > 1 {
		req += fmt.Sprintf(" page %d", page)
	}
	f.mu.Lock()
	f.sent = append(f.sent, req)
	f.mu.Unlock()
}

// Sent lists the pages requested so far, sorted ("/orgs/acme/repos",
// "/orgs/acme/repos page 2"): a fan-out's calls run concurrently.
func (f *Fake) Sent() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := slices.Clone(f.sent)
	slices.Sort(out)
	return out
}

// BucketOf is "": the fake has no rate limit.
func (f *Fake) BucketOf(string) string { return "" }

// CheckBudget never refuses.
func (f *Fake) CheckBudget(context.Context, string, int) error { return nil }

// Cached is false: the fake has no response cache.
func (f *Fake) Cached(providers.Call) bool { return false }

// Budget is unknown.
func (f *Fake) Budget(string) (providers.BucketBudget, bool) { return providers.BucketBudget{}, false }

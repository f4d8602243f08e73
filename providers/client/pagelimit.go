package client

import "fmt"

// PageLimitError is a call stopped at its page limit (Options.MaxPages,
// the CLI's --max-pages) before the page past it was requested: nothing
// failed at the provider, the statement asked for more than the engine
// was allowed to read. Its kind is "plan", as for the request limit
// (RequestLimitError): the way out is a narrower query or a higher limit,
// and running it again fails the same way.
type PageLimitError struct {
	Provider string
	URL      string // the page not fetched, sanitized
	Limit    int
	// Total is the call's page count when the provider said it (a
	// rel="last" link, a search's total), else 0.
	Total int
}

func (e *PageLimitError) Error() string {
	size := fmt.Sprintf("more than %d pages", e.Limit)
	if e.Total > 0 {
		size = fmt.Sprintf("%d pages, more than %d", e.Total, e.Limit)
	}
	return fmt.Sprintf("one call of the statement has %s, the page limit of a call (max-pages), and GET %s was not sent; no rows are returned. Narrow the query (WHERE keys, LIMIT)",
		size, e.URL)
}

// ErrorKind is "plan", as for the request limit.
func (e *PageLimitError) ErrorKind() string { return "plan" }

// ErrorSetting names the limit.
func (e *PageLimitError) ErrorSetting() string { return "max-pages" }

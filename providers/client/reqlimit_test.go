package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// TestRequestLimitHoldsAcrossCalls: under WithRequestLimit, concurrent
// calls with concurrent numbered pages send at most the limit in all, and
// the call that meets it fails with a RequestLimitError of kind plan.
func TestRequestLimitHoldsAcrossCalls(t *testing.T) {
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		page := r.URL.Query().Get("page")
		if page == "" {
			page = "1"
		}
		w.Header().Set("Link", fmt.Sprintf(`<%s%s?page=2&per_page=100>; rel="next", <%s%s?page=50&per_page=100>; rel="last"`, "http://"+r.Host, r.URL.Path, "http://"+r.Host, r.URL.Path))
		if page != "1" {
			w.Header().Del("Link")
		}
		w.Write([]byte(`[{"id":1}]`)) //nolint:errcheck
	}))
	defer srv.Close()
	c := newTestClient(t, srv, func(o *Options) { o.PageConcurrency = 8 })
	ctx := WithRequestLimit(context.Background(), 20)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Do(ctx, Call{Method: listMethod(), Params: map[string]string{"org": fmt.Sprint("o", i)}}, func([]json.RawMessage) error { return nil })
		}()
	}
	wg.Wait()
	if n := sent.Load(); n > 20 {
		t.Fatalf("%d requests sent under a limit of 20", n)
	}
	limited := 0
	for _, err := range errs {
		var le *RequestLimitError
		if errors.As(err, &le) {
			limited++
			if le.ErrorKind() != "plan" || le.ErrorSetting() != "max-requests" || le.Limit != 20 {
				t.Fatalf("%+v", le)
			}
		}
	}
	if limited == 0 {
		t.Fatalf("no call met the limit: %v", errs)
	}
}

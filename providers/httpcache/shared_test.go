package httpcache

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestSharedEntries: an entry one cache stores is read by another (another
// directory) through the shared store; a failing store is said once and
// the directory goes on.
func TestSharedEntries(t *testing.T) {
	sh := testutil.NewMapBlobs()
	var warned []string
	warnf := func(f string, a ...any) { warned = append(warned, fmt.Sprintf(f, a...)) }
	c1 := openCache(t, t.TempDir(), 0, 0)
	c2 := openCache(t, t.TempDir(), 0, 0)
	c1.SetShared(sh, warnf)
	c2.SetShared(sh, warnf)
	key := Key("GET", "https://api.example/x")
	if err := c1.Put(key, &Entry{Header: http.Header{"Etag": {`"1"`}}, Body: []byte("body"), Vary: "v"}); err != nil {
		t.Fatal(err)
	}
	e, ok := c2.Get(key)
	if !ok || string(e.Body) != "body" || e.Header.Get("Etag") != `"1"` || e.Vary != "v" || e.Stored.IsZero() {
		t.Fatalf("the other cache: %+v, %v", e, ok)
	}
	sh.SetFail(true)
	for i := 0; i < 3; i++ {
		c2.Get(key)
	}
	if err := c1.Put(key, &Entry{Header: http.Header{}, Body: []byte("b2")}); err != nil {
		t.Fatal(err)
	}
	if e, ok := c1.Get(key); !ok || string(e.Body) != "b2" {
		t.Fatalf("the directory while the shared store is down: %+v, %v", e, ok)
	}
	sh.SetFail(false)
	c1.Get(key)
	if len(warned) != 3 || !strings.Contains(warned[0], "unavailable") || !strings.Contains(warned[2], "again") {
		t.Fatalf("warnings %q; want one per cache going down, then one coming back", warned)
	}
}

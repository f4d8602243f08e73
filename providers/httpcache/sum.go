package httpcache

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Each entry proves itself: its first line carries Sum, an HMAC-SHA256 of
// its key, header, Vary and body. A file truncated or altered outside the
// engine (a disk fault, a restore, bit rot), or a shared entry another
// writer of the database placed under a key that is not its own, does
// not match: it is a miss, dropped, and the request goes out without
// If-None-Match, so a 304 never "confirms" a damaged body. The MAC's key
// is the deployment's secret (SetSecret: ENGINE_STATE_SECRET) when one
// is configured, so that only the deployment's processes can write an
// entry the others accept; without one it is a fixed string, and the sum
// is a checksum bound to the key (which hashes the credential's
// identity), not a proof against a writer that can compute it
// (docs/orgscale.md, "What Redis is trusted with").

// defaultSecret is the MAC key without a configured secret.
var defaultSecret = []byte("engine-http-v1 entry")

// SetSecret makes secret the MAC key of the entries' sums (empty: the
// fixed default). Entries written under another key become misses.
func (c *Cache) SetSecret(secret []byte) {
	c.secret = append([]byte(nil), secret...)
}

// Dropped is the number of entries whose sum did not match, since the
// cache was opened.
func (c *Cache) Dropped() int64 { return c.dropped.Load() }

func (c *Cache) sum(key string, e *Entry) string {
	secret := c.secret
	if len(secret) == 0 {
		secret = defaultSecret
	}
	m := hmac.New(sha256.New, secret)
	head, _ := json.Marshal(e.Header) // a map: its keys sorted
	for _, part := range [][]byte{[]byte(key), head, []byte(e.Vary)} {
		m.Write(part)
		m.Write([]byte{0})
	}
	m.Write(e.Body)
	return hex.EncodeToString(m.Sum(nil))
}

func (c *Cache) proves(key string, e *Entry, sum string) bool {
	want := c.sum(key, e)
	return len(sum) == len(want) && hmac.Equal([]byte(sum), []byte(want))
}

// Package httpcache is the on-disk store of provider responses used by the
// HTTP client for its response cache: identical requests within a TTL are
// answered from the store; after the TTL they are revalidated with
// If-None-Match / If-Modified-Since, and a 304 reuses the stored body
// (GitHub does not count 304s against the rate limit).
//
// Entries live under the user's cache directory (one file each, written to
// a temporary file and renamed, so concurrent processes never see half an
// entry), readable by the user only. Keys are hashes of the request URL,
// the headers that shape the answer and the credentials' identity (itself
// a hash): never the token. The store is bounded in bytes; the oldest
// entries go first.
//
// httpcache only stores bytes; the client decides what is cacheable.
package httpcache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Defaults.
const (
	DefaultTTL      = 60 * time.Second
	DefaultMaxBytes = 256 << 20
)

// Cache is a directory of entries. It is safe for concurrent use, within a
// process and across processes.
type Cache struct {
	dir      string
	ttl      time.Duration
	maxBytes int64

	mu      sync.Mutex
	size    int64 // approximate bytes stored; -1 until scanned
	writes  int
	nowFunc func() time.Time
}

// DefaultDir is <user cache dir>/engine/http.
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory (%v); set --cache-dir or disable the cache with --no-cache", err)
	}
	return filepath.Join(d, "engine", "http"), nil
}

// Open makes (if needed) and opens the cache directory.
func Open(dir string, ttl time.Duration, maxBytes int64) (*Cache, error) {
	if ttl <= 0 {
		return nil, errors.New("httpcache: TTL must be positive (a zero TTL disables the cache: do not open one)")
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cache directory %s: %w", dir, err)
	}
	return &Cache{dir: dir, ttl: ttl, maxBytes: maxBytes, size: -1, nowFunc: time.Now}, nil
}

// TTL is how long an entry is served without revalidation.
func (c *Cache) TTL() time.Duration { return c.ttl }

// Key hashes the parts that identify a request.
func Key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Entry is a stored 200 response.
type Entry struct {
	Header http.Header
	Body   []byte
	// Stored is when the entry was stored or last revalidated.
	Stored time.Time
}

// Fresh reports whether the entry may be served without asking.
func (c *Cache) Fresh(e *Entry) bool { return c.nowFunc().Sub(e.Stored) < c.ttl }

func (c *Cache) path(key string) string { return filepath.Join(c.dir, key[:2], key) }

// Get reads an entry; a missing or unreadable entry is a miss.
func (c *Cache) Get(key string) (*Entry, bool) {
	p := c.path(key)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, false
	}
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return nil, false
	}
	var h http.Header
	if err := json.Unmarshal(data[:nl], &h); err != nil {
		return nil, false
	}
	return &Entry{Header: h, Body: data[nl+1:], Stored: fi.ModTime()}, true
}

// Put stores an entry atomically.
func (c *Cache) Put(key string, header http.Header, body []byte) error {
	head, err := json.Marshal(header)
	if err != nil {
		return err
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(tmp)
	w.Write(head)
	w.WriteByte('\n')
	w.Write(body)
	if err := w.Flush(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	c.grow(int64(len(head) + 1 + len(body)))
	return nil
}

// Touch marks an entry as revalidated now.
func (c *Cache) Touch(key string) error {
	now := c.nowFunc()
	return os.Chtimes(c.path(key), now, now)
}

// grow accounts for a write and evicts the oldest entries when the store
// exceeds its bound.
func (c *Cache) grow(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.size < 0 {
		c.size = c.scan(nil)
	} else {
		c.size += n
	}
	c.writes++
	if c.size <= c.maxBytes {
		return
	}
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	c.size = c.scan(func(path string, fi fs.FileInfo) {
		files = append(files, file{path, fi.Size(), fi.ModTime()})
	})
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if c.size <= c.maxBytes*8/10 {
			break
		}
		if os.Remove(f.path) == nil {
			c.size -= f.size
		}
	}
}

// scan sums the entries' sizes, calling each for every entry.
func (c *Cache) scan(each func(string, fs.FileInfo)) int64 {
	var total int64
	filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".tmp-") {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		total += fi.Size()
		if each != nil {
			each(path, fi)
		}
		return nil
	})
	return total
}

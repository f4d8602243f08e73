// Package httpcache is the on-disk store of provider responses used by the
// HTTP client for its response cache. The client decides what is cacheable
// and when an entry may be served; httpcache only stores bytes, and only
// ever touches files it created.
//
// # Layout and ownership
//
// Open(DIR) keeps its entries in DIR/engine-http-v1/, a directory it
// creates itself (0700) with a marker file, CACHEDIR.TAG (the Cache
// Directory Tagging Specification, so backup tools skip it), whose exact
// content names the engine and the format. An entry is
// engine-http-v1/<first 2 hex digits of its key>/<64 hex digit key>, 0600,
// written to a temporary file (.tmp-*) in the same directory and renamed,
// so concurrent processes never see half an entry.
//
// The store refuses (Open returns an error, and the caller runs without a
// cache) when:
//   - DIR is not a directory, or is writable by group or others (anyone
//     could plant or swap entries), or is owned by another user;
//   - DIR/engine-http-v1 exists but is not a directory the user owns,
//     private to them, carrying the marker (an empty directory is adopted).
//
// Nothing outside DIR/engine-http-v1 is ever read, written or removed, and
// inside it only names of the exact entry layout (and this package's own
// temporary files) are: the user's files next to the cache, however many
// and however large, are never counted, evicted or changed.
//
// Keys are hashes of the request URL, the headers that shape the answer and
// the credentials' identity (itself a hash): never the token. The store is
// bounded in bytes; when a write takes it past the bound, the least
// recently stored or revalidated entries go first, down to 80% of the
// bound.
package httpcache

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/enginehq/engine/providers/defaults"
	"github.com/enginehq/engine/providers/sharedstate"
	"github.com/enginehq/engine/registry"
	"github.com/enginehq/engine/registry/fsutil"
)

// Defaults.
const (
	// DefaultTTL is how long an entry is served without asking the
	// provider: 0, every entry is revalidated (If-None-Match /
	// If-Modified-Since) before use.
	DefaultTTL      = 0
	DefaultMaxBytes = 256 << 20
)

// Subdir is the directory, inside the configured cache directory, that
// holds the entries; Marker is the file in it that marks it as the
// engine's.
const (
	Subdir = "engine-http-v1"
	Marker = "CACHEDIR.TAG"
)

// markerContent is the exact content of the marker file.
const markerContent = "Signature: 8a477f597d28d172789f06886806bc55\n" +
	"# This file is a cache directory tag created by engine (HTTP response cache, format v1).\n" +
	"# Every file in this directory was created by engine and may be removed by it.\n"

// tmpMaxAge is the age past which a temporary file left by a crashed write
// is removed during eviction.
const tmpMaxAge = time.Hour

// Cache is a directory of entries. It is safe for concurrent use, within a
// process and across processes.
type Cache struct {
	root     string // DIR/engine-http-v1
	ttl      time.Duration
	maxBytes int64

	mu      sync.Mutex
	size    int64 // approximate bytes stored; -1 until scanned
	nowFunc func() time.Time
	shared  Shared // entries shared with other processes (shared.go)

	sharedHealth *sharedstate.Health // says when shared fails and when it is back

	secret  []byte       // the MAC key of the entries' sums (sum.go)
	dropped atomic.Int64 // entries whose sum did not match
}

// DefaultDir is <user cache dir>/engine/http.
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", &DirError{fmt.Errorf("no user cache directory (%v); choose a cache directory or turn the cache off", err)}
	}
	return filepath.Join(d, "engine", "http"), nil
}

// Open makes (if needed) and opens the cache in dir. ttl is how long an
// entry may be served without revalidation (0: never); maxBytes bounds the
// entries' total size (<= 0: DefaultMaxBytes).
func Open(dir string, ttl time.Duration, maxBytes int64) (*Cache, error) {
	c, err := open(dir, ttl, maxBytes)
	if err != nil {
		return nil, &DirError{err}
	}
	return c, nil
}

// SettingDir is the setting (DirError.ErrorSetting) that chooses the
// cache directory.
const SettingDir = "cache-dir"

// DirError is an error of the cache directory. It names no flag: it
// carries the setting, which each surface phrases (the CLI as its flags).
type DirError struct{ Err error }

func (e *DirError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *DirError) Unwrap() error { return e.Err }

// ErrorSetting names the setting that chooses the directory.
func (e *DirError) ErrorSetting() string { return SettingDir }

func open(dir string, ttl time.Duration, maxBytes int64) (*Cache, error) {
	if ttl < 0 {
		return nil, errors.New("cache TTL must not be negative")
	}
	defaults.Set(&maxBytes, DefaultMaxBytes)
	if dir == "" {
		return nil, errors.New("empty cache directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cache directory %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("cache directory %s: %w", abs, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("cache directory %s: %w", abs, err)
	}
	if err := privateDir.Check(abs, fi, 0o022); err != nil {
		return nil, err
	}
	root := filepath.Join(abs, Subdir)
	if err := claim(root); err != nil {
		return nil, err
	}
	return &Cache{root: root, ttl: ttl, maxBytes: maxBytes, size: -1, nowFunc: time.Now}, nil
}

// privateDir checks that a directory is the user's own and has none of
// the forbidden mode bits.
var privateDir = fsutil.PrivateDir{
	What:        "cache directory",
	ModeProblem: "writable by group or others",
	ModeAdvice:  "use a directory only you can write to (chmod go-w), or turn the cache off",
	OwnerAdvice: "use a directory of your own, or turn the cache off",
}

// claim creates root with its marker, or checks that an existing root is
// the engine's: a private directory of the user's carrying the marker (or
// empty, e.g. left by a process that stopped between the two steps).
func claim(root string) error {
	if err := os.Mkdir(root, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("cache directory %s: %w", root, err)
	}
	fi, err := os.Lstat(root)
	if err != nil {
		return fmt.Errorf("cache directory %s: %w", root, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link, not the engine's cache directory; remove it or choose another cache directory", root)
	}
	if err := privateDir.Check(root, fi, 0o077); err != nil {
		return err
	}
	marker := filepath.Join(root, Marker)
	data, err := os.ReadFile(marker)
	switch {
	case err == nil && string(data) == markerContent:
		return nil
	case err == nil || !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s exists but was not written by this engine's cache; the cache will not use %s (remove it or choose another cache directory)", marker, root)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return fmt.Errorf("cache directory %s: %w", root, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s holds files but no %s marker: it is not the engine's cache, which will not touch it (choose another cache directory)", root, Marker)
	}
	f, err := os.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		// Another process claimed it first: check its marker.
		if data, err := os.ReadFile(marker); err == nil && string(data) == markerContent {
			return nil
		}
		return fmt.Errorf("%s exists but was not written by this engine's cache", marker)
	}
	if err != nil {
		return fmt.Errorf("cache directory %s: %w", root, err)
	}
	if _, err := f.WriteString(markerContent); err != nil {
		f.Close()
		return fmt.Errorf("cache directory %s: %w", root, err)
	}
	return f.Close()
}

// Dir is the directory holding the entries (DIR/engine-http-v1).
func (c *Cache) Dir() string { return c.root }

// TTL is how long an entry is served without revalidation (0: never).
func (c *Cache) TTL() time.Duration { return c.ttl }

// Key hashes the parts that identify a request.
func Key(parts ...string) string {
	var b []byte
	for _, p := range parts {
		b = append(append(b, p...), 0)
	}
	return registry.SHA256(b)
}

// Entry is a stored 200 response.
type Entry struct {
	Header http.Header
	Body   []byte
	// Vary fingerprints the request header values named by the response's
	// Vary header (opaque to the store; the client computes it).
	Vary string
	// Stored is when the entry was stored or last revalidated.
	Stored time.Time
}

// meta is the first line of an entry file.
type meta struct {
	Header http.Header `json:"header"`
	Vary   string      `json:"vary,omitempty"`
	// Sum proves the entry (sum.go): a MAC of its key, header, Vary and
	// body. An entry without one, or whose Sum does not match, is a miss.
	Sum string `json:"sum,omitempty"`
}

// Fresh reports whether the entry is within the TTL (the client also
// honours Cache-Control before serving it).
func (c *Cache) Fresh(e *Entry) bool { return c.ttl > 0 && c.nowFunc().Sub(e.Stored) < c.ttl }

// validKey reports whether key has the entries' layout: 64 lowercase hex
// digits.
func validKey(key string) bool { return sharedstate.ValidID(key, 64) }

func (c *Cache) path(key string) string { return filepath.Join(c.root, key[:2], key) }

// Get reads an entry; a missing, unreadable or malformed entry is a miss.
func (c *Cache) Get(key string) (*Entry, bool) {
	if !validKey(key) {
		return nil, false
	}
	if c.shared != nil {
		if e, ok := c.sharedGet(key); ok {
			return e, true
		}
	}
	f, err := os.Open(c.path(key))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, false
	}
	e, ok := c.decodeEntry(key, data)
	if !ok {
		// Damaged or altered (or written before entries carried their
		// sum): dropped, so that the request goes out unconditionally.
		c.dropped.Add(1)
		os.Remove(c.path(key))
		return nil, false
	}
	e.Stored = fi.ModTime()
	return e, true
}

// Put stores an entry atomically (Stored is ignored: it is now).
func (c *Cache) Put(key string, e *Entry) error {
	if !validKey(key) {
		return fmt.Errorf("httpcache: invalid key %q", key)
	}
	if c.shared != nil {
		c.sharedPut(key, e, c.nowFunc())
	}
	head, err := json.Marshal(meta{Header: e.Header, Vary: e.Vary, Sum: c.sum(key, e)})
	if err != nil {
		return err
	}
	p := c.path(key)
	if err := os.Mkdir(filepath.Dir(p), 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	err = fsutil.Write(p, 0o600, ".tmp-*", func(f io.Writer) error {
		w := bufio.NewWriter(f)
		w.Write(head)
		w.WriteByte('\n')
		w.Write(e.Body)
		if err := w.Flush(); err != nil {
			return err
		}
		// On disk before the rename: a crash never leaves a renamed
		// entry whose bytes did not reach the disk.
		if f, ok := f.(*os.File); ok {
			return f.Sync()
		}
		return nil
	})
	if err != nil {
		return err
	}
	c.grow(int64(len(head) + 1 + len(e.Body)))
	return nil
}

// Delete removes an entry (e.g. one the provider now marks no-store).
func (c *Cache) Delete(key string) {
	if validKey(key) {
		if c.shared != nil {
			c.sharedDelete(key)
		}
		os.Remove(c.path(key))
	}
}

// Touch marks an entry as revalidated now.
func (c *Cache) Touch(key string) error {
	if !validKey(key) {
		return fmt.Errorf("httpcache: invalid key %q", key)
	}
	now := c.nowFunc()
	if c.shared != nil {
		if e, ok := c.sharedGet(key); ok {
			c.sharedPut(key, e, now)
		}
	}
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

// scan sums the sizes of the store's own entries, calling each for every
// one. It looks only at root/<2 hex>/<64 hex with that prefix>, regular
// files; anything else is not the store's and is neither counted nor
// passed to each. Temporary files of crashed writes older than tmpMaxAge
// are removed.
func (c *Cache) scan(each func(string, fs.FileInfo)) int64 {
	var total int64
	dirs, err := os.ReadDir(c.root)
	if err != nil {
		return 0
	}
	for _, d := range dirs {
		name := d.Name()
		if !d.IsDir() || len(name) != 2 || !validKey(name+strings.Repeat("0", 62)) {
			continue
		}
		sub := filepath.Join(c.root, name)
		files, err := os.ReadDir(sub)
		if err != nil {
			continue
		}
		for _, f := range files {
			if !f.Type().IsRegular() {
				continue
			}
			fi, err := f.Info()
			if err != nil {
				continue
			}
			path := filepath.Join(sub, f.Name())
			if strings.HasPrefix(f.Name(), ".tmp-") {
				if c.nowFunc().Sub(fi.ModTime()) > tmpMaxAge {
					os.Remove(path)
				}
				continue
			}
			if !validKey(f.Name()) || f.Name()[:2] != name {
				continue
			}
			total += fi.Size()
			if each != nil {
				each(path, fi)
			}
		}
	}
	return total
}

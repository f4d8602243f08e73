package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/enginehq/engine/registry/fsutil"
)

// The store is where `engine registry add` and `engine registry pull` keep
// providers, and where compiled indexes of OpenAPI documents are cached
// (see Store).

// StoreSubdir is the directory, inside the engine's data directory, that
// the store creates and owns; StoreMarker is the file in it that marks it
// as the engine's.
const (
	StoreSubdir = "registry-v1"
	StoreMarker = "ENGINE-REGISTRY.TAG"
)

// storeMarkerContent is the exact content of the marker file.
const storeMarkerContent = "engine provider registry, format v1.\n" +
	"Every file in this directory was created by engine and may be replaced or removed by it.\n"

// Kinds of stored provider (Stored.Kind).
const (
	StoredAdded  = "added"  // engine registry add
	StoredPulled = "pulled" // engine registry pull
)

// MaxIndexCacheBytes bounds the compiled indexes kept in the store; past
// it the oldest go first (a provider added or pulled is recompiled from
// its stored document when its index is gone).
const MaxIndexCacheBytes = 256 << 20

// indexMagic starts every cached compiled index file: the line
// "engine-index v1 KEY SHA256(BODY) UNIXSECONDS\n", then the body
// (providers.Encode output).
const indexMagic = "engine-index v1 "

var (
	hex64      = regexp.MustCompile(`^[0-9a-f]{64}$`)
	indexName  = regexp.MustCompile(`^[0-9a-f]{64}\.idx$`)
	tmpPattern = ".tmp-*"
)

// Stored describes a provider kept in the store.
type Stored struct {
	Name string `json:"name"`
	// Kind is StoredAdded or StoredPulled. A pulled provider is compiled
	// with its built-in profile (BuiltinProfile(Name)).
	Kind string `json:"kind"`
	// Origin is the file path (absolute) or URL the document came from.
	Origin string `json:"origin"`
	// Document is the sha256 (hex) of the document's bytes, as read.
	Document string `json:"document"`
	// Profile is the sha256 of the profile given with `registry add
	// --profile`, or ""; ProfileOrigin is its path.
	Profile       string `json:"profile,omitempty"`
	ProfileOrigin string `json:"profile_origin,omitempty"`
	// Fetched is when the document was read.
	Fetched time.Time `json:"fetched"`
	// BaseURL is the base URL given with `registry add --base-url`
	// (the user's host, where the description's servers name a
	// placeholder), or "": the description's.
	BaseURL string `json:"base_url,omitempty"`
}

// Store is the engine's registry directory: DATA/registry-v1/ (DATA is
// DefaultDataDir(), e.g. ~/.local/share/engine). It holds
//
//	registry-v1/ENGINE-REGISTRY.TAG    marker: the directory is the engine's
//	registry-v1/provider/NAME.json     one manifest (Stored) per added or pulled provider
//	registry-v1/blob/SHA256            documents and profiles, named by the sha256 of their bytes
//	registry-v1/index/KEY.idx          compiled indexes, named by IndexKey
//
// Like the response cache, the store creates its directory itself (0700)
// with the marker, writes files 0600 through a temporary file and a
// rename (concurrent processes never see half a file), and reads, writes
// and removes only names of that exact layout inside it. It refuses a
// directory that is a symbolic link, is not private to the user, or holds
// files without the marker. Nothing is created until something is
// written; reading a store that does not exist finds nothing.
type Store struct {
	root string
}

// DefaultDataDir is the engine's data directory: $XDG_DATA_HOME/engine
// when XDG_DATA_HOME is an absolute path, else the platform's user data
// directory (~/.local/share/engine on Linux and other Unix systems,
// ~/Library/Application Support/engine on macOS, %LocalAppData%\engine on
// Windows).
func DefaultDataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "engine"), nil
	}
	switch runtime.GOOS {
	case "darwin", "ios":
		d, err := os.UserConfigDir() // ~/Library/Application Support
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "engine"), nil
	case "windows":
		if d := os.Getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "engine"), nil
		}
		return "", errors.New("%LocalAppData% is not set")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory to keep the registry in (%v); set XDG_DATA_HOME", err)
	}
	return filepath.Join(home, ".local", "share", "engine"), nil
}

// OpenStore opens the store in dir (DefaultDataDir() when dir is ""). An
// existing store is checked (see Store); a missing one is created on the
// first write.
func OpenStore(dir string) (*Store, error) {
	if dir == "" {
		d, err := DefaultDataDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("registry directory %s: %w", dir, err)
	}
	s := &Store{root: filepath.Join(abs, StoreSubdir)}
	if fi, err := os.Lstat(s.root); err == nil {
		if err := s.check(fi); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("registry directory %s: %w", s.root, err)
	}
	return s, nil
}

// Dir is the store's directory (DATA/registry-v1).
func (s *Store) Dir() string { return s.root }

// check verifies that an existing root is the engine's.
func (s *Store) check(fi fs.FileInfo) error {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link, not the engine's registry directory; remove it (or set XDG_DATA_HOME to another directory)", s.root)
	}
	if err := privateDir.Check(s.root, fi, 0o077); err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(s.root, StoreMarker))
	switch {
	case err == nil && string(data) == storeMarkerContent:
		return nil
	case err == nil || !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s exists but was not written by engine; the registry will not use %s (remove it, or set XDG_DATA_HOME to another directory)", filepath.Join(s.root, StoreMarker), s.root)
	}
	entries, err := os.ReadDir(s.root)
	if err != nil {
		return fmt.Errorf("registry directory %s: %w", s.root, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s holds files but no %s marker: it is not the engine's registry, which will not touch it (set XDG_DATA_HOME to another directory)", s.root, StoreMarker)
	}
	return nil
}

// privateDir checks that a directory is the user's own and has none of
// the forbidden mode bits.
var privateDir = fsutil.PrivateDir{
	What:        "registry directory",
	ModeProblem: "accessible to group or others",
	ModeAdvice:  "make it private (chmod 700)",
	OwnerAdvice: "set XDG_DATA_HOME to a directory of your own",
}

// ensure creates the store (root, marker) if needed and the subdirectory
// sub, and returns sub's path.
func (s *Store) ensure(sub string) (string, error) {
	parent := filepath.Dir(s.root)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return "", fmt.Errorf("registry directory %s: %w", parent, err)
	}
	pfi, err := os.Stat(parent)
	if err != nil {
		return "", fmt.Errorf("registry directory %s: %w", parent, err)
	}
	if err := privateDir.Check(parent, pfi, 0o022); err != nil {
		return "", err
	}
	if err := os.Mkdir(s.root, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("registry directory %s: %w", s.root, err)
	}
	fi, err := os.Lstat(s.root)
	if err != nil {
		return "", fmt.Errorf("registry directory %s: %w", s.root, err)
	}
	if err := s.check(fi); err != nil {
		return "", err
	}
	marker := filepath.Join(s.root, StoreMarker)
	if _, err := os.Lstat(marker); errors.Is(err, fs.ErrNotExist) {
		f, err := os.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		switch {
		case errors.Is(err, fs.ErrExist):
			// another process claimed it first: check below
		case err != nil:
			return "", fmt.Errorf("registry directory %s: %w", s.root, err)
		default:
			_, werr := f.WriteString(storeMarkerContent)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				return "", fmt.Errorf("registry directory %s: %w", s.root, werr)
			}
		}
		if data, err := os.ReadFile(marker); err != nil || string(data) != storeMarkerContent {
			return "", fmt.Errorf("%s exists but was not written by engine", marker)
		}
	}
	dir := filepath.Join(s.root, sub)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("registry directory %s: %w", dir, err)
	}
	if fi, err := os.Lstat(dir); err != nil {
		return "", err
	} else if err := privateDir.Check(dir, fi, 0o077); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		return "", fmt.Errorf("%s is not the engine's registry directory (a symbolic link, or not private)", dir)
	}
	return dir, nil
}

// writeAtomic writes data to dir/name (0600) through a temporary file.
func writeAtomic(dir, name string, data []byte) error {
	return fsutil.WriteFile(filepath.Join(dir, name), data, 0o600, tmpPattern)
}

// readRegular reads dir/name if it is a regular file (not a link).
func readRegular(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return os.ReadFile(path)
}

// SHA256 is the hex sha256 of data.
func SHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// IndexKey is the name of a compiled index: a hash of the compiler's
// identity (which code derives tables), the provider name and the hashes
// of the document and of the profile (or ""). The same inputs compiled by
// the same engine give the same index, so a cached one is always right.
func IndexKey(compiler, name, documentSHA, profileSHA string) string {
	return SHA256([]byte(strings.Join([]string{"engine-index", compiler, name, documentSHA, profileSHA}, "\x00")))
}

// ErrNoIndex is returned by Index when no compiled index has the key.
var ErrNoIndex = errors.New("no compiled index")

// Index returns the compiled index stored under key and when it was
// compiled. A missing one is ErrNoIndex; a file that is not an index
// this store wrote for that key, or whose body does not match its
// checksum, is an error saying why (the caller rebuilds it).
func (s *Store) Index(key string) ([]byte, time.Time, error) {
	if !hex64.MatchString(key) {
		return nil, time.Time{}, fmt.Errorf("bad index key %q", key)
	}
	data, err := readRegular(filepath.Join(s.root, "index", key+".idx"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, time.Time{}, ErrNoIndex
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 || !bytes.HasPrefix(data, []byte(indexMagic)) {
		return nil, time.Time{}, errors.New("not a compiled index of this engine (no header)")
	}
	f := strings.Fields(string(data[len(indexMagic):nl]))
	if len(f) != 3 {
		return nil, time.Time{}, errors.New("malformed header")
	}
	if f[0] != key {
		return nil, time.Time{}, errors.New("it was stored under another key")
	}
	body := data[nl+1:]
	if SHA256(body) != f[1] {
		return nil, time.Time{}, errors.New("its checksum does not match (truncated or changed)")
	}
	secs, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return nil, time.Time{}, errors.New("malformed time")
	}
	return body, time.Unix(secs, 0), nil
}

// PutIndex stores a compiled index under key, replacing any file of that
// name, then keeps the indexes under MaxIndexCacheBytes.
func (s *Store) PutIndex(key string, body []byte, compiled time.Time) error {
	if !hex64.MatchString(key) {
		return fmt.Errorf("bad index key %q", key)
	}
	dir, err := s.ensure("index")
	if err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s%s %s %d\n", indexMagic, key, SHA256(body), compiled.Unix())
	b.Write(body)
	if err := writeAtomic(dir, key+".idx", b.Bytes()); err != nil {
		return fmt.Errorf("storing compiled index: %w", err)
	}
	s.evictIndexes(dir, key)
	return nil
}

// RemoveIndex removes the compiled index under key, if any.
func (s *Store) RemoveIndex(key string) error {
	if !hex64.MatchString(key) {
		return fmt.Errorf("bad index key %q", key)
	}
	err := os.Remove(filepath.Join(s.root, "index", key+".idx"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// evictIndexes removes the oldest compiled indexes (never keep) while
// their total size exceeds MaxIndexCacheBytes, and temporary files older
// than an hour.
func (s *Store) evictIndexes(dir, keep string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type ent struct {
		name string
		size int64
		mod  time.Time
	}
	var ents []ent
	var total int64
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if strings.HasPrefix(e.Name(), ".tmp-") {
			if time.Since(info.ModTime()) > time.Hour {
				os.Remove(filepath.Join(dir, e.Name()))
			}
			continue
		}
		if !indexName.MatchString(e.Name()) {
			continue
		}
		ents = append(ents, ent{e.Name(), info.Size(), info.ModTime()})
		total += info.Size()
	}
	if total <= MaxIndexCacheBytes {
		return
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].mod.Before(ents[j].mod) })
	for _, e := range ents {
		if total <= MaxIndexCacheBytes*8/10 {
			break
		}
		if e.name == keep+".idx" {
			continue
		}
		if os.Remove(filepath.Join(dir, e.name)) == nil {
			total -= e.size
		}
	}
}

// PutBlob stores data (a document or a profile) under its sha256 and
// returns it.
func (s *Store) PutBlob(data []byte) (string, error) {
	sum := SHA256(data)
	dir, err := s.ensure("blob")
	if err != nil {
		return "", err
	}
	if old, err := readRegular(filepath.Join(dir, sum)); err == nil && SHA256(old) == sum {
		return sum, nil
	}
	if err := writeAtomic(dir, sum, data); err != nil {
		return "", fmt.Errorf("storing document: %w", err)
	}
	return sum, nil
}

// BlobPath is the path of a stored blob.
func (s *Store) BlobPath(sum string) string { return filepath.Join(s.root, "blob", sum) }

// Blob reads a stored blob and checks its sha256.
func (s *Store) Blob(sum string) ([]byte, error) {
	if !hex64.MatchString(sum) {
		return nil, fmt.Errorf("bad blob name %q", sum)
	}
	data, err := readRegular(s.BlobPath(sum))
	if err != nil {
		return nil, err
	}
	if SHA256(data) != sum {
		return nil, fmt.Errorf("%s: its content does not match its sha256 (changed or truncated)", s.BlobPath(sum))
	}
	return data, nil
}

// Put writes the manifest of a stored provider (replacing the provider
// of that name).
func (s *Store) Put(st Stored) error {
	if !ValidName(st.Name) {
		return fmt.Errorf("provider name %q must be lower-case letters, digits and underscores, starting with a letter", st.Name)
	}
	if st.Kind != StoredAdded && st.Kind != StoredPulled {
		return fmt.Errorf("stored provider %s: unknown kind %q", st.Name, st.Kind)
	}
	return s.putJSON("provider", st.Name, st)
}

// putJSON writes v as the indented JSON file kind/name.json, atomically.
func (s *Store) putJSON(kind, name string, v any) error {
	dir, err := s.ensure(kind)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(dir, name+".json", append(data, '\n'))
}

// readJSON reads the file kind/name.json; ok is false when there is
// none. path is the file's, for errors.
func (s *Store) readJSON(kind, name string) (data []byte, path string, ok bool, err error) {
	path = filepath.Join(s.root, kind, name+".json")
	data, err = readRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, path, false, nil
	}
	return data, path, err == nil, err
}

// Get returns the manifest of a stored provider; ok is false when there is
// none.
func (s *Store) Get(name string) (Stored, bool, error) {
	if !ValidName(name) {
		return Stored{}, false, nil
	}
	data, path, ok, err := s.readJSON("provider", name)
	if !ok || err != nil {
		return Stored{}, false, err
	}
	var st Stored
	if err := json.Unmarshal(data, &st); err != nil {
		return Stored{}, false, fmt.Errorf("%s: %w", path, err)
	}
	if st.Name != name || !hex64.MatchString(st.Document) || (st.Profile != "" && !hex64.MatchString(st.Profile)) ||
		(st.Kind != StoredAdded && st.Kind != StoredPulled) {
		return Stored{}, false, fmt.Errorf("%s is not a valid provider manifest; remove the provider (engine registry remove %s) and add it again", filepath.Join(s.root, "provider", name+".json"), name)
	}
	return st, true, nil
}

// Remove removes a stored provider's manifest, and its document and
// profile blobs when no other stored provider uses them. ok is false when
// there was no such provider.
func (s *Store) Remove(name string) (Stored, bool, error) {
	st, ok, err := s.Get(name)
	if err != nil || !ok {
		return st, ok, err
	}
	if err := os.Remove(filepath.Join(s.root, "provider", name+".json")); err != nil {
		return st, false, err
	}
	used := map[string]bool{}
	all, _ := s.List()
	for _, o := range all {
		used[o.Document], used[o.Profile] = true, true
	}
	for _, b := range []string{st.Document, st.Profile} {
		if b != "" && !used[b] {
			os.Remove(s.BlobPath(b))
		}
	}
	return st, true, nil
}

// List returns the stored providers, sorted by name. A manifest that
// cannot be read is left out, and the error names it.
func (s *Store) List() ([]Stored, error) {
	return listJSON(s, "provider", ValidName, s.Get)
}

// listJSON reads every file kind/NAME.json of a valid name with get, in
// name order; a file that cannot be read is left out, and the error
// names it.
func listJSON[T any](s *Store, kind string, valid func(string) bool, get func(string) (T, bool, error)) ([]T, error) {
	entries, err := os.ReadDir(filepath.Join(s.root, kind))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []T
	var errs []error
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !valid(name) {
			continue
		}
		v, ok, err := get(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			out = append(out, v)
		}
	}
	return out, errors.Join(errs...)
}

// Sources returns the stored providers as sources (Kind KindOpenAPI, with
// Stored set). Data reads the stored document and checks its hash. Like
// List, it returns the readable ones along with an error for the others.
func (s *Store) Sources() ([]Source, error) {
	list, err := s.List()
	out := make([]Source, 0, len(list))
	for _, st := range list {
		st := st
		src := Source{
			Name:   st.Name,
			Kind:   KindOpenAPI,
			Path:   st.Origin,
			Data:   func() ([]byte, error) { return s.Blob(st.Document) },
			Stored: &st,
		}
		if st.Profile != "" {
			src.Profile = s.BlobPath(st.Profile)
		}
		out = append(out, src)
	}
	return out, err
}

package openapi

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

// MaxDecompressedBytes bounds a gzip document once decompressed (a small
// hostile file must not expand into gigabytes).
const MaxDecompressedBytes = 512 << 20

// decompressLimit is MaxDecompressedBytes (tests lower it).
var decompressLimit int64 = MaxDecompressedBytes

// isGzip reports gzip content by its magic bytes.
func isGzip(data []byte) bool { return len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b }

// gunzip decompresses a gzip document, at most decompressLimit bytes.
func gunzip(path string, data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: not a valid gzip file: %w", path, err)
	}
	plain, err := io.ReadAll(io.LimitReader(zr, decompressLimit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: decompressing: %w", path, err)
	}
	if int64(len(plain)) > decompressLimit {
		return nil, fmt.Errorf("%s: decompresses to more than %d bytes; refused", path, decompressLimit)
	}
	return plain, nil
}

// ProfileError is a profile that cannot be read or does not parse: the
// profile is at fault, not the document it goes with.
type ProfileError struct{ Err error }

func (e *ProfileError) Error() string { return e.Err.Error() }
func (e *ProfileError) Unwrap() error { return e.Err }

// Compile parses an OpenAPI document and derives the encoded index of
// provider name from it (providers.Encode output), applying profile (an
// overrides file, see ParseProfileFile) when it is not nil. path is used in
// messages and to recognise gzip. builtin marks the built-in provider's
// own description (`engine registry pull github`): only then does the
// index read the provider's token variables (GITHUB_TOKEN, GH_TOKEN);
// every other document gets credentials only from --auth for its name.
//
// Compile is what a --provider document costs on each start without a
// compiled index; its output is what the store keeps (registry.Store), so
// the next start decodes a header line instead. A document that does not
// parse, derives no table, or does not fit the profile is an error.
func Compile(name, path string, doc, profile []byte, builtin bool) ([]byte, error) {
	if isGzip(doc) {
		var err error
		if doc, err = gunzip(path, doc); err != nil {
			return nil, err
		}
	}
	// Gzip was recognised by its content above: a name ending in .gz whose
	// bytes are plain (an HTTP answer decompressed in transit) is plain.
	d, err := ParseDocument(strings.TrimSuffix(path, ".gz"), doc)
	if err != nil {
		return nil, err
	}
	var ov *ProfileFile
	if profile != nil {
		if ov, err = ParseProfileFile(profile); err != nil {
			return nil, &ProfileError{Err: fmt.Errorf("profile: %w", err)}
		}
	}
	// Only a built-in profile is trusted with token variables (derive).
	index, p, err := encode(d, name, ov, builtin)
	if err != nil {
		return nil, err
	}
	if len(p.Resources) == 0 {
		return nil, fmt.Errorf("%s: no GET operation of the document makes a table (%d skipped); nothing to query", path, len(p.Skipped))
	}
	return index, nil
}

// encode derives the tables of doc with its profile o (may be nil) and
// returns their encoded index (providers.Encode) with the provider
// decoded from it, as the engine will read it.
func encode(doc *openapi3.T, name string, o *ProfileFile, builtin bool) ([]byte, *providers.Provider, error) {
	h, resources, err := derive(doc, name, o, builtin)
	if err != nil {
		return nil, nil, err
	}
	index, err := providers.Encode(h, resources)
	if err != nil {
		return nil, nil, err
	}
	p, err := providers.Decode(index)
	if err != nil {
		return nil, nil, err
	}
	return index, p, nil
}

// SourceProfile returns the profile bytes that apply to src: the built-in
// profile of a pulled provider, the stored copy of an added provider's
// profile (checked against its hash), the --provider ...,profile=FILE
// file, or nil.
func SourceProfile(src registry.Source) ([]byte, error) {
	if st := src.Stored; st != nil {
		if st.Kind == registry.StoredPulled {
			data, _ := registry.BuiltinProfile(src.Name)
			return data, nil
		}
		if st.Profile == "" {
			return nil, nil
		}
		data, err := os.ReadFile(src.Profile)
		if err != nil {
			return nil, &ProfileError{Err: fmt.Errorf("profile of provider %s: %w", src.Name, err)}
		}
		if registry.SHA256(data) != st.Profile {
			return nil, &ProfileError{Err: fmt.Errorf("profile of provider %s: the stored copy %s was changed; add the provider again (engine registry add)", src.Name, src.Profile)}
		}
		return data, nil
	}
	if src.Profile == "" {
		return nil, nil
	}
	data, err := os.ReadFile(src.Profile)
	if err != nil {
		return nil, &ProfileError{Err: fmt.Errorf("profile %s: %w", src.Profile, readErr(src.Profile, err))}
	}
	return data, nil
}

// ProfileSHA is the hash of a profile as index keys use it: "" for none.
func ProfileSHA(profile []byte) string {
	if profile == nil {
		return ""
	}
	return registry.SHA256(profile)
}

// IndexKey is the store key of the index this engine compiles for
// provider name from the document and profile with these hashes: the one
// key --provider, registry add, pull and remove agree on.
func IndexKey(name, documentSHA, profileSHA string) string {
	return registry.IndexKey(CompilerID(), name, documentSHA, profileSHA)
}

var (
	compilerOnce sync.Once
	compilerID   string
)

// CompilerID identifies the code that compiles documents in this binary,
// for registry.IndexKey: the index format, and the VCS revision the
// binary was built from, or, for a build from a modified tree or without
// VCS data, the executable's size and modification time. A compiled index
// is reused only by the engine that would compile the same one.
func CompilerID() string {
	compilerOnce.Do(func() {
		id := "format" + strconv.Itoa(providers.IndexFormat)
		rev, modified := "", true
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					rev = s.Value
				case "vcs.modified":
					modified = s.Value == "true"
				}
			}
			if rev == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
				rev, modified = bi.Main.Path+"@"+bi.Main.Version, false
			}
		}
		if rev != "" && !modified {
			compilerID = id + "/" + rev
			return
		}
		if exe, err := os.Executable(); err == nil {
			if fi, err := os.Stat(exe); err == nil {
				compilerID = fmt.Sprintf("%s/%s/exe-%d-%d", id, rev, fi.Size(), fi.ModTime().UnixNano())
				return
			}
		}
		// Unknown code: an identity no other process shares, so nothing
		// compiled elsewhere is reused.
		compilerID = fmt.Sprintf("%s/unknown-%d", id, os.Getpid())
	})
	return compilerID
}

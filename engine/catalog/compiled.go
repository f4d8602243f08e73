package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/openapi"
	"github.com/enginehq/engine/registry"
)

// Origin tells how the index of a provider defined by an OpenAPI document
// (--provider NAME=PATH, or one kept by `engine registry add` / `pull`)
// was obtained.
type Origin struct {
	// DocumentSHA256 is the sha256 (hex) of the document's bytes.
	DocumentSHA256 string
	// IndexKey names the compiled index in the store (registry.IndexKey).
	IndexKey string
	// Reused is true when the compiled index was decoded from the store
	// instead of parsing the document.
	Reused bool
	// Compiled is when the index was compiled.
	Compiled time.Time
	// Ignored is why a stored index under the key was not used (corrupt,
	// foreign, outdated format), or "".
	Ignored string
}

// Origin returns how an OpenAPI provider's index was obtained; ok is
// false for a provider that is not loaded yet or is an index.
func (c *Catalog) Origin(name string) (Origin, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.origins[name]
	return o, ok
}

// loadOpenAPI returns the provider of an OpenAPI source. The document is
// compiled once: its index is stored under a key made of the hashes of
// the document and of the profile, the provider name and the identity of
// the compiling code (registry.IndexKey), and later starts decode that
// index's header instead of parsing the document. A stored index that is
// corrupt, written for another key or provider, or of another index
// format, is ignored and rebuilt. Called with c.mu held.
func (c *Catalog) loadOpenAPI(src registry.Source) (*providers.Provider, error) {
	profile, err := openapi.SourceProfile(src)
	if err != nil {
		return nil, err
	}
	var doc []byte
	o := Origin{}
	if src.Stored != nil {
		o.DocumentSHA256 = src.Stored.Document // the manifest's: no need to read the document
	} else {
		if doc, err = readDocument(src); err != nil {
			return nil, err
		}
		o.DocumentSHA256 = registry.SHA256(doc)
	}
	builtin := src.Stored != nil && src.Stored.Kind == registry.StoredPulled
	o.IndexKey = openapi.IndexKey(src.Name, o.DocumentSHA256, openapi.ProfileSHA(profile))
	short := o.IndexKey[:12]
	if c.store != nil {
		body, when, err := c.store.Index(o.IndexKey)
		if err == nil {
			p, derr := providers.Decode(body)
			if derr == nil && p.Provider != src.Name {
				derr = fmt.Errorf("it describes provider %q", p.Provider)
			}
			if derr == nil {
				o.Reused, o.Compiled = true, when
				c.setOrigin(src.Name, o)
				c.debugf("provider %s: compiled index %s reused (compiled %s)", src.Name, short, when.UTC().Format(time.RFC3339))
				return p, nil
			}
			err = derr
		}
		if !errors.Is(err, registry.ErrNoIndex) {
			o.Ignored = err.Error()
			c.debugf("provider %s: compiled index %s ignored (%v); rebuilding it", src.Name, short, err)
		}
	}
	if doc == nil {
		// A provider kept by registry add / pull whose index must be
		// (re)compiled from its stored copy (Data checks the hash).
		if doc, err = src.Data(); err != nil {
			return nil, fmt.Errorf("the stored document of provider %s cannot be used (%v); add it again (engine registry add %s ..., or pull) or remove it (engine registry remove %s)", src.Name, err, src.Name, src.Name)
		}
	}
	index, err := openapi.Compile(src.Name, src.Path, doc, profile, builtin)
	if err != nil {
		return nil, err
	}
	o.Compiled = time.Now()
	if c.store != nil {
		if err := c.store.PutIndex(o.IndexKey, index, o.Compiled); err != nil {
			c.debugf("provider %s: compiled index %s not stored: %v", src.Name, short, err)
		} else {
			c.debugf("provider %s: compiled index %s stored", src.Name, short)
		}
	}
	p, err := providers.Decode(index)
	if err != nil {
		return nil, err
	}
	c.setOrigin(src.Name, o)
	return p, nil
}

func readDocument(src registry.Source) ([]byte, error) {
	var data []byte
	var err error
	if src.Data == nil {
		data, err = registry.ReadDocument(src.Path, 0)
	} else {
		data, err = src.Data()
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("file %s does not exist", src.Path)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", src.Path, err)
	}
	return data, nil
}

func (c *Catalog) setOrigin(name string, o Origin) {
	if c.origins == nil {
		c.origins = map[string]Origin{}
	}
	c.origins[name] = o
}

func (c *Catalog) debugf(format string, args ...any) {
	if c.logf != nil {
		c.logf(format, args...)
	}
}

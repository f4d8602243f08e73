package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// The store keeps the user's views (CREATE VIEW) too, one file each:
//
//	registry-v1/view/NAME.json   a StoredView
//
// written like the rest of the store (0600 through a temporary file and a
// rename, in the 0700 directory with the marker). A view is only text: the
// engine expands it into the statements that read it.

// StoredView is one view kept in the store.
type StoredView struct {
	Name string `json:"name"`
	// Query is the view's SELECT as written.
	Query   string    `json:"query"`
	Created time.Time `json:"created"`
}

// viewFile is the form of a view's name (sqlfront.ValidViewName's).
var viewFile = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// MaxViewBytes bounds one view's query.
const MaxViewBytes = 256 << 10

// PutView writes a view (replacing the view of that name).
func (s *Store) PutView(v StoredView) error {
	if !viewFile.MatchString(v.Name) {
		return fmt.Errorf("view name %q must be lower-case letters, digits and underscores", v.Name)
	}
	if len(v.Query) > MaxViewBytes {
		return fmt.Errorf("view %s: its query is %d bytes; the limit is %d", v.Name, len(v.Query), MaxViewBytes)
	}
	return s.putJSON("view", v.Name, v)
}

// View reads one view; ok is false when there is none.
func (s *Store) View(name string) (StoredView, bool, error) {
	if !viewFile.MatchString(name) {
		return StoredView{}, false, nil
	}
	data, path, ok, err := s.readJSON("view", name)
	if !ok || err != nil {
		return StoredView{}, false, err
	}
	var v StoredView
	if err := json.Unmarshal(data, &v); err != nil || v.Name != name || strings.TrimSpace(v.Query) == "" {
		return StoredView{}, false, fmt.Errorf("%s is not a valid view file; remove it (DROP VIEW %s) and create the view again", path, name)
	}
	return v, true, nil
}

// RemoveView removes a view; ok is false when there was none.
func (s *Store) RemoveView(name string) (bool, error) {
	if !viewFile.MatchString(name) {
		return false, nil
	}
	err := os.Remove(filepath.Join(s.root, "view", name+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// HasViews reports whether the store may hold a view (a file of a
// view's name), without reading any: statements that read no view pay
// one directory read for them.
func (s *Store) HasViews() bool {
	entries, err := os.ReadDir(filepath.Join(s.root, "view"))
	if err != nil {
		return false
	}
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".json"); ok && viewFile.MatchString(name) {
			return true
		}
	}
	return false
}

// Views returns every view, sorted by name. A file that cannot be read
// is left out, and the error names it.
func (s *Store) Views() ([]StoredView, error) {
	return listJSON(s, "view", viewFile.MatchString, s.View)
}

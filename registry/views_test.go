package registry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStoreViews(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.HasViews() {
		t.Fatal("an empty store has views")
	}
	if err := s.PutView(StoredView{Name: "Bad-Name", Query: "SELECT 1"}); err == nil {
		t.Fatal("a bad name was stored")
	}
	v := StoredView{Name: "repo_langs", Query: "SELECT 1", Created: time.Unix(1, 0).UTC()}
	if err := s.PutView(v); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(s.Dir(), "view", "repo_langs.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("view file %v %v", fi, err)
	}
	if got, ok, err := s.View("repo_langs"); err != nil || !ok || got != v {
		t.Fatalf("View: %+v %v %v", got, ok, err)
	}
	if !s.HasViews() {
		t.Fatal("HasViews is false with a view")
	}
	os.WriteFile(filepath.Join(s.Dir(), "view", "broken.json"), []byte("{"), 0o600)
	all, err := s.Views()
	if len(all) != 1 || err == nil || !strings.Contains(err.Error(), "broken.json is not a valid view file") {
		t.Fatalf("Views with a broken file: %+v %v", all, err)
	}
	if ok, err := s.RemoveView("repo_langs"); !ok || err != nil {
		t.Fatalf("RemoveView: %v %v", ok, err)
	}
	if ok, err := s.RemoveView("repo_langs"); ok || err != nil {
		t.Fatalf("RemoveView of none: %v %v", ok, err)
	}
}

package testutil

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update is the -update flag of every test package that imports
// testutil (go test ./PKG -run TestX -update): Golden writes instead of
// comparing. A package that imports testutil must not declare its own.
var update = flag.Bool("update", false, "rewrite the golden files (testutil.Golden) from this run")

// Updating reports whether the run rewrites golden files (-update).
func Updating() bool { return *update }

// Golden compares got with the golden file at path, so that a change of
// output is a reviewed diff. With -update it writes got there instead,
// creating the directory. A missing golden file fails, saying to create
// it with -update.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (rerun with -update if intended):\ngot\n%s\nwant\n%s", path, got, want)
	}
}

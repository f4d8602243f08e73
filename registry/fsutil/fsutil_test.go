package fsutil

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileReplacesAndCleansUp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new"), 0o640, ".tmp-*"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "new" {
		t.Fatalf("content %q, %v", b, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want 0640", fi.Mode().Perm())
	}
	// A failing fill leaves the old file and no temporary file.
	boom := errors.New("boom")
	if err := Write(p, 0o600, ".tmp-*", func(w io.Writer) error { w.Write([]byte("half")); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Fatalf("after a failed write the file holds %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only the file", len(entries))
	}
}

func TestPrivateDirCheck(t *testing.T) {
	d := PrivateDir{What: "cache directory", ModeProblem: "writable by group or others", ModeAdvice: "chmod go-w", OwnerAdvice: "use your own"}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(dir)
	if err := d.Check(dir, fi, 0o022); err != nil {
		t.Fatalf("private directory refused: %v", err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	fi, _ = os.Stat(dir)
	err := d.Check(dir, fi, 0o022)
	if err == nil || !strings.Contains(err.Error(), "cache directory "+dir+" is writable by group or others (mode 0777); chmod go-w") {
		t.Fatalf("open directory: %v", err)
	}
	f := filepath.Join(dir, "file")
	os.WriteFile(f, nil, 0o600)
	fi, _ = os.Stat(f)
	if err := d.Check(f, fi, 0o022); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Fatalf("file: %v", err)
	}
}

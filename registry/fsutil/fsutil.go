// Package fsutil holds the file-system steps shared by the engine's
// on-disk stores (the registry store, the HTTP cache) and its generators
// (cmd/indexgen): replacing a file atomically, and checking that a
// directory is private to the user. It sits at the bottom of the package
// spine (docs/architecture.md) and imports nothing of the engine.
package fsutil

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces path with data, with mode perm, through a temporary
// file (named by pattern, see os.CreateTemp) in the same directory, so a
// reader never sees half a file.
func WriteFile(path string, data []byte, perm fs.FileMode, pattern string) error {
	return Write(path, perm, pattern, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// Write is WriteFile with the content written by fill. The temporary file
// is removed on any failure.
func Write(path string, perm fs.FileMode, pattern string, fill func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), pattern)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := fill(tmp); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Chmod(tmp.Name(), perm); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fail(err)
	}
	return nil
}

// PrivateDir says how to report a directory that is not private: What
// names it ("cache directory"), ModeProblem and ModeAdvice complete the
// error for forbidden mode bits, OwnerAdvice the one for another owner.
type PrivateDir struct {
	What, ModeProblem, ModeAdvice, OwnerAdvice string
}

// Check returns an error when fi (of path) is not a directory owned by the
// user, or has any of the mode bits in forbidden.
func (d PrivateDir) Check(path string, fi fs.FileInfo, forbidden fs.FileMode) error {
	if !fi.IsDir() {
		return fmt.Errorf("%s %s is not a directory", d.What, path)
	}
	if m := fi.Mode().Perm(); m&forbidden != 0 {
		return fmt.Errorf("%s %s is %s (mode %04o); %s", d.What, path, d.ModeProblem, m, d.ModeAdvice)
	}
	if !OwnedByMe(fi) {
		return fmt.Errorf("%s %s belongs to another user; %s", d.What, path, d.OwnerAdvice)
	}
	return nil
}

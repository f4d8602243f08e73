package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// compiledRows measures `--provider` start-up for a real 2.5 MB
// description (testdata/ghes-3.2.json.gz, unpacked) once `engine registry
// add` has compiled it (the compiled index is decoded, the document only
// hashed), and, for contrast, without a compiled index (the document is
// parsed and derived on that start, as every start did before), and the
// same statement on the embedded GitHub index, which is the floor.
func (b *bench) compiledRows(root string, add addRow) {
	gz, err := os.ReadFile(filepath.Join(root, "test", "bench", "testdata", "ghes-3.2.json.gz"))
	if err != nil {
		fail("bench document: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		fail("bench document: %v", err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		fail("bench document: %v", err)
	}
	dir, _ := os.MkdirTemp("", "engine-bench-doc-")
	defer os.RemoveAll(dir)
	doc := filepath.Join(dir, "ghes-3.2.json")
	if err := os.WriteFile(doc, plain, 0o600); err != nil {
		fail("bench document: %v", err)
	}
	start := func(env []string, provider ...string) time.Duration {
		name := "github"
		if len(provider) == 0 {
			name, provider = "ghes", []string{"--provider", "ghes=" + doc}
		}
		args := append(provider, "exec", "-o", "csv", "EXPLAIN SELECT name FROM "+name+".repos.repos WHERE org = 'acme'")
		cmd := exec.Command(b.bin, args...)
		cmd.Env = env
		var errb bytes.Buffer
		cmd.Stderr = &errb
		t := time.Now()
		if err := cmd.Run(); err != nil {
			fail("--provider ghes: %v\n%s", err, errb.String())
		}
		return time.Since(t)
	}
	dataEnv := func() []string {
		d, _ := os.MkdirTemp("", "engine-bench-data-")
		return b.env("XDG_DATA_HOME=" + d)
	}
	var cold, warm, embedded []time.Duration
	for i := 0; i < *runs; i++ {
		cold = append(cold, start(dataEnv())) // a new data directory: no compiled index yet
	}
	env := dataEnv()
	cmd := exec.Command(b.bin, "registry", "add", "ghes", doc)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "added provider ghes") {
		fail("registry add ghes: %v\n%s", err, out)
	}
	for i := 0; i < *runs; i++ { // alternating, so that both see the same load
		warm = append(warm, start(env))
		embedded = append(embedded, start(env, "--auth", `{"github":{"type":"null_auth"}}`))
	}
	add("--provider 2.5 MB description, after registry add: start to exit (median)", ms(median(warm)), "< 30 ms")
	add("--provider 2.5 MB description, not compiled: start to exit (median)", ms(median(cold)), "")
	add("embedded GitHub index, same EXPLAIN: start to exit (median)", ms(median(embedded)), "")
}

// Command fakegithub runs the fake GitHub REST API of package
// github.com/enginehq/engine/test/fakegithub as a standalone process, for
// shell tests and demos:
//
//	go run ./test/fakegithub/cmd/fakegithub -addr 127.0.0.1:8099
//
// Faults and the request log are driven over HTTP (see /_fake/ in the
// package documentation), e.g.
//
//	curl -X POST localhost:8099/_fake/faults -d '{"path":"^/orgs/acme/repos$","page":2,"kind":"rate_limit"}'
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8099", "listen address")
	latency := flag.Duration("latency", 0, "delay added to every API response")
	token := flag.String("token", "", "if set, require this token (Authorization: Bearer/token)")
	var repos []string
	flag.Func("repos", "org=N: size (or create) an org; repeatable", func(v string) error {
		repos = append(repos, v)
		return nil
	})
	flag.Parse()

	opts := []fakegithub.Option{fakegithub.WithLatency(*latency)}
	if *token != "" {
		opts = append(opts, fakegithub.WithToken(*token))
	}
	for _, v := range repos {
		org, n, ok := strings.Cut(v, "=")
		count, err := strconv.Atoi(n)
		if !ok || err != nil || count < 0 {
			log.Fatalf("fakegithub: -repos %q: want org=N", v)
		}
		opts = append(opts, fakegithub.WithRepos(org, count))
	}
	s, err := fakegithub.Start(*addr, opts...)
	if err != nil {
		log.Fatalf("fakegithub: %v", err)
	}
	fmt.Fprintf(os.Stderr, "fakegithub listening on %s\n", s.URL())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := s.Shutdown(shutdown); err != nil {
		s.Close()
	}
}

// Command fakeapis serves the fake Stripe-, Slack- and Jira-like APIs of
// package fakeapis on a loopback port, for manual runs:
//
//	go run ./test/fakeapis/cmd/fakeapis -addr 127.0.0.1:8081
//	engine exec --provider stripe=test/fakeapis/docs/stripe.json ... (ENGINE_BASE_URL_STRIPE=http://127.0.0.1:8081/stripe)
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/enginehq/engine/test/fakeapis"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeapis:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "fakeapis listening on http://%s\n", ln.Addr())
	s := &fakeapis.Server{}
	if err := http.Serve(ln, s.Handler()); err != nil {
		fmt.Fprintln(os.Stderr, "fakeapis:", err)
		os.Exit(1)
	}
}

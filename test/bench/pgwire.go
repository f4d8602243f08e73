package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/enginehq/engine/test/testutil"
)

// pgRows measures the Postgres endpoint (engine pg, docs/pg.md): rows per
// second of SELECT * over 10k rows read by pgx through the wire (the
// extended protocol, binary where pgx asks for it; the rows' bytes, not
// decoded into Go values: that is the client's cost), against the same
// statement through exec -o csv, best of 3 rounds each, and the server's
// peak RSS after the large result (rows streamed, not held).
func (b *bench) pgRows(add addRow) {
	const n = 10000
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail("pg: %v", err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(b.bin, "pg", "--listen", addr, "--auth", `{"github":{"type":"null_auth"}}`)
	cmd.Env = b.env()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		fail("pg: %v", err)
	}
	if err := cmd.Start(); err != nil {
		fail("pg: %v", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := false
		for sc.Scan() {
			if !once && strings.Contains(sc.Text(), "listening on") {
				once = true
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(time.Minute):
		fail("pg: the server did not start")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "postgres://bench@"+addr+"/github?sslmode=disable")
	if err != nil {
		fail("pg: connect: %v", err)
	}
	defer conn.Close(ctx)
	sql := fmt.Sprintf("SELECT * FROM github.repos.repos WHERE org = '%s'", org10k)
	wire := func() time.Duration {
		start := time.Now()
		rows, err := conn.Query(ctx, sql)
		if err != nil {
			fail("pg: %v", err)
		}
		got := 0
		for rows.Next() {
			_ = rows.RawValues() // the wire's bytes; decoding them is the client's cost
			got++
		}
		if err := rows.Err(); err != nil || got != n {
			fail("pg: %d rows, %v", got, err)
		}
		return time.Since(start)
	}
	var pg, ex time.Duration
	for range 3 {
		if d := wire(); pg == 0 || d < pg {
			pg = d
		}
		if d := b.best(1, "csv", sql); ex == 0 || d < ex {
			ex = d
		}
	}
	rate := func(d time.Duration) float64 { return float64(n) / d.Seconds() }
	add("pg wire: 10k rows SELECT * read by pgx", fmt.Sprintf("%s, %.0f rows/s", ms(pg), rate(pg)), "")
	add("pg wire vs exec -o csv (same statement)", fmt.Sprintf("%.0f vs %.0f rows/s, %.2fx the time", rate(pg), rate(ex), float64(pg)/float64(ex)), "<= 1.5x")
	if rss, err := testutil.VmHWM(cmd.Process.Pid); err == nil {
		add("pg wire: server peak RSS after the rounds", fmt.Sprintf("%d MB", rss>>20), "")
	}
}

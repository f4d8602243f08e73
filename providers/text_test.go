package providers

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestElideMiddle: long text keeps its head and tail, says how much was
// elided, stays within about max bytes and valid UTF-8; short text is as
// is.
func TestElideMiddle(t *testing.T) {
	if got := ElideMiddle("short", 100); got != "short" {
		t.Fatalf("%q", got)
	}
	long := "GET https://api.example.com/orgs/acme/repos?cursor=" + strings.Repeat("é", 1<<20) + "&page=2 failed"
	got := ElideMiddle(long, 1024)
	if !strings.HasPrefix(got, "GET https://api.example.com/orgs/acme/repos?cursor=") || !strings.HasSuffix(got, "&page=2 failed") ||
		len(got) > 1024+40 || !utf8.ValidString(got) {
		t.Fatalf("%d bytes: %q", len(got), got)
	}
	m := regexp.MustCompile(`…\[(\d+) bytes elided\]…`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no marker: %q", got)
	}
	n, _ := strconv.Atoi(m[1])
	if len(got)-len(m[0])+n != len(long) {
		t.Fatalf("%d bytes elided, kept %d, of %d", n, len(got)-len(m[0]), len(long))
	}
}

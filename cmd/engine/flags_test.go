package main

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/registry"
)

func TestParseProviderFlag(t *testing.T) {
	src, err := parseProviderFlag("petstore=./specs/petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if src.Name != "petstore" || src.Kind != registry.KindOpenAPI || src.Path != "./specs/petstore.yaml" || src.Data == nil {
		t.Errorf("source = %+v", src)
	}
	if _, err := src.Data(); err == nil {
		t.Error("reading a missing file succeeded")
	}
	if src, err := parseProviderFlag(" my_api2 = /tmp/x.idx "); err != nil || src.Kind != registry.KindIndex || src.Name != "my_api2" || src.Path != "/tmp/x.idx" {
		t.Errorf("index source = %+v, %v", src, err)
	}
	// The path may itself contain '='.
	if src, err := parseProviderFlag("a=dir/x=y.json"); err != nil || src.Path != "dir/x=y.json" {
		t.Errorf("path with '=' = %+v, %v", src, err)
	}
	for in, want := range map[string]string{
		"":                  "NAME=PATH",
		"petstore.yaml":     "NAME=PATH",
		"=petstore.yaml":    "name before '=' is empty",
		"petstore=":         "path after '=' is empty",
		"Pet-Store=x.yaml":  "lower-case",
		"pet.store=x.yaml":  "lower-case",
		"1pets=x.yaml":      "lower-case",
		"pets store=x.yaml": "lower-case",
	} {
		_, err := parseProviderFlag(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseProviderFlag(%q) error = %v, want it to mention %q", in, err, want)
		}
	}
}

func TestParseProviderFlagProfile(t *testing.T) {
	s, err := parseProviderFlag("stripe=./stripe.json,profile=./stripe-profile.json")
	if err != nil || s.Name != "stripe" || s.Path != "./stripe.json" || s.Profile != "./stripe-profile.json" || s.Kind != registry.KindOpenAPI {
		t.Fatalf("got %+v, %v", s, err)
	}
	for _, bad := range []string{"stripe=./s.json,profile=", "stripe=./s.idx,profile=p.json"} {
		if _, err := parseProviderFlag(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestParseAuthFlag(t *testing.T) {
	if a, err := parseAuthFlag(`{"github":{"type":"bearer","credentialsenvvar":"T"}}`); err != nil || a["github"].CredentialsEnvVar != "T" {
		t.Fatalf("%+v %v", a, err)
	}
	for in, want := range map[string]string{
		`{"github":{"type":"bearer"}}`: `--auth github: type "bearer" needs credentialsenvvar`,
		`{"github":{"type":"magic"}}`:  `--auth github: unknown type "magic"`,
		`{"github":{"type":"app"}}`:    "--auth github: type app needs app_id",
		`{"github":{"typo":"bearer"}}`: "--auth: json: unknown field",
		`not json`:                     "expected e.g.",
	} {
		if _, err := parseAuthFlag(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func TestParseBool(t *testing.T) {
	for in, want := range map[string]bool{"true": true, "TRUE": true, " 1 ": true, "On": true, "yes": true, "false": false, "0": false, "OFF": false, "No": false} {
		if got, ok := parseBool(in); !ok || got != want {
			t.Errorf("parseBool(%q) = %v, %v", in, got, ok)
		}
	}
	for _, in := range []string{"", "maybe", "y", "t", "2", "enabled"} {
		if _, ok := parseBool(in); ok {
			t.Errorf("parseBool(%q) accepted", in)
		}
	}
}

func TestNearestConfigKey(t *testing.T) {
	names := []string{"max-rows", "max-requests", "max-pages", "mcp_max_rows", "debug"}
	for in, want := range map[string]string{"mcp_max_rowz": "mcp_max_rows", "max-reqests": "max-requests", "max_reqests": "max_requests", "debgu": "debug", "zzzzzzzz": ""} {
		if got := nearestKey(in, names); got != want {
			t.Errorf("nearestKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBoundAccepted(t *testing.T) {
	for _, c := range []struct {
		b    setting
		want string
	}{
		{setting{flag: "max-requests", lift: true}, "give a positive number or -1 (no bound)"},
		{setting{flag: "retry-max", zeroMeans: "no retry"}, "give a positive number or 0 (no retry)"},
		{setting{flag: "max-body-bytes"}, "give a positive number"},
	} {
		if got := c.b.accepted(); got != c.want {
			t.Errorf("%s: %q, want %q", c.b.flag, got, c.want)
		}
	}
}

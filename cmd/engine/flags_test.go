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

package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

// The syntax of the flags that name providers and their credentials lives
// here, in the command layer: the libraries take typed values
// (registry.FileSource, providers.AuthConfig) and their errors name no
// flag; these functions phrase them with the flag.

// parseProviderFlag parses one --provider NAME=PATH[,profile=FILE] value.
func parseProviderFlag(s string) (registry.Source, error) {
	spec, profile := s, ""
	if i := strings.LastIndex(s, ",profile="); i >= 0 {
		spec, profile = s[:i], strings.TrimSpace(s[i+len(",profile="):])
		if profile == "" {
			return registry.Source{}, fmt.Errorf("--provider %q: the profile file after ',profile=' is empty", s)
		}
	}
	name, p, ok := strings.Cut(spec, "=")
	name, p = strings.TrimSpace(name), strings.TrimSpace(p)
	switch {
	case !ok:
		return registry.Source{}, fmt.Errorf("--provider %q: expected NAME=PATH, e.g. --provider petstore=./petstore.yaml", s)
	case name == "":
		return registry.Source{}, fmt.Errorf("--provider %q: the provider name before '=' is empty", s)
	case p == "" && registry.ValidName(name):
		return registry.Source{}, fmt.Errorf("--provider %q: the path after '=' is empty", s)
	}
	src, err := registry.FileSource(name, p, profile)
	if err != nil {
		return registry.Source{}, fmt.Errorf("--provider %q: %v", s, err)
	}
	return src, nil
}

// parseAuthFlag parses the --auth JSON object keyed by provider name.
func parseAuthFlag(s string) (map[string]providers.AuthConfig, error) {
	return parseAuth(s, "--auth")
}

// parseAuth parses the auth setting's JSON object keyed by provider
// name; its errors begin with where, the setting as the user gave it
// ("--auth", or the config file and key: globalFlags.where).
func parseAuth(s, where string) (map[string]providers.AuthConfig, error) {
	out := map[string]providers.AuthConfig{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		if strings.HasPrefix(where, "--") {
			return nil, fmt.Errorf(`%s: %v; expected e.g. '{"github":{"type":"bearer","credentialsenvvar":"GITHUB_TOKEN"}}' or '{"github":{"type":"null_auth"}}'`, where, err)
		}
		return nil, fmt.Errorf(`%s: %v; expected a mapping keyed by provider name, e.g. {github: {type: bearer, credentialsenvvar: GITHUB_TOKEN}} or {github: {type: null_auth}} (or the same as a JSON string)`, where, err)
	}
	names := make([]string, 0, len(out))
	for name := range out {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := out[name].Check(); err != nil {
			return nil, fmt.Errorf("%s %s: %v", where, name, err)
		}
	}
	return out, nil
}

// parseParams parses the param setting: NAME.PARAM=VALUE entries, by
// provider then the API's parameter name; errors begin with where.
func parseParams(entries []string, where string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, e := range entries {
		key, v, ok := strings.Cut(e, "=")
		name, param, dot := strings.Cut(key, ".")
		if !ok || !dot || name == "" || param == "" || v == "" {
			return nil, fmt.Errorf("%s %q: expected NAME.PARAM=VALUE, e.g. --param xero.xero-tenant-id=VALUE (in the config file, param: {xero.xero-tenant-id: VALUE})", where, e)
		}
		if err := providers.CheckPresetName(param); err != nil {
			return nil, fmt.Errorf("%s %q: %v", where, e, err)
		}
		name = strings.ToLower(name)
		if out[name] == nil {
			out[name] = map[string]string{}
		}
		out[name][param] = v
	}
	return out, nil
}

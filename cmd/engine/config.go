package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/enginehq/engine/providers"
	"gopkg.in/yaml.v3"
)

// Config file: a YAML mapping of flag names to values, e.g.
//
//	base-url: {github: https://ghe.example.com/api/v3}   # or a list of NAME=URL
//	max-requests: 500
//	cache-ttl: 5m
//	mcp_max_rows: 50       # docs/mcp.md's setting names of the MCP caps are accepted too
//	auth: {github: {type: bearer, credentialsenvvar: MY_TOKEN}}   # or the --auth JSON as a string
//
// It is read from --config FILE (or $ENGINE_CONFIG), else
// <user config dir>/engine/config.yaml when that exists. Precedence:
// command-line flag, then environment variable (envTable), then config
// file, then default.

// configAliases maps the setting names of docs/mcp.md to the flag of
// engine mcp they set; other commands leave them alone (check's own
// --max-rows means something else).
var configAliases = map[string]configAlias{
	"mcp_max_rows":           {"mcp", "max-rows"},
	"mcp_max_bytes":          {"mcp", "max-bytes"},
	"mcp_max_cell_bytes":     {"mcp", "max-cell-bytes"},
	"mcp_max_resource_bytes": {"mcp", "max-resource-bytes"},
}

// configAlias is a config key that sets one command's flag.
type configAlias struct{ cmd, flag string }

// defaultConfigPath is the config file in the user config dir, or "" when
// there is none.
func defaultConfigPath(userConfigDir func() (string, error)) string {
	dir, err := userConfigDir()
	if err != nil {
		return ""
	}
	p := filepath.Join(dir, "engine", "config.yaml")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// jsonSettings are the flags whose value is a JSON document: in the
// config file a YAML mapping of the same shape is that document.
var jsonSettings = map[string]bool{"auth": true}

// applyConfig sets, from the config file, every flag of cmd that was not
// given on the command line and whose environment variable is unset
// (envGiven, from applyEnv), and returns the flags it set with the key
// that set each. A missing file is an error only when it was named
// (explicit).
func applyConfig(cmd *cobra.Command, path string, explicit bool, envGiven map[string]bool) (map[string]string, error) {
	set := map[string]string{}
	if path == "" {
		return set, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return set, nil
		}
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	var values map[string]any
	if err := yaml.Unmarshal(data, &values); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	flags := cmd.Flags()
	var unknown []string
	keyOf := map[string]string{} // flag name -> the key that names it
	for _, key := range slices.Sorted(maps.Keys(values)) {
		v := values[key]
		name := strings.ReplaceAll(key, "_", "-")
		if alias, ok := configAliases[key]; ok {
			if cmd.Name() != alias.cmd {
				continue // another command's setting
			}
			name = alias.flag
		}
		if other, dup := keyOf[name]; dup {
			return nil, fmt.Errorf("config %s: %s and %s both set --%s of engine %s; keep one", path, other, key, name, cmd.Name())
		}
		keyOf[name] = key
		f := flags.Lookup(name)
		if f == nil {
			if cmd.Root().PersistentFlags().Lookup(name) == nil && !anySubcommandHas(cmd.Root(), name) {
				unknown = append(unknown, key)
			}
			continue // a setting of another subcommand
		}
		if f.Changed || envGiven[name] {
			continue
		}
		vals := configValues(v)
		if jsonSettings[name] {
			s, err := configJSON(v)
			if err != nil {
				return nil, fmt.Errorf("config %s: %s: %v", path, key, err)
			}
			vals = []string{s}
		}
		for _, s := range vals {
			if f.Value.Type() == "bool" {
				on, ok := parseBool(s)
				if !ok {
					return nil, fmt.Errorf("config %s: %s: %q is not a boolean; use %s", path, key, s, boolWords)
				}
				s = strconv.FormatBool(on)
			}
			if err := flags.Set(name, s); err != nil {
				return nil, fmt.Errorf("config %s: %s: %q is not valid (%s)", path, key, s, cutFlagError(err))
			}
		}
		set[name] = key
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		names := configKeys(cmd.Root())
		for i, key := range unknown {
			if near := nearestKey(key, names); near != "" {
				unknown[i] = fmt.Sprintf("%s (did you mean %s?)", key, near)
			}
		}
		return nil, fmt.Errorf("config %s: unknown settings %s; the keys are flag names (engine --help, engine SUBCOMMAND --help)", path, strings.Join(unknown, ", "))
	}
	return set, nil
}

// configJSON renders the value of a JSON setting: a string as itself (the
// flag's JSON text), a mapping as its JSON.
func configJSON(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case map[string]any:
		b, err := json.Marshal(x)
		if err != nil {
			return "", fmt.Errorf("%v; write it as a mapping with string keys, or as a JSON string", err)
		}
		return string(b), nil
	}
	what := "a list"
	if _, ok := v.([]any); !ok {
		what = fmt.Sprintf("the scalar %v", v)
	}
	return "", fmt.Errorf("%s; write a mapping keyed by provider name, e.g. {github: {type: null_auth}}, or the same as a JSON string", what)
}

// configKeys is every key the config file takes: the flag names of root
// and its subcommands, and configAliases.
func configKeys(root *cobra.Command) []string {
	var out []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Name != "help" && f.Name != "version" && f.Name != "config" {
				out = append(out, f.Name)
			}
		})
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Name != "config" {
				out = append(out, f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for alias := range configAliases {
		out = append(out, alias)
	}
	return out
}

// nearestKey is the config key closest to an unknown one, written with
// '_' or '-' as the unknown key was, or "" when none is close enough to
// read as a typo.
func nearestKey(key string, names []string) string {
	dashed := strings.ReplaceAll(key, "_", "-")
	best, bestD := "", 0
	for _, form := range []string{key, dashed} {
		// the one typo rule (providers.TypoFixes); the closer form wins
		if fix := providers.TypoFixes(form, names, 1); len(fix) == 1 {
			if d := providers.EditDistance(form, fix[0]); best == "" || d < bestD {
				best, bestD = fix[0], d
			}
		}
	}
	if _, alias := configAliases[best]; best != "" && strings.Contains(key, "_") && !alias {
		best = strings.ReplaceAll(best, "-", "_")
	}
	return best
}

func anySubcommandHas(root *cobra.Command, name string) bool {
	for _, c := range root.Commands() {
		if c.Flags().Lookup(name) != nil || anySubcommandHas(c, name) {
			return true
		}
	}
	return false
}

// configValues renders a YAML value as flag values: scalars as one, lists
// as several (repeatable flags), maps as NAME=VALUE pairs.
func configValues(v any) []string {
	switch x := v.(type) {
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, fmt.Sprint(e))
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var out []string
		for _, k := range keys {
			if inner, ok := x[k].(map[string]any); ok {
				// param: {xero: {xero-tenant-id: ...}} is xero.xero-tenant-id=...
				for _, kv := range configValues(inner) {
					out = append(out, k+"."+kv)
				}
				continue
			}
			out = append(out, k+"="+fmt.Sprint(x[k]))
		}
		return out
	}
	return []string{fmt.Sprint(v)}
}

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"
)

// Config file: a YAML mapping of flag names to values, e.g.
//
//	base-url: {github: https://ghe.example.com/api/v3}   # or a list of NAME=URL
//	max-requests: 500
//	cache-ttl: 5m
//	mcp_max_rows: 50       # docs/mcp.md's setting names of the MCP caps are accepted too
//
// It is read from --config FILE (or $ENGINE_CONFIG), else
// <user config dir>/engine/config.yaml when that exists. Precedence:
// command-line flag, then environment variable (envTable), then config
// file, then default.

// configAliases maps the setting names of docs/mcp.md to flag names.
var configAliases = map[string]string{
	"mcp_max_rows":           "max-rows",
	"mcp_max_bytes":          "max-bytes",
	"mcp_max_cell_bytes":     "max-cell-bytes",
	"mcp_max_resource_bytes": "max-resource-bytes",
}

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

// applyConfig sets, from the config file, every flag of cmd that was not
// given on the command line and whose environment variable is unset
// (envGiven, from applyEnv). A missing file is an error only when it was
// named (explicit).
func applyConfig(cmd *cobra.Command, path string, explicit bool, envGiven map[string]bool) error {
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("config %s: %w", path, err)
	}
	var values map[string]any
	if err := yaml.Unmarshal(data, &values); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	flags := cmd.Flags()
	var unknown []string
	for key, v := range values {
		name := strings.ReplaceAll(key, "_", "-")
		if alias, ok := configAliases[key]; ok {
			name = alias
		}
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
		for _, s := range configValues(v) {
			if err := flags.Set(name, s); err != nil {
				return fmt.Errorf("config %s: %s: %v", path, key, err)
			}
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("config %s: unknown settings %s; the keys are flag names (engine --help, engine SUBCOMMAND --help)", path, strings.Join(unknown, ", "))
	}
	return nil
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
			out = append(out, k+"="+fmt.Sprint(x[k]))
		}
		return out
	}
	return []string{fmt.Sprint(v)}
}

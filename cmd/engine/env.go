package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// envParse says how an environment variable's value sets its flag.
type envParse int

const (
	// envValue: the value is parsed as the flag's own (a number, a
	// duration, a rate); an empty value counts as unset.
	envValue envParse = iota
	// envBool: a boolean, true/1/on/yes or false/0/off/no in any case
	// (parseBool, the config file's rule too); any other value is an
	// error naming the variable.
	envBool
)

// envNameOf is the environment variable of flag, "" when it has none.
func envNameOf(flag string) string {
	for _, v := range settings {
		if v.flag == flag {
			return v.env
		}
	}
	return ""
}

// envFlag finds the flag of a setting in the command tree of root.
func envFlag(root *cobra.Command, v setting) *pflag.Flag {
	if v.cmd == "" {
		return root.PersistentFlags().Lookup(v.flag)
	}
	c, _, err := root.Find(strings.Fields(v.cmd))
	if err != nil || c == root {
		return nil
	}
	return c.Flags().Lookup(v.flag)
}

// documentEnv appends "(env NAME)" to the usage of every flag in
// settings that has a variable. An entry whose flag does not exist is a
// programming error: it panics, and so fails every test.
func documentEnv(root *cobra.Command) {
	for _, v := range settings {
		f := envFlag(root, v)
		if f == nil {
			panic(fmt.Sprintf("settings: no flag --%s of %q", v.flag, v.cmd))
		}
		if v.env != "" {
			f.Usage += " (env " + v.env + ")"
		}
	}
}

// applyEnv sets, from the environment, each flag of cmd (the command
// being run) that the command line did not give. It returns the flags
// whose variable is set (even to ""), which the config file does not
// override.
func applyEnv(cmd *cobra.Command, lookup func(string) (string, bool)) (given map[string]bool, err error) {
	given = map[string]bool{}
	path := commandPath(cmd)
	for _, v := range settings {
		if v.env == "" || (v.cmd != "" && v.cmd != path) {
			continue
		}
		f := cmd.Flags().Lookup(v.flag)
		val, ok := lookup(v.env)
		if f == nil || !ok {
			continue
		}
		given[v.flag] = true
		if f.Changed || val == "" {
			continue
		}
		switch v.parse {
		case envValue:
		case envBool:
			on, ok := parseBool(val)
			if !ok {
				return nil, fmt.Errorf("%s=%q: not a boolean; use %s (or unset it)", v.env, val, boolWords)
			}
			val = strconv.FormatBool(on)
		}
		if err := cmd.Flags().Set(v.flag, strings.TrimSpace(val)); err != nil {
			return nil, fmt.Errorf("%s=%q: not a valid --%s (%v); fix or unset it", v.env, val, v.flag, cutFlagError(err))
		}
	}
	return given, nil
}

// cutFlagError keeps the reason of a pflag parse error without its
// `invalid argument "x" for "--flag" flag:` preamble.
func cutFlagError(err error) string {
	s := err.Error()
	if _, after, ok := strings.Cut(s, " flag: "); ok {
		return after
	}
	return s
}

package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The one rule of the numeric settings (README, "Configuration"), the
// same whether a value comes from a flag, its environment variable or
// the config file:
//
//   - a bound (most pages, requests, rows, bytes...) is a positive number;
//   - where a bound may be lifted, -1 lifts it ("-1: no bound" in its
//     help); nowhere else does a negative number mean anything;
//   - 0 is refused, except for the few settings whose 0 is a documented
//     choice rather than a bound (zeroMeans), e.g. --retry-max 0: no retry;
//   - a negative duration is refused, and so is 0 where it means nothing
//     (positiveDurations).
//
// The values that mean nothing are refused before any request, naming
// the setting as the user gave it.

// checkBounds refuses the values of cmd's numeric flags that mean
// nothing (the rule above); where names the setting as the user gave it.
func checkBounds(cmd *cobra.Command, where func(string) string) error {
	path := commandPath(cmd)
	for _, b := range settings {
		if !b.numeric || (b.cmd != "" && b.cmd != path) {
			continue
		}
		f := cmd.Flags().Lookup(b.flag)
		if f == nil || !f.Changed {
			continue
		}
		n, err := strconv.ParseInt(f.Value.String(), 10, 64)
		if err != nil {
			continue // pflag parsed it; not a number here is not ours to judge
		}
		if n > 0 || (n == -1 && b.lift) || (n == 0 && b.zeroMeans != "") {
			continue
		}
		return fmt.Errorf("%s: %s", givenAs(where(b.flag), f.Value.String()), b.accepted())
	}
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err != nil || f.Value.Type() != "duration" {
			return
		}
		d, perr := time.ParseDuration(f.Value.String())
		switch {
		case perr != nil:
		case d < 0:
			err = fmt.Errorf("%s: a duration is 0 or more (e.g. 30s, 5m; 0 where its help says what 0 means)", givenAs(where(f.Name), f.Value.String()))
		case d == 0 && positiveDuration(path, f.Name):
			err = fmt.Errorf("%s: give a positive duration (e.g. 30s, 5m)", givenAs(where(f.Name), f.Value.String()))
		}
	})
	return err
}

// positiveDuration reports whether flag of the subcommand at path is a
// duration whose 0 means nothing.
func positiveDuration(path, flag string) bool {
	for _, s := range settings {
		if s.flag == flag && s.positive && (s.cmd == "" || s.cmd == path) {
			return true
		}
	}
	return false
}

// givenAs is a setting and its value as the user wrote them: "--flag
// V", "VAR=V" or "config FILE: key: V".
func givenAs(where, v string) string {
	switch {
	case strings.HasPrefix(where, "--"):
		return where + " " + v
	case strings.HasPrefix(where, "config "):
		return where + ": " + v
	}
	return where + "=" + v
}

// accepted says which values the setting takes.
func (b setting) accepted() string {
	parts := []string{"give a positive number"}
	if b.zeroMeans != "" {
		parts = append(parts, "0 ("+b.zeroMeans+")")
	}
	if b.lift {
		parts = append(parts, "-1 (no bound)")
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// unbounded is n with -1 ("no bound", the CLI's spelling) turned into
// none, the spelling of an option struct whose zero or negative bound
// takes a default.
func unbounded(n, none int) int {
	if n == -1 {
		return none
	}
	return n
}

// commandPath is cmd's path below the root ("" for the root, "mcp").
func commandPath(cmd *cobra.Command) string {
	return strings.TrimPrefix(strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()), " ")
}

// The booleans: every boolean environment variable and config key takes
// the same words, in any case.
var (
	trueWords  = []string{"true", "1", "on", "yes"}
	falseWords = []string{"false", "0", "off", "no"}
)

// boolWords is the accepted values, as errors name them.
const boolWords = "true/false, 1/0, on/off or yes/no"

// parseBool reads a boolean setting's value.
func parseBool(s string) (bool, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for i := range trueWords {
		switch s {
		case trueWords[i]:
			return true, true
		case falseWords[i]:
			return false, true
		}
	}
	return false, false
}

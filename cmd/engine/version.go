package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// buildRevision is the source revision when the build says it with
// -ldflags "-X main.buildRevision=REV" (the Makefile's build does, for
// checkouts where the go command records none: a git worktree, or
// -buildvcs=false); the go command's own record (vcs.revision) wins.
var buildRevision string

// versionString is what `engine --version` and `engine version` print:
// the module version, the source revision and the Go toolchain, from the
// build information the go command records in the binary
// (runtime/debug.ReadBuildInfo), e.g.
//
//	engine v1.4.0 (revision 26bd6f2a1c3e, 2026-11-25T20:51:02Z) go1.26.8 linux/amd64
//	engine devel (revision 26bd6f2a1c3e-dirty) go1.26.8 linux/amd64
func versionString() string {
	return fmt.Sprintf("engine %s %s %s/%s", serverVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// serverVersion is the version and revision part of versionString, e.g.
// "v1.4.0 (revision 26bd6f2a1c3e, 2026-11-25T20:51:02Z)": what engine mcp
// reports as its serverInfo.version, so that an MCP client and
// `engine --version` name the same build.
func serverVersion() string {
	version, revision, when, dirty := "devel", "", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if len(revision) > 12 {
		revision = revision[:12]
	}
	if dirty {
		revision += "-dirty"
	}
	if revision == "" {
		revision = strings.TrimSpace(buildRevision)
	}
	var b strings.Builder
	b.WriteString(version)
	switch {
	case revision != "" && when != "":
		fmt.Fprintf(&b, " (revision %s, %s)", revision, when)
	case revision != "":
		fmt.Fprintf(&b, " (revision %s)", revision)
	default:
		b.WriteString(" (revision unknown)")
	}
	return b.String()
}

// newVersionCmd is `engine version`, the same line as `engine --version`.
// It reads no configuration, so it answers whatever the config file holds.
func newVersionCmd(g *globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:               "version",
		Short:             "Print the engine's version, source revision and Go toolchain (as --version does)",
		Args:              cobra.NoArgs,
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(g.io.Out, versionString())
			return nil
		},
	}
}

// Command engine runs SQL SELECTs over provider REST APIs described by
// OpenAPI (GitHub first): one-shot (exec), interactive (shell), for agents
// (mcp) and as compliance checks (check).
//
// Every command reads and writes through an IO (io.go), so that tests run
// whole command lines in-process (run) with buffers for the streams and a
// map for the environment.
package main

import (
	"github.com/enginehq/engine/providers/sharedstate"

	"os"
)

func main() {
	os.Exit(run(osIO(), os.Args[1:]))
}

// run runs one command line and returns the process's exit code.
func run(x *IO, args []string) int {
	g := &globalFlags{io: x}
	root := newRootCmd(g)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if g.debug {
		reportPeakMemory(x.Err)
	}
	if s := sharedstate.Summary(); s != "" && g.shared != nil {
		// Left and rejoined more than once: said once, here (each
		// surface said only the first time).
		g.stateWarnf("all surfaces")("%s", s)
	}
	if err != nil && cmd != nil && cmd.Name() == "exec" && jsonOutput(cmd, args) {
		err = asJSONError(err)
	}
	if err != nil && cmd != nil && cmd.Name() == "check" {
		err = flagProblemReport(x, cmd, args, err)
	}
	return exitStatus(x.Err, err)
}

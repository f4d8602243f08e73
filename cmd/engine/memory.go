package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// reportPeakMemory prints (run calls it with --debug) the process's peak resident set
// as the kernel counts it for this program (Linux VmHWM: the high-water
// mark of its own address space, which, unlike getrusage's maxrss, does not
// include the memory of the process that started it).
func reportPeakMemory(w io.Writer) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return // not Linux: nothing to report
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			fmt.Fprintf(w, "debug: peak memory %s (VmHWM)\n", strings.TrimSpace(v))
			return
		}
	}
}

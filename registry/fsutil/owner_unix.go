//go:build unix

package fsutil

import (
	"io/fs"
	"os"
	"syscall"
)

// OwnedByMe reports whether the file belongs to the process's effective
// user.
func OwnedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}

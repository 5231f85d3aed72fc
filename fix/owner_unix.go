//go:build unix

package fix

import (
	"os"
	"syscall"
)

// hardLinks returns the number of hard links of a file (0 if unknown).
func hardLinks(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 0
}

// keepOwner gives the temporary file the owner and group of the file it
// replaces, when the process may (as root); otherwise it keeps ours.
func keepOwner(tmp *os.File, orig string) {
	fi, err := os.Stat(orig)
	if err != nil {
		return
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	tfi, err := tmp.Stat()
	if err != nil {
		return
	}
	if tst, ok := tfi.Sys().(*syscall.Stat_t); ok && (tst.Uid != st.Uid || tst.Gid != st.Gid) {
		_ = tmp.Chown(int(st.Uid), int(st.Gid)) // best effort: not permitted unless root
	}
}

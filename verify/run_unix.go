//go:build unix

package verify

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts c in a process group of its own, and makes its
// cancellation kill that whole group, not only the first process.
func ownProcessGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
}

// killProcessGroup kills what is left of c's process group.
func killProcessGroup(c *exec.Cmd) {
	if c.Process != nil {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
}

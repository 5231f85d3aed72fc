//go:build !unix

package verify

import "os/exec"

// Without process groups only the command itself is killed; WaitDelay still
// bounds the wait for its output.
func ownProcessGroup(*exec.Cmd)  {}
func killProcessGroup(*exec.Cmd) {}

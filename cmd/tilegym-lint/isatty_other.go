//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package main

// isTerminal: without a terminal ioctl to ask, no colour.
func isTerminal(fd uintptr) bool { return false }

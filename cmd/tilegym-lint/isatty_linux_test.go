package main

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair: the terminal side a program writes
// to and the side that reads what it wrote.
func openPTY(t *testing.T) (term, reader *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no pseudo-terminals here:", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		m.Close()
		t.Skip("unlockpt:", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		m.Close()
		t.Skip("ptsname:", e)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skip(err)
	}
	return s, m
}

// The text report is coloured on a terminal, through the LogWriter every
// command writes with (it once hid the terminal, and colour never showed).
func TestColorOnTerminal(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	term, reader := openPTY(t)
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(reader) // ends with an error once term is closed
		got <- b
	}()
	var stderr bytes.Buffer
	code := run([]string{"../../fixtures/example"}, term, &stderr)
	term.Close()
	out := <-got
	reader.Close()
	if code != 1 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	if !bytes.Contains(out, []byte("\x1b[")) {
		t.Errorf("no colour on a terminal:\n%s", out)
	}
}

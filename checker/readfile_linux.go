package checker

import (
	"io/fs"
	"syscall"
)

// readFile is os.ReadFile with fewer system calls (no poller registration,
// no *os.File): reading every file in scope is a good part of a one-op
// check. Its results and errors are os.ReadFile's.
func readFile(name string) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	size := 512
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) == nil && st.Size > 0 && int64(int(st.Size)) == st.Size {
		size = int(st.Size) + 1 // one more byte, to see the end in one read
	}
	data := make([]byte, 0, size)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		if err == syscall.EINTR {
			continue
		}
		if n > 0 {
			data = data[:len(data)+n]
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if n == 0 {
			return data, nil
		}
	}
}

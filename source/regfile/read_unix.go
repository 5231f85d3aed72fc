//go:build unix

package regfile

import (
	"io/fs"
	"syscall"
)

// Read returns the content of the regular file name (symbolic links
// followed). It opens the file non-blocking, so that opening a named pipe
// with no writer returns at once, and checks with fstat on the open file
// (not the path, which may have been replaced since it was listed) that it
// is regular. It is os.ReadFile with fewer system calls otherwise (no
// poller registration, no *os.File): reading every file in scope is a good
// part of a one-op check.
func Read(name string) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		m := fs.ModeIrregular
		switch st.Mode & syscall.S_IFMT {
		case syscall.S_IFDIR:
			m = fs.ModeDir
		case syscall.S_IFIFO:
			m = fs.ModeNamedPipe
		case syscall.S_IFSOCK:
			m = fs.ModeSocket
		case syscall.S_IFCHR:
			m = fs.ModeDevice | fs.ModeCharDevice
		case syscall.S_IFBLK:
			m = fs.ModeDevice
		}
		return nil, notRegular(name, m)
	}
	size := 512
	if st.Size > 0 && int64(int(st.Size)) == st.Size {
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

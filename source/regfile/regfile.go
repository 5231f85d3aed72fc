// Package regfile reads regular files only. Every file the linter reads
// (checked sources, configuration found by walking up from the checked
// directory, catalogs, files a fix edits) goes through Read, so that a
// named pipe, a device or a socket where a file was expected, placed there
// beforehand or swapped in while a run lists the tree, is refused with an
// error naming it rather than hanging the run or reading without end. A
// report file the linter writes (Write) is likewise a regular file, never
// a symbolic link followed.
package regfile

import (
	"errors"
	"io/fs"
)

// ErrNotRegular is the error (inside an *fs.PathError) of Read on a path
// that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// notRegular is the error of Read on a file of mode m.
func notRegular(name string, m fs.FileMode) error {
	return &fs.PathError{Op: "read", Path: name, Err: &kindError{kind: Kind(m)}}
}

type kindError struct{ kind string }

func (e *kindError) Error() string {
	return "not a regular file but " + e.kind + "; tilegym-lint reads only regular files (remove or rename it)"
}
func (e *kindError) Is(target error) bool { return target == ErrNotRegular }

// Kind names the type of a file mode, for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

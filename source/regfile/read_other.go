//go:build !unix

package regfile

import (
	"io"
	"os"
)

// Read returns the content of the regular file name (symbolic links
// followed), refusing any other type of file. Where there are no named
// pipes to block on open, the type is checked on the open file.
func Read(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(name, fi.Mode())
	}
	return io.ReadAll(f)
}

package regfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes the file name through a buffer (appending with appendTo).
// A report file may name a path of the checked repository, which a pull
// request writes: a symbolic link committed there must not make the tool
// write where it points. So a new file is written to a temporary file in the same
// directory and renamed over name (replacing a link, never following it);
// appending (a job summary collects every step's) is refused when name is
// a symbolic link or not a regular file.
func Write(name string, appendTo bool, write func(io.Writer) error) error {
	if appendTo {
		return appendFile(name, write)
	}
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close() // a second Close after a failed rename: harmless
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriter(tmp)
	if err := write(w); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	renamed = true
	return nil
}

// appendFile appends to the regular file name (created if missing).
func appendFile(name string, write func(io.Writer) error) error {
	if fi, err := os.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		what := "not a regular file"
		if fi.Mode()&os.ModeSymlink != 0 {
			what = "a symbolic link"
		}
		return fmt.Errorf("%s is %s; name a regular file to append the summary to", name, what)
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = write(w)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

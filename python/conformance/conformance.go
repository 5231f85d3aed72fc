// Package conformance runs the parser over Python files and prints their
// syntax trees in the canonical form of package astdump, for comparison
// with CPython's (tools/pyastdump.py, scripts/parser-conformance), and
// times it: what `tilegym-lint parse` does.
package conformance

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tilegym/tilegym-lint/python/astdump"
	"github.com/tilegym/tilegym-lint/python/parser"
	"github.com/tilegym/tilegym-lint/source/regfile"
)

// DumpSource parses src and returns its canonical dump (or error object)
// without a newline, and whether the parser accepted the file. A panic in
// the parser is reported as a rejection whose message starts with "panic:".
func DumpSource(name string, src []byte) (out []byte, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			stack := string(debug.Stack())
			if i := strings.Index(stack, "panic("); i >= 0 {
				stack = stack[i:]
			}
			if len(stack) > 2000 {
				stack = stack[:2000]
			}
			out = astdump.AppendError(nil, fmt.Sprintf("panic: %v\n%s", r, stack), 0, 0)
			ok = false
		}
	}()
	f, err := parser.ParseFile(name, src)
	if err != nil {
		var pe *parser.Error
		if errors.As(err, &pe) {
			return astdump.AppendError(nil, pe.Msg, pe.Line, pe.Col+1), false
		}
		return astdump.AppendError(nil, err.Error(), 0, 0), false
	}
	// On error, b still holds the whole dump with an "unknown" marker in
	// place of the unsupported value, which shows up as a disagreement.
	b, _ := astdump.Append(nil, f)
	return b, true
}

// DumpFile writes the canonical dump of the file at path and a newline to
// w, and reports whether the parser accepted it; err is an I/O error (the
// file unreadable, w failing).
func DumpFile(path string, w io.Writer) (ok bool, err error) {
	src, err := regfile.Read(path)
	if err != nil {
		return false, err
	}
	out, ok := DumpSource(path, src)
	out = append(out, '\n')
	if _, err := w.Write(out); err != nil {
		return false, err
	}
	return ok, nil
}

// CollectPy returns the slash-separated paths, relative to root, of the
// regular .py files under root, sorted bytewise. Symbolic links are not
// followed (a symlinked root directory is). Unreadable subdirectories are
// reported to warn and skipped.
func CollectPy(root string, warn io.Writer) ([]string, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", root)
	}
	walkRoot := root
	if li, err := os.Lstat(root); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		walkRoot = root + string(filepath.Separator)
	}
	var files []string
	err = filepath.WalkDir(walkRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == walkRoot {
				return err
			}
			fmt.Fprintf(warn, "tilegym-lint parse: skipping %v\n", err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".py") {
			return nil
		}
		rel, err := filepath.Rel(walkRoot, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if strings.ContainsAny(rel, "\t\n\r") {
			fmt.Fprintf(warn, "tilegym-lint parse: skipping %q: tab or newline in name\n", rel)
			return nil
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

// DumpAll writes, for every .py file under root (CollectPy's list),
// "<path relative to root>\t<canonical json>\n" to w, in that order; a
// file that cannot be read gets an error object. Skipped directories are
// reported to warn; err is root unreadable or w failing.
func DumpAll(root string, w, warn io.Writer) error {
	files, err := CollectPy(root, warn)
	if err != nil {
		return err
	}
	workers := runtime.GOMAXPROCS(0)
	// Results are printed in order; at most `window` files are in flight so
	// memory stays bounded however the sizes are distributed.
	window := 4 * workers
	slots := make([]chan []byte, len(files))
	for i := range slots {
		slots[i] = make(chan []byte, 1)
	}
	tokens := make(chan struct{}, window)
	jobs := make(chan int)
	go func() {
		for i := range files {
			tokens <- struct{}{}
			jobs <- i
		}
		close(jobs)
	}()
	for w := 0; w < workers; w++ {
		go func() {
			for i := range jobs {
				rel := files[i]
				path := filepath.Join(root, filepath.FromSlash(rel))
				var line []byte
				line = append(line, rel...)
				line = append(line, '\t')
				src, err := regfile.Read(path)
				if err != nil {
					line = astdump.AppendError(line, "I/O error: "+err.Error(), 0, 0)
				} else {
					out, _ := DumpSource(path, src)
					line = append(line, out...)
				}
				slots[i] <- append(line, '\n')
			}
		}()
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var werr error
	for i := range files {
		line := <-slots[i]
		slots[i] = nil
		if werr == nil {
			_, werr = bw.Write(line)
		}
		<-tokens
	}
	if werr == nil {
		werr = bw.Flush()
	}
	return werr
}

// Stats is what a timed parse of many files measured.
type Stats struct {
	Files   int
	Bytes   int64
	Seconds float64 // wall time of the parse alone, files already read
	Errors  int     // files the parser rejected (a panic counts)
}

// String is the line `tilegym-lint parse --stats` prints.
func (s Stats) String() string {
	return fmt.Sprintf("files=%d bytes=%d seconds=%.3f errors=%d", s.Files, s.Bytes, s.Seconds, s.Errors)
}

// Time reads every .py file under the paths (a path may also be a file),
// then parses them all in parallel and measures it. A path or file that
// cannot be read is reported to warn and left out; failed says whether
// one was.
func Time(paths []string, warn io.Writer) (s Stats, failed bool) {
	type file struct {
		name string
		src  []byte
	}
	var files []file
	var total int64
	add := func(path string) {
		src, err := regfile.Read(path)
		if err != nil {
			fmt.Fprintf(warn, "tilegym-lint parse: %v\n", err)
			failed = true
			return
		}
		files = append(files, file{path, src})
		total += int64(len(src))
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(warn, "tilegym-lint parse: %v\n", err)
			failed = true
			continue
		}
		if !info.IsDir() {
			add(p)
			continue
		}
		rels, err := CollectPy(p, warn)
		if err != nil {
			fmt.Fprintf(warn, "tilegym-lint parse: %v\n", err)
			failed = true
			continue
		}
		for _, rel := range rels {
			add(filepath.Join(p, filepath.FromSlash(rel)))
		}
	}

	workers := runtime.GOMAXPROCS(0)
	var (
		mu   sync.Mutex
		errs int
		next int
		wg   sync.WaitGroup
	)
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(files) {
					return
				}
				if !parsesOK(files[i].name, files[i].src) {
					mu.Lock()
					errs++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	return Stats{Files: len(files), Bytes: total, Seconds: elapsed.Seconds(), Errors: errs}, failed
}

// parsesOK reports whether the parser accepts src (a panic counts as a
// rejection).
func parsesOK(name string, src []byte) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ok = false
		}
	}()
	_, err := parser.ParseFile(name, src)
	return err == nil
}

package main

import (
	"bufio"
	"errors"
	"flag"
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

const parseUsage = `usage:
  tilegym-lint parse --dump FILE        print the canonical JSON dump of FILE's syntax tree
                                        (exit 0 parsed, 1 rejected, 2 I/O error)
  tilegym-lint parse --dump-all DIR     for every .py under DIR (sorted, recursive, no symlinks):
                                        "<path relative to DIR>\t<canonical json>"
  tilegym-lint parse --stats PATH...    parse every .py under the paths and print
                                        "files=N bytes=B seconds=S errors=E"
The canonical form is described in package python/astdump and tools/pyastdump.py.
`

// runParse implements `tilegym-lint parse`, the parser's debugging and
// conformance entry point.
func runParse(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("tilegym-lint parse", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = func() { fmt.Fprint(stderr, parseUsage) }
	dump := fset.Bool("dump", false, "print the canonical dump of one FILE")
	dumpAll := fset.Bool("dump-all", false, "dump every .py file under DIR, one per line")
	stats := fset.Bool("stats", false, "parse every .py under the PATHs and print timing")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	rest := fset.Args()
	modes := 0
	for _, on := range []bool{*dump, *dumpAll, *stats} {
		if on {
			modes++
		}
	}
	switch {
	case modes != 1:
		fmt.Fprint(stderr, "tilegym-lint parse: need exactly one of --dump, --dump-all, --stats\n"+parseUsage)
		return 2
	case *dump && len(rest) == 1:
		return parseDumpOne(rest[0], stdout, stderr)
	case *dumpAll && len(rest) == 1:
		return parseDumpAll(rest[0], stdout, stderr)
	case *stats && len(rest) >= 1:
		return parseStats(rest, stdout, stderr)
	}
	fmt.Fprint(stderr, "tilegym-lint parse: wrong number of arguments\n"+parseUsage)
	return 2
}

// dumpSource parses src and returns its canonical dump (or error object)
// without a newline, and whether the parser accepted the file. A panic in
// the parser is reported as a rejection whose message starts with "panic:".
func dumpSource(name string, src []byte) (out []byte, ok bool) {
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

func parseDumpOne(path string, stdout, stderr io.Writer) int {
	src, err := regfile.Read(path)
	if err != nil {
		fmt.Fprintf(stderr, "tilegym-lint parse: %v\n", err)
		return 2
	}
	out, ok := dumpSource(path, src)
	out = append(out, '\n')
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "tilegym-lint parse: %v\n", err)
		return 2
	}
	if !ok {
		return 1
	}
	return 0
}

// collectPy returns the slash-separated paths, relative to root, of the
// regular .py files under root, sorted bytewise. Symbolic links are not
// followed (a symlinked root directory is). Unreadable subdirectories are
// reported to warn and skipped.
func collectPy(root string, warn io.Writer) ([]string, error) {
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

func parseDumpAll(root string, stdout, stderr io.Writer) int {
	files, err := collectPy(root, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "tilegym-lint parse: %v\n", err)
		return 2
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
					out, _ := dumpSource(path, src)
					line = append(line, out...)
				}
				slots[i] <- append(line, '\n')
			}
		}()
	}
	bw := bufio.NewWriterSize(stdout, 1<<20)
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
	if werr != nil {
		fmt.Fprintf(stderr, "tilegym-lint parse: %v\n", werr)
		return 2
	}
	return 0
}

func parseStats(paths []string, stdout, stderr io.Writer) int {
	type file struct {
		name string
		src  []byte
	}
	var files []file
	status := 0
	var total int64
	add := func(path string) {
		src, err := regfile.Read(path)
		if err != nil {
			fmt.Fprintf(stderr, "tilegym-lint parse: %v\n", err)
			status = 2
			return
		}
		files = append(files, file{path, src})
		total += int64(len(src))
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(stderr, "tilegym-lint parse: %v\n", err)
			status = 2
			continue
		}
		if !info.IsDir() {
			add(p)
			continue
		}
		rels, err := collectPy(p, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "tilegym-lint parse: %v\n", err)
			status = 2
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
	fmt.Fprintf(stdout, "files=%d bytes=%d seconds=%.3f errors=%d\n", len(files), total, elapsed.Seconds(), errs)
	return status
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

// Command fixtureoverlay converts between a fixture as a whole directory
// and its overlay on fixtures/good (fixtures/rules/NAME.txtar).
//
//	go run ./tools/fixtureoverlay [-base good,softmax-only] DIR...
//	    write fixtures/rules/BASENAME.txtar for each DIR
//	go run ./tools/fixtureoverlay -extract NAME DIR
//	    write fixture NAME out as DIR
//
// An overlay holds the files of DIR that its base lacks or has with other
// bytes, and a ".deleted" section listing the files of the base that DIR
// lacks. The base is the fixture of -base (a comma list: the one giving the
// smallest overlay); a base other than good is named in a ".base" section.
// Each overlay written is read back and checked to give DIR exactly. An
// existing overlay's comment is kept.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/internal/fixtureset"
)

func main() {
	extract := flag.String("extract", "", "write the fixture of this name out as the directory given")
	bases := flag.String("base", fixtureset.Base, "the fixtures an overlay may apply to (comma list; the smallest overlay wins)")
	flag.Parse()
	if err := run(*extract, strings.Split(*bases, ","), flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "fixtureoverlay: %v\n", err)
		os.Exit(1)
	}
}

func run(extract string, bases, args []string) error {
	if extract != "" {
		if len(args) != 1 {
			return fmt.Errorf("-extract NAME DIR: want one directory")
		}
		f, err := fixtureset.Lookup(extract)
		if err != nil {
			return err
		}
		files, err := f.Files()
		if err != nil {
			return err
		}
		if _, err := os.Stat(args[0]); err == nil {
			return fmt.Errorf("%s exists", args[0])
		}
		return fixtureset.WriteDir(args[0], files)
	}
	if len(args) == 0 {
		return fmt.Errorf("usage: fixtureoverlay DIR... | -extract NAME DIR")
	}
	for _, dir := range args {
		var best []byte
		var bestBase string
		for _, b := range bases {
			data, err := overlay(b, dir)
			if err != nil {
				return fmt.Errorf("%s on %s: %v", dir, b, err)
			}
			if best == nil || len(data) < len(best) {
				best, bestBase = data, b
			}
		}
		name := filepath.Base(filepath.Clean(dir))
		out := filepath.Join(fixtureset.Root(), fixtureset.OverlayDir, name+".txtar")
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, best, 0o644); err != nil {
			return err
		}
		// Read back as the tests will: every path and byte of dir.
		f, err := fixtureset.Lookup(name)
		if err != nil {
			return err
		}
		got, err := f.Files()
		if err != nil {
			return err
		}
		want, err := fixtureset.ReadDir(dir)
		if err != nil {
			return err
		}
		if err := same(got, want); err != nil {
			return fmt.Errorf("%s does not reproduce %s: %v", out, dir, err)
		}
		fmt.Printf("%s: on %s, %d bytes, reproduces %s (%d files)\n", out, bestBase, len(best), dir, len(want))
	}
	return nil
}

// overlay returns the overlay that gives dir from the fixture baseName.
func overlay(baseName, dir string) ([]byte, error) {
	bf, err := fixtureset.Lookup(baseName)
	if err != nil {
		return nil, err
	}
	base, err := bf.Files()
	if err != nil {
		return nil, err
	}
	want, err := fixtureset.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(filepath.Clean(dir))
	out := filepath.Join(fixtureset.Root(), fixtureset.OverlayDir, name+".txtar")
	ar := &fixtureset.Archive{Comment: []byte(name + ": " + baseName + " with the files below changed (see fixtures/README.md).\n")}
	if old, err := os.ReadFile(out); err == nil {
		if a, err := fixtureset.Parse(old); err == nil && len(a.Comment) > 0 {
			ar.Comment = a.Comment
		}
	}
	if baseName != fixtureset.Base {
		ar.Files = append(ar.Files, fixtureset.File{Name: fixtureset.BaseSection, Data: []byte(baseName + "\n")})
	}
	var deleted []string
	for p := range base {
		if _, ok := want[p]; !ok {
			deleted = append(deleted, p)
		}
	}
	sort.Strings(deleted)
	if len(deleted) > 0 {
		ar.Files = append(ar.Files, fixtureset.File{Name: fixtureset.DeletedSection, Data: []byte(strings.Join(deleted, "\n") + "\n")})
	}
	var changed []string
	for p, data := range want {
		if b, ok := base[p]; !ok || !bytes.Equal(b, data) {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	for _, p := range changed {
		ar.Files = append(ar.Files, fixtureset.File{Name: p, Data: want[p]})
	}
	data, err := fixtureset.Format(ar)
	if err != nil {
		return nil, err
	}
	// Read it back: base + overlay must be the directory, every path and
	// every byte.
	back, err := fixtureset.Parse(data)
	if err != nil {
		return nil, err
	}
	got, err := fixtureset.Apply(base, back)
	if err != nil {
		return nil, err
	}
	if err := same(got, want); err != nil {
		return nil, fmt.Errorf("overlay does not reproduce the directory: %v", err)
	}
	return data, nil
}

func same(got, want map[string][]byte) error {
	for p, w := range want {
		g, ok := got[p]
		if !ok {
			return fmt.Errorf("%s missing", p)
		}
		if !bytes.Equal(g, w) {
			return fmt.Errorf("%s differs", p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			return fmt.Errorf("%s extra", p)
		}
	}
	return nil
}

package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// moduleVersion is the version of tilegym-lint's module the binary was built
// from, as the Go toolchain recorded it: the tag for `go install
// ...@v1.2.3`, a pseudo-version for a commit, and "(devel)" for a build in a
// checkout (without version control stamping).
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" {
		return "(devel)"
	}
	return bi.Main.Version
}

// writeVersion prints the module version and the catalog's version, which
// together say which rules a run applies.
func writeVersion(w io.Writer, catalogVersion int, catalogFile string) error {
	_, err := fmt.Fprintf(w, "tilegym-lint %s (rule catalog version %d, %s)\n", moduleVersion(), catalogVersion, catalogFile)
	return err
}

package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// A release build stamps its tag and commit (scripts/release-build:
// -ldflags "-X main.version=v1.2.3 -X main.commit=<sha>"); other builds
// leave them empty and take what the Go toolchain recorded.
var version, commit string

// buildVersion returns the version and commit the binary was built from:
// the release's stamps; else the module version Go recorded (the tag for
// `go install ...@v1.2.3`, a pseudo-version for `@<commit>`, a
// VCS-derived or "(devel)" version in a checkout) and the VCS revision Go
// stamped for a build in a git checkout.
func buildVersion(bi *debug.BuildInfo, ok bool) (ver, rev string) {
	ver, rev = version, commit
	if ver == "" {
		ver = "(devel)"
		if ok && bi.Main.Version != "" {
			ver = bi.Main.Version
		}
	}
	if rev == "" && ok {
		dirty := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" && dirty {
			rev += "+dirty"
		}
	}
	return ver, rev
}

// moduleVersion is the version SARIF's tool.driver names.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	v, _ := buildVersion(bi, ok)
	return v
}

// writeVersion prints the version, the commit when known, and the catalog's
// version, which together say which rules a run applies.
func writeVersion(w io.Writer, catalogVersion int, catalogFile string) error {
	bi, ok := debug.ReadBuildInfo()
	v, rev := buildVersion(bi, ok)
	if rev != "" {
		v += " (commit " + rev + ")"
	}
	_, err := fmt.Fprintf(w, "tilegym-lint %s, rule catalog version %d (%s)\n", v, catalogVersion, catalogFile)
	return err
}

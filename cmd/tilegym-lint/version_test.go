package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	installed := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261203101500-0123456789ab"}}
	checkout := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, c := range []struct {
		name             string
		stampV, stampC   string
		bi               *debug.BuildInfo
		ok               bool
		wantVer, wantRev string
	}{
		{"go install module@commit", "", "", installed, true, "v0.0.0-20261203101500-0123456789ab", ""},
		{"build in a modified checkout", "", "", checkout, true, "(devel)", "0123456789abcdef0123456789abcdef01234567+dirty"},
		{"release", "v1.2.3", "fedcba", checkout, true, "v1.2.3", "fedcba"},
		{"no build info", "", "", nil, false, "(devel)", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			version, commit = c.stampV, c.stampC
			defer func() { version, commit = "", "" }()
			v, r := buildVersion(c.bi, c.ok)
			if v != c.wantVer || r != c.wantRev {
				t.Errorf("buildVersion = %q, %q; want %q, %q", v, r, c.wantVer, c.wantRev)
			}
		})
	}
}

// A binary stamped as scripts/release-build stamps it prints its tag and
// commit.
func TestVersionOfReleaseBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "tilegym-lint")
	build := exec.Command("go", "build", "-o", bin,
		"-ldflags", "-X main.version=v9.8.7 -X main.commit=abcdef0123456789", ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "tilegym-lint v9.8.7 (commit abcdef0123456789), rule catalog version "; !strings.HasPrefix(string(out), want) {
		t.Errorf("--version printed %q, want it to start with %q", out, want)
	}
}

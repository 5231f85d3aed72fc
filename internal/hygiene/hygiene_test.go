package hygiene

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tracked returns the files git tracks, relative to the repository root,
// and that root; the test is skipped outside a git checkout.
func tracked(t *testing.T) (root string, files []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not a git checkout")
	}
	root = strings.TrimSpace(string(out))
	ls := exec.Command("git", "ls-files", "-z")
	ls.Dir = root
	out, err = ls.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return root, files
}

// executableMagic are the first bytes of the executable formats Go builds:
// ELF, Mach-O (32 and 64 bit, both byte orders, and universal), PE.
var executableMagic = [][]byte{
	[]byte("\x7fELF"),
	{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf},
	{0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe},
	{0xca, 0xfe, 0xba, 0xbe},
	[]byte("MZ"),
}

func isExecutable(head []byte) bool {
	for _, m := range executableMagic {
		if bytes.HasPrefix(head, m) {
			return true
		}
	}
	return false
}

// TestNothingBuiltIsTracked: no tracked file is a compiled executable (a
// binary built in the checkout and committed by mistake).
func TestNothingBuiltIsTracked(t *testing.T) {
	root, files := tracked(t)
	for _, f := range files {
		fh, err := os.Open(filepath.Join(root, f))
		if err != nil {
			continue // deleted in the working tree
		}
		head := make([]byte, 4)
		n, _ := fh.Read(head)
		fh.Close()
		if isExecutable(head[:n]) {
			t.Errorf("%s is a compiled executable: remove it (git rm --cached) and build outside the tree", f)
		}
	}
}

// absPath is a quoted absolute path into a directory of some machine: a
// test naming one passes only where that directory exists.
var absPath = regexp.MustCompile(`["` + "`" + `'](/(?:work|home|root|Users|opt|srv|mnt|data|scratch)/[^"` + "`" + `']*)`)

// TestNoMachinePathsInTests: no Go test file, and no test helper package
// (internal/), names an absolute path outside the repository; a test that
// needs a real TileGym tree asks realtree for $TILEGYM_LINT_TREE.
func TestNoMachinePathsInTests(t *testing.T) {
	root, files := tracked(t)
	for _, f := range files {
		if !strings.HasSuffix(f, ".go") || strings.HasPrefix(f, "fixtures/") {
			continue
		}
		if !strings.HasSuffix(f, "_test.go") && !strings.HasPrefix(f, "internal/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := absPath.FindStringSubmatch(line); m != nil {
				t.Errorf("%s:%d names the machine path %s: read a real tree through realtree.Need or realtree.Dir", f, i+1, m[1])
			}
		}
	}
}

func TestDetectors(t *testing.T) {
	for _, c := range []struct {
		head string
		want bool
	}{{"\x7fELF", true}, {"MZ\x90\x00", true}, {"\xcf\xfa\xed\xfe", true}, {"#!/u", false}, {"pack", false}, {"", false}} {
		if got := isExecutable([]byte(c.head)); got != c.want {
			t.Errorf("isExecutable(%q) = %v", c.head, got)
		}
	}
	for _, c := range []struct {
		line string
		want bool
	}{
		// Split so that this file names no such path itself.
		{`dir := "/wo` + `rk/tilegym"`, true},
		{"p := `/ho" + "me/me/TileGym`", true},
		{`os.Open("/dev/null")`, false},
		{`filepath.Join(dir, "src/tilegym")`, false},
	} {
		if got := absPath.MatchString(c.line); got != c.want {
			t.Errorf("absPath on %q: %v", c.line, got)
		}
	}
}

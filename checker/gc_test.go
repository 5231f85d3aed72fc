package checker

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/source"
)

// sourceBytes, which sizes the memory limit, counts the files a check
// reads: those the layout puts in scope, not every Python file.
func TestSourceBytes(t *testing.T) {
	dir := t.TempDir()
	testrepo.CopyDir(t, "../fixtures/good", dir)
	// Python files no scope reads, at the root and under a directory
	// that is listed.
	for _, p := range []string{"setup_helper.py", "tests/ops/conftest.py"} {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, 5000), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	setup := config.NewSetup(cat, nil)
	repo, err := load.Load(&source.DiskSource{Dir: dir}, setup)
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for _, f := range repo.Files {
		want += int64(len(f.Src))
	}
	if got := sourceBytes(dir, setup); got != want || want == 0 {
		t.Errorf("sourceBytes = %d, want %d (the files Load reads)", got, want)
	}
}

func TestNextMemoryLimit(t *testing.T) {
	for _, tt := range []struct{ base, live, want int64 }{
		{base: 240 << 20, live: 100 << 20, want: 240 << 20}, // the source's share
		{base: 240 << 20, live: 200 << 20, want: 300 << 20}, // denser than expected: half the live heap as room
	} {
		if got := nextMemoryLimit(tt.base, tt.live); got != tt.want {
			t.Errorf("nextMemoryLimit(%d, %d) = %d, want %d", tt.base, tt.live, got, tt.want)
		}
	}
}

// gcChildEnv, set, makes TestWholeCheckNeverCollects run as the child
// process it starts: a fresh heap, tuned as the command tunes it.
const gcChildEnv = "TILEGYM_LINT_TEST_GC_CHILD"

// TestWholeCheckNeverCollects: under TuneGC, a whole check of a TileGym
// checkout with every family, its report written, runs no garbage
// collection (gcFreeHeap is above what it allocates, runtime included: the
// families' pattern matching made it collect once at 64 MiB). It runs in a
// child process, whose heap holds nothing else.
func TestWholeCheckNeverCollects(t *testing.T) {
	dir := realtree.Need(t)
	if os.Getenv(gcChildEnv) == "" {
		if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
			t.Skip("GOGC or GOMEMLIMIT is set: TuneGC leaves the collector alone")
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestWholeCheckNeverCollects$", "-test.v")
		cmd.Env = append(os.Environ(), gcChildEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestWholeCheckNeverCollects") {
			t.Fatalf("the child check: %v\n%s", err, out)
		}
		return
	}
	TuneGC()
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	setup, err := config.Open(cat, dir, "", config.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := CheckSource(&source.DiskSource{Dir: dir}, setup, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_ = res.String() // as long as a report
	runtime.ReadMemStats(&after)
	if n := after.NumGC - before.NumGC; n != 0 {
		t.Errorf("a whole check of %s ran %d collections (%d MB allocated, %d MB obtained from the system); gcFreeHeap is %d MB",
			dir, n, (after.TotalAlloc-before.TotalAlloc)>>20, after.Sys>>20, gcFreeHeap>>20)
	}
}

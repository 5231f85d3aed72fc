package checker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
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
	layout := config.BuildLayout(&cat.Layout, nil)
	repo, err := load.Load(&source.DiskSource{Dir: dir}, &config.Setup{Layout: layout})
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for _, f := range repo.Files {
		want += int64(len(f.Src))
	}
	if got := sourceBytes(dir, layout); got != want || want == 0 {
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

package load

import (
	"testing"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/source"
)

// TestForgetKeepsMarkedTable: a loader that forgets what it parsed since a
// mark takes the op table built at the mark back, instead of building it
// again (a check in batches forgets each batch's files).
func TestForgetKeepsMarkedTable(t *testing.T) {
	dir := "../fixtures/good"
	cat := testrepo.Catalog(t)
	l, err := NewLoader(&source.DiskSource{Dir: dir}, config.NewSetup(cat, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !l.Seed(nil) {
		t.Fatal("a dispatch file does not parse")
	}
	seeds := l.OpTable()
	m := l.Mark()
	l.ParseAll()
	if l.OpTable() == seeds {
		t.Fatal("the op table was not built again for the files parsed since")
	}
	l.Forget(m)
	if l.OpTable() != seeds {
		t.Error("Forget dropped the op table of the mark's files; it is built again")
	}
}

package load

import (
	"testing"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/source"
)

// What change mode asks of a head's and a base's loaders: the base takes
// the head's wrappers; DropTable leaves a repository whose op table a
// check builds from every file; SetRoot names the checkout.
func TestLoaderRepoMethods(t *testing.T) {
	s := config.NewSetup(testrepo.Catalog(t), nil)
	var ls [2]*Loader
	for i := range ls {
		l, err := NewLoader(&source.DiskSource{Dir: "../fixtures/good"}, s)
		if err != nil {
			t.Fatal(err)
		}
		if l.Load(nil) == nil {
			t.Fatal("Load returned no repository")
		}
		ls[i] = l
	}
	head, base := ls[0], ls[1]
	if head.Repo.Table == nil || head.Repo.Wrappers == nil {
		t.Fatalf("Load left the repository without its op table (%v) or wrappers (%v)", head.Repo.Table, head.Repo.Wrappers)
	}
	head.Repo.Wrappers["relu"] = []string{"tilegym.ops.relu_wrapper"}
	base.UseWrappersOf(head)
	if w := base.Repo.Wrappers["relu"]; len(w) != 1 || w[0] != "tilegym.ops.relu_wrapper" {
		t.Errorf("UseWrappersOf: the base's wrappers of relu are %q, not the head's", w)
	}
	head.DropTable()
	if head.Repo.Table != nil || head.Repo.Wrappers != nil {
		t.Error("DropTable left the op table or the wrappers in the repository")
	}
	head.SetRoot("checkout")
	if head.Repo.Root != "checkout" {
		t.Errorf("SetRoot: root %q", head.Repo.Root)
	}
}

package scaffold

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/report"
	"github.com/tilegym/tilegym-lint/source"
)

// TestNotStarted: of the names --op gives, an existing op and a name that
// cannot be an op are not new; a valid new name is, with its suite and
// the existing op it is close to; withoutNew leaves the others.
func TestNotStarted(t *testing.T) {
	res, err := checker.CheckSource(&source.DiskSource{Dir: "../fixtures/good"}, config.NewSetup(testrepo.Catalog(t), nil), checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"softmax", "softmaxx", "demo.new_op", "1bad", "demo.2bad"}
	got := NotStarted(res.Table, names)
	want := []report.NewOp{
		{Name: "softmaxx", Func: "softmaxx", Similar: "softmax"},
		{Name: "demo.new_op", Suite: "demo", Func: "new_op"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NotStarted (-want +got):\n%s", diff)
	}
	if rest := withoutNew(names, got); !slices.Equal(rest, []string{"softmax", "1bad", "demo.2bad"}) {
		t.Errorf("withoutNew = %q", rest)
	}
	if NotStarted(nil, names) != nil {
		t.Error("NotStarted(no table) is not nil")
	}
}

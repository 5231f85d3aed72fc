package checker

import (
	"testing"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/source"
)

// TestRobustSteps123 runs the whole catalog over a tree of odd and broken
// inputs for the op table and the step 1-3 kinds (bare and dynamic
// decorators, starred arguments, lambdas, non-function registrations,
// relative imports past the top, computed __all__, malformed directives):
// nothing may panic or fail, and the obviously wrong stubs are reported.
func TestRobustSteps123(t *testing.T) {
	cat := testrepo.Catalog(t)
	repo, err := load.Load(&source.DiskSource{Dir: "testdata/robust-steps123"}, config.NewSetup(cat, nil))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(repo, config.NewSetup(cat, nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors {
		t.Errorf("analyzer failure: %v", e)
	}
	seen := map[string]bool{}
	for _, d := range res.Diagnostics {
		seen[d.Rule.ID+" "+d.Op] = true
		if d.Rule.ID == "TG207" {
			t.Errorf("TG207 on *args/**kwargs of a kernel: %s", d.Message)
		}
	}
	for _, want := range []string{
		"TG102 y.wrong", // a suite op without the suite's namespace
		"TG102 x",       // "x" in suite x has no "x." prefix
		"TG002 cond",    // malformed skip directives in its cuTile module
		"TG205 cond",    // no **kwargs in the registered function
	} {
		if !seen[want] {
			t.Errorf("missing %s; got %v", want, seen)
		}
	}
}

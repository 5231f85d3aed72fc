package checker

import (
	"slices"
	"testing"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// --op takes an op's dispatch name, or an unnamespaced op's function name;
// a name of no op is refused with the closest one suggested.
func TestCheckOpNames(t *testing.T) {
	cat := testrepo.Catalog(t)
	res, err := Check(mustLoad(t, "../fixtures/good", cat), config.NewSetup(cat, nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	table := res.Table
	names := OpNames(table)
	if !slices.Contains(names, "softmax") || !slices.Contains(names, "demo.scale") || slices.Contains(names, "scale") || !slices.IsSorted(names) {
		t.Errorf("OpNames = %v", names)
	}
	if err := CheckOpNames(table, []string{"softmax", "demo.scale"}); err != nil {
		t.Errorf("known ops: %v", err)
	}
	err = CheckOpNames(table, []string{"sofmax", "softmax"})
	if err == nil || err.Error() != "--op: no op named sofmax (did you mean softmax?) in this checkout" {
		t.Errorf("a misspelt op: %v", err)
	}
	if err := CheckOpNames(nil, []string{"x"}); err != nil {
		t.Errorf("no table: %v", err)
	}
}

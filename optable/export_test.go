package optable

import (
	"fmt"
	"reflect"

	"github.com/tilegym/tilegym-lint/layout"
)

// CommentsScanned is how many comments the op table's builders have read
// for skip directives so far.
func CommentsScanned() int64 { return commentsScanned.Load() }

// SkipsInMismatches compares skipsIn with skipsInScan on every file of
// repo, for line windows starting at each comment's line and the line
// above it; it returns the differences and how many windows it compared.
func SkipsInMismatches(repo *Repo) (diffs []string, compared int) {
	b := &opTableBuilder{repo: repo, names: layout.LayoutNames(repo.Layout)}
	for _, f := range b.files() {
		for _, c := range f.AST.Comments {
			for _, start := range []int{c.Pos.Line - 1, c.Pos.Line, c.Pos.Line + 1} {
				for _, span := range []int{0, 1, 3, 20, 1000} {
					compared++
					got, want := b.skipsIn(f, start, start+span), b.skipsInScan(f, start, start+span)
					if len(got) != 0 || len(want) != 0 {
						if !reflect.DeepEqual(got, want) {
							diffs = append(diffs, fmt.Sprintf("%s lines %d-%d: %v, scan %v", f.Path, start, start+span, got, want))
						}
					}
				}
			}
		}
	}
	return diffs, compared
}

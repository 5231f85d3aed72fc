package optable

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/source"
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

// AboutMismatches compares aboutOps with aboutOpsScan on every test and
// benchmark file of tab, for the ops serving it and for all ops of the
// table; it returns the differences and how many files it compared.
func AboutMismatches(tab *OpTable) (diffs []string, compared int) {
	served := map[*source.File][]*Op{}
	var files []*source.File
	for _, op := range tab.Ops {
		for _, f := range append(append([]*source.File{}, op.Tests...), op.Benchmarks...) {
			if served[f] == nil {
				files = append(files, f)
			}
			served[f] = append(served[f], op)
		}
	}
	for _, f := range files {
		var impls []*Impl
		for _, im := range tab.Impls {
			if im.File == f {
				impls = append(impls, im)
			}
		}
		for _, ops := range [][]*Op{served[f], tab.Ops} {
			compared++
			if got, want := aboutOps(f, ops, impls), aboutOpsScan(f, ops, impls); !reflect.DeepEqual(got, want) {
				diffs = append(diffs, fmt.Sprintf("%s: aboutOps %v, scan %v", f.Path, opNames(got), opNames(want)))
			}
		}
	}
	return diffs, compared
}

func opNames(ops []*Op) []string {
	var out []string
	for _, op := range ops {
		out = append(out, op.Name)
	}
	return out
}

// BestNamed returns the ops of funcs (one op per function name) that the
// names match best, by the index and by the scan.
func BestNamed(funcs, names []string) (got, want []string) {
	var served []*Op
	for _, fn := range funcs {
		served = append(served, &Op{Name: fn, Func: fn})
	}
	g, w := newPartIndex(served).bestOps(names), bestNamedScan(names, served)
	for _, op := range served {
		if g[op] {
			got = append(got, op.Func)
		}
		if w[op] {
			want = append(want, op.Func)
		}
	}
	return got, want
}

// AboutOpsOf is aboutOps of the ops that serve f in tab.
func AboutOpsOf(tab *OpTable, f *source.File) []*Op {
	var served []*Op
	for _, op := range tab.Ops {
		if slices.Contains(op.Benchmarks, f) || slices.Contains(op.Tests, f) {
			served = append(served, op)
		}
	}
	return aboutOps(f, served, nil)
}

// closestBudget bounds the cells of edit-distance tables one Closest call
// measures.
const closestBudget = 1 << 20

// Closest returns the candidate nearest to s by edit distance, if it is
// near enough to be a plausible typo: at most max(2, len(s)/5) edits, ties
// to the smallest name. Names longer than MaxSuggestLen are neither
// answered nor suggested. Each call measures at most closestBudget cells.
func Closest(s string, candidates []string) string {
	sg := Suggester{limit: closestBudget}
	return sg.Closest(s, candidates)
}

// EditDistance is the Levenshtein distance of two strings (bytes).
func EditDistance(a, b string) int {
	d, _ := editDistanceWithin(a, b, len(a)+len(b), nil)
	return d
}

package optable

import (
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/source"
)

// The reference implementations the fast paths of this package are compared
// with (export_test.go): plain scans, kept beside the tests that use them so
// production code has one algorithm per job.

// aboutOpsScan is aboutOps scoring every name against every served op:
// the reference for aboutOps.
func aboutOpsScan(f *source.File, served []*Op, impls []*Impl) []*Op {
	if len(served) <= 1 {
		return served
	}
	return aboutFrom(served, impls, bestNamedScan(aboutNames(f), served))
}

// bestNamedScan returns the served ops that each name matches best (see
// aboutOps), together, scoring every name against every op: the reference
// for partIndex.bestOps.
func bestNamedScan(names []string, served []*Op) map[*Op]bool {
	type score struct{ found, missing int }
	aboutSet := map[*Op]bool{}
	for _, n := range names {
		words := nameParts(n)
		joined := strings.Join(words, "")
		best := score{}
		var bestOps []*Op
		for _, op := range served {
			sc := score{}
			for _, p := range nameParts(op.Func) {
				if slices.Contains(words, p) || len(p) >= 3 && strings.Contains(joined, p) {
					sc.found++
				} else {
					sc.missing++
				}
			}
			switch {
			case sc.found == 0:
			case len(bestOps) == 0 || sc.found > best.found || sc.found == best.found && sc.missing < best.missing:
				best, bestOps = sc, []*Op{op}
			case sc == best:
				bestOps = append(bestOps, op)
			}
		}
		for _, op := range bestOps {
			aboutSet[op] = true
		}
	}
	return aboutSet
}

// skipsInScan is skipsIn reading every comment of f: the reference for
// skipsIn.
func (b *opTableBuilder) skipsInScan(f *source.File, start, end int) []Skip {
	var out []Skip
	for _, c := range f.AST.Comments {
		if c.Pos.Line >= start && c.Pos.Line <= end {
			if sk, ok := parseSkip(b.names.Directive, c); ok {
				sk.File = f.Path
				out = append(out, sk)
			}
		}
	}
	commentsScanned.Add(int64(len(f.AST.Comments)))
	return out
}

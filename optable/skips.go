package optable

// Skip directives (`# tilegym-lint: skip-step=N reason="..."`): which
// steps of which op a comment skips, read once per file.

import (
	"sort"
	"sync/atomic"

	"github.com/tilegym/tilegym-lint/directive"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/source"
)

// findSkips reads the skip directives of each op: comments on the lines of
// its dispatch stub (or directly above its decorators), anywhere in the
// modules of its cuTile implementations, and the configuration's skips.
func (b *opTableBuilder) findSkips() {
	for _, op := range b.table.Ops {
		if op.Stub != nil {
			f := op.Stub.File
			start := StubStartLine(op.Stub)
			end := op.Stub.Def.End().Line
			// Extend upwards over a run of comment lines directly above.
			lines := CommentLines(f)
			for start > 1 && lines[start-1] {
				start--
			}
			op.Skips = append(op.Skips, b.skipsIn(f, start, end)...)
		}
		seen := map[string]bool{}
		for _, impl := range op.ImplsFor(b.names.CuTileBackend) {
			if impl.Module == "" || seen[impl.File.Path] {
				continue
			}
			seen[impl.File.Path] = true
			op.Skips = append(op.Skips, b.skipsOf(impl.File)...)
		}
		if b.repo.ConfigSkips != nil {
			op.Skips = append(op.Skips, b.repo.ConfigSkips[op.Name]...)
		}
	}
}

// commentsScanned counts the comments the op table's builders read for
// skip directives (a test checks that each is read once per file, not once
// per op of the file).
var commentsScanned atomic.Int64

// skipsOf returns the skip directives of f in source order, read once per
// file: a dispatch file or cuTile module holds the directives of many ops,
// and reading all of its comments per op made the table quadratic in them.
func (b *opTableBuilder) skipsOf(f *source.File) []Skip {
	if sk, ok := b.skips[f]; ok {
		return sk
	}
	var out []Skip
	for _, c := range f.AST.Comments {
		if sk, ok := parseSkip(b.names.Directive, c); ok {
			sk.File = f.Path
			out = append(out, sk)
		}
	}
	commentsScanned.Add(int64(len(f.AST.Comments)))
	// The tokenizer keeps comments in source order; sorted all the same,
	// as skipsIn's binary search needs it.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos.Line < out[j].Pos.Line })
	if b.skips == nil {
		b.skips = map[*source.File][]Skip{}
	}
	b.skips[f] = out
	return out
}

// skipsIn returns the skip directives of f on lines start to end, in
// source order.
func (b *opTableBuilder) skipsIn(f *source.File, start, end int) []Skip {
	sk := b.skipsOf(f)
	i := sort.Search(len(sk), func(i int) bool { return sk[i].Pos.Line >= start })
	j := i
	for j < len(sk) && sk[j].Pos.Line <= end {
		j++
	}
	return sk[i:j:j]
}

// StubStartLine is the first line of a stub: its first decorator.
func StubStartLine(st *Stub) int {
	line := st.Def.Pos().Line
	for _, d := range st.Def.DecoratorList {
		if l := d.Pos().Line; l < line {
			// The '@' is on the decorator's line.
			line = l
		}
	}
	return line
}

// CommentLines returns the lines of f that hold only a comment (computed
// once per file; the map is shared and must not be modified).
func CommentLines(f *source.File) map[int]bool {
	return f.CommentLines()
}

// parseSkip reads a skip directive (see directive.Skip) at its comment.
func parseSkip(prefix string, c ast.Comment) (Skip, bool) {
	step, reason, unclosed, ok := directive.Skip(prefix, c.Text)
	if !ok {
		return Skip{}, false
	}
	return Skip{Pos: c.Pos, Text: c.Text, Step: step, Reason: reason, Unclosed: unclosed}, true
}

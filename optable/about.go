package optable

import (
	"path"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/source"
)

// partIndex finds, for a name a test or benchmark file gives itself, the
// served ops whose function name it matches best (see aboutOps) without
// scoring every served op: scoring each of a file's names against each
// op it serves made a file serving n ops quadratic.
type partIndex struct {
	served []*Op
	parts  [][]string // the name parts of each served op's function
	// lists holds, by name part, the served ops whose function has it,
	// most occurrences first (then in served order).
	lists  map[string][]partHolder
	maxLen int // the longest part
}

type partHolder struct {
	op    int // index in served
	count int // occurrences of the part in the op's function name
}

func newPartIndex(served []*Op) *partIndex {
	x := &partIndex{served: served, parts: make([][]string, len(served)), lists: map[string][]partHolder{}}
	for i, op := range served {
		x.parts[i] = nameParts(op.Func)
		counts := map[string]int{}
		for _, p := range x.parts[i] {
			counts[p]++
		}
		for _, p := range x.parts[i] {
			if c := counts[p]; c > 0 {
				x.lists[p] = append(x.lists[p], partHolder{op: i, count: c})
				counts[p] = 0
				x.maxLen = max(x.maxLen, len(p))
			}
		}
	}
	for _, l := range x.lists {
		sort.SliceStable(l, func(i, j int) bool { return l[i].count > l[j].count })
	}
	return x
}

// bestOps returns the served ops each name matches best (aboutOps' first
// rule), together.
func (x *partIndex) bestOps(names []string) map[*Op]bool {
	out := map[*Op]bool{}
	for _, n := range names {
		for _, i := range x.best(n) {
			out[x.served[i]] = true
		}
	}
	return out
}

// best returns the served ops a name matches best: the most parts of the
// op's function found in the name, then the fewest not found; none when
// no op has a part in it. A part is found when it is a word of the name,
// or, three letters or more, inside the name's words joined.
//
// Only the parts found in the name count, so only the ops in their lists
// can score; the lists are read in turn, most occurrences first, and the
// reading stops once no op not yet scored can reach the best score found
// (at most the sum of the occurrences at each list's next entry): an op
// sharing only a common word with the name (the "used" of used_1 ...
// used_n) is not scored once a better one is found.
func (x *partIndex) best(name string) []int {
	words := nameParts(name)
	joined := strings.Join(words, "")
	found := map[string]bool{}
	var keys []string
	add := func(p string) {
		if !found[p] && x.lists[p] != nil {
			found[p] = true
			keys = append(keys, p)
		}
	}
	for _, w := range words {
		add(w)
	}
	for i := 0; i < len(joined); i++ {
		for l := 3; l <= x.maxLen && i+l <= len(joined); l++ {
			add(joined[i : i+l])
		}
	}
	sort.Strings(keys)
	type score struct{ found, missing int }
	var bestSc score
	var bestOps []int
	scored := map[int]bool{}
	next := make([]int, len(keys))
	for {
		progressed := false
		for k, p := range keys {
			l := x.lists[p]
			if next[k] >= len(l) {
				continue
			}
			i := l[next[k]].op
			next[k]++
			progressed = true
			if scored[i] {
				continue
			}
			scored[i] = true
			sc := score{}
			for _, q := range x.parts[i] {
				if found[q] {
					sc.found++
				} else {
					sc.missing++
				}
			}
			switch {
			case len(bestOps) == 0 || sc.found > bestSc.found || sc.found == bestSc.found && sc.missing < bestSc.missing:
				bestSc, bestOps = sc, []int{i}
			case sc == bestSc:
				bestOps = append(bestOps, i)
			}
		}
		if !progressed {
			break
		}
		bound := 0
		for k, p := range keys {
			if l := x.lists[p]; next[k] < len(l) {
				bound += l[next[k]].count
			}
		}
		if bestSc.found > bound {
			break
		}
	}
	return bestOps
}

// NamedBy returns the ops of ops whose function name a test class, test
// method or benchmark function name matches best (aboutOps' first rule):
// "Test_LogSoftmax" names log_softmax rather than softmax. CamelCase names
// are read as snake_case. None when no op has a name part in it.
func NamedBy(ops []*Op, name string) []*Op {
	if len(ops) == 0 {
		return nil
	}
	if strings.ToLower(name) != name {
		name = snakeCase(name)
	}
	x := newPartIndex(ops)
	var out []*Op
	for _, i := range x.best(name) {
		out = append(out, ops[i])
	}
	return out
}

// aboutOps returns the ops, among those a test or benchmark file serves,
// that the file is about; the others it merely calls (a baseline the
// benchmark compares with, an op the test uses to build its input). The
// evidence, strongest first:
//  1. names: each name the file gives itself — its file name
//     (bench_<func>.py), its benchmark or test functions (bench_<func>...)
//     and its test classes (Test<Func>...) — names the op(s) whose function
//     name it matches best: most of the op's name parts found in it, then
//     fewest not found (bench_flash_decode_fused.py is about
//     fmha_decode_fused, not its baseline fmha_decode); a file with one
//     benchmark function per op is about each;
//  2. the ops whose reference the file registers (register_impl);
//  3. else every op it serves.
//
// The names are matched through an index of the served ops' name parts
// (partIndex), not against every op; aboutOpsScan is the reference.
func aboutOps(f *source.File, served []*Op, impls []*Impl) []*Op {
	if len(served) <= 1 {
		return served
	}
	return aboutFrom(served, impls, newPartIndex(served).bestOps(aboutNames(f)))
}

// aboutNames returns the names a test or benchmark file gives itself: its
// file name, its bench_/test_ functions and its Test classes (snake_case).
func aboutNames(f *source.File) []string {
	names := []string{strings.TrimSuffix(path.Base(f.Path), ".py")}
	if f.AST != nil && f.AST.Module != nil {
		for _, s := range f.AST.Module.Body {
			switch d := s.(type) {
			case *ast.FunctionDef:
				if strings.HasPrefix(d.Name, "bench_") || strings.HasPrefix(d.Name, "test_") {
					names = append(names, d.Name)
				}
			case *ast.ClassDef:
				if strings.HasPrefix(d.Name, "Test") {
					names = append(names, snakeCase(d.Name))
				}
			}
		}
	}
	return names
}

// aboutFrom returns the served ops of aboutSet (the ops the file's names
// name), else those whose reference the file registers, else all.
func aboutFrom(served []*Op, impls []*Impl, aboutSet map[*Op]bool) []*Op {
	var out []*Op
	for _, op := range served {
		if aboutSet[op] {
			out = append(out, op)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, op := range served {
		for _, im := range impls {
			if im.Op == op.Name {
				out = append(out, op)
				break
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	return served
}

// nameParts splits a snake_case name into its lower-case words, without
// the test/bench prefix words.
func nameParts(s string) []string {
	var out []string
	for _, w := range strings.Split(strings.ToLower(s), "_") {
		if w != "" && w != "test" && w != "bench" {
			out = append(out, w)
		}
	}
	return out
}

// snakeCase turns a CamelCase class name into snake_case ("TestFMHADecode"
// -> "test_fmha_decode").
func snakeCase(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		upper := r >= 'A' && r <= 'Z'
		if upper && i > 0 {
			prevLower := rs[i-1] >= 'a' && rs[i-1] <= 'z' || rs[i-1] >= '0' && rs[i-1] <= '9'
			nextLower := i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z'
			if prevLower || nextLower && rs[i-1] >= 'A' && rs[i-1] <= 'Z' {
				b.WriteByte('_')
			}
		}
		if upper {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

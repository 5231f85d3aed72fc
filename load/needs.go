package load

// What a wanted op needs of the files not yet parsed, looked for in their
// text (names, words) before any is parsed.

import (
	"bytes"
	"path"
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// unscanned returns the names of need (quoted, and used by tests and
// benchmarks) that the loader has not looked for in its unparsed files
// yet, and records them as looked for: the caller parses every file that
// has one.
func (l *Loader) unscanned(need *needs) *needs {
	if l.scanned == nil {
		l.scanned = map[scanKey]bool{}
	}
	fresh := &needs{names: WordSet{}}
	for name := range need.names {
		if k := (scanKey{word: name}); !l.scanned[k] {
			l.scanned[k] = true
			fresh.names[name] = true
		}
	}
	for _, sw := range need.uses {
		var ts []useTarget
		for _, t := range sw.targets {
			if k := (scanKey{sw.scope, sw.suite, t.q}); !l.scanned[k] {
				l.scanned[k] = true
				ts = append(ts, t)
			}
		}
		if len(ts) > 0 {
			words := WordSet{}
			for _, t := range ts {
				words[t.last] = true
			}
			fresh.uses = append(fresh.uses, scopeUses{scope: sw.scope, suite: sw.suite, targets: ts, words: words})
		}
	}
	return fresh
}

// scanKey is a name looked for in quotes (scope nil), or a qualified name
// looked for in a scope's tests and benchmarks.
type scanKey struct {
	scope *layout.Scope
	suite string
	word  string
}

// needs says which further files a check of some ops must parse: the
// files that register a related op (name it in quotes), the test and
// benchmark files named after one or that may use one (see step), and the
// files of some modules and directories.
type needs struct {
	names   WordSet         // the names of the related ops
	uses    []scopeUses     // the names through which files use them, by scope
	modules map[string]bool // dotted modules whose files are needed
	dirs    []string        // directories all of whose files are needed

	tests, benchmarks *layout.BindingIndex // of uses (indexUses)
}

// indexUses indexes the scopes of nd.uses by their test and benchmark
// globs (step): a path is matched once per scope, not once per use, which
// in a check in batches is once per suite of the batch's ops.
func (nd *needs) indexUses() {
	list := make([]layout.Binding, len(nd.uses))
	for i, sw := range nd.uses {
		list[i] = layout.Binding{Scope: sw.scope, Suite: sw.suite}
	}
	nd.tests = layout.NewBindingIndex(list, func(sc *layout.Scope) []string { return sc.Tests })
	nd.benchmarks = layout.NewBindingIndex(list, func(sc *layout.Scope) []string { return sc.Benchmarks })
	for i := range nd.uses {
		sw := &nd.uses[i]
		sw.byLast = map[string][]int{}
		for k, t := range sw.targets {
			sw.byLast[t.last] = append(sw.byLast[t.last], k)
		}
		sw.index = newWordIndex(sw.words)
	}
}

// scopeUses are the qualified names through which the test and benchmark
// files of a scope (and suite) use its related ops.
type scopeUses struct {
	scope   *layout.Scope
	suite   string
	targets []useTarget
	words   WordSet // the last words of the targets, looked for in one pass

	// Built by indexUses, so that step costs a file what its path and
	// text are long, not also as many as the targets are.
	index  *wordIndex       // of words
	byLast map[string][]int // the targets of each word, by index
}

// useTarget is a name through which a file uses an op: the op's name in an
// API module ("tilegym.ops.softmax"), or (in tests only) a public wrapper
// of it.
type useTarget struct {
	q         string
	last      string // the last part of q: a word the file has, if it uses q
	testsOnly bool
}

// step reports whether a test or benchmark file is needed: it is one of
// the scope of a related op, and is named after it (test_<func>.py, any
// of its words in its path) or may use it (mayUse, asked only when the
// file has the word).
func (nd *needs) step(p string, src []byte) bool {
	tests, benchmarks := nd.tests.Match(p), nd.benchmarks.Match(p)
	slices.Sort(tests)
	slices.Sort(benchmarks)
	for len(tests) > 0 || len(benchmarks) > 0 {
		// The uses whose scope has p as a test or a benchmark, in order.
		var i int
		isTest := len(tests) > 0 && (len(benchmarks) == 0 || tests[0] <= benchmarks[0])
		if isTest {
			i = tests[0]
			tests = tests[1:]
			if len(benchmarks) > 0 && benchmarks[0] == i {
				benchmarks = benchmarks[1:]
			}
		} else {
			i = benchmarks[0]
			benchmarks = benchmarks[1:]
		}
		sw := &nd.uses[i]
		if sw.index.inside(p) {
			return true // a target's last word is in the path
		}
		// The targets whose last word the file has, in order.
		var ks []int
		for _, w := range sw.index.find(src) {
			ks = append(ks, sw.byLast[w]...)
		}
		slices.Sort(ks)
		var qs []string
		for _, k := range ks {
			if t := sw.targets[k]; isTest || !t.testsOnly {
				qs = append(qs, t.q)
			}
		}
		if len(qs) > 0 && mayUse(p, src, qs) {
			return true
		}
	}
	return false
}

// hasQuoted reports whether src has one of the names between two like
// quotes ("name" or 'name'), as containsAny of the names quoted both ways
// does (see quotedNames; an op name holds no quote), in one pass whatever
// the number of names: a check in batches asks it of every file once per
// batch. Each quote is looked up with the text up to the next like quote,
// one kind of quote at a time. longest is the length of the longest name
// (longestWord), found once for every file asked.
func hasQuoted(src []byte, names WordSet, longest int) bool {
	if len(names) == 0 {
		return false
	}
	for _, q := range []byte{'"', '\''} {
		for i := 0; ; {
			j := bytes.IndexByte(src[i:], q)
			if j < 0 {
				break
			}
			start := i + j + 1
			k := bytes.IndexByte(src[start:], q)
			if k < 0 {
				break
			}
			if k <= longest && names[string(src[start:start+k])] {
				return true
			}
			i = start + k // the closing quote opens the next candidate
		}
	}
	return false
}

// nearMisses returns the files not parsed yet (by index in Paths) that
// register a name no stub declares whose nearest dispatched name is a
// wanted op: impl-orphan (TG206) charges such a registration to that op (a
// stub renamed, a registration left with the old name). The name is looked
// for as a string literal first in a call of a register word
// (registeredNames).
func (l *Loader) nearMisses(want map[string]bool) map[int]bool {
	tab := l.OpTable()
	names := make([]string, 0, len(tab.Ops))
	for _, op := range tab.Ops {
		names = append(names, op.Name)
	}
	words := registerWords(l.Layout)
	sg := optable.NewSuggester()
	out := map[int]bool{}
	for i := range l.Repo.Paths {
		if l.Parsed[i] || !l.Registers[i] {
			continue
		}
		for _, name := range registeredNames(l.Data[i], words) {
			if tab.ByName[name] == nil && want[sg.Closest(name, names)] {
				out[i] = true
				break
			}
		}
	}
	return out
}

// registeredNames returns the names src registers as a string literal
// first in a call of one of words (register_impl("softmax", ...), the
// decorator too); a literal with an escape is left out.
func registeredNames(src []byte, words [][]byte) []string {
	var out []string
	for _, w := range words {
		eachWord(src, string(w), func(at int) bool {
			rest := bytes.TrimLeft(src[at+len(w):], " \t")
			if len(rest) == 0 || rest[0] != '(' {
				return true
			}
			rest = bytes.TrimLeft(rest[1:], " \t\r\n")
			if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
				return true
			}
			q := rest[0]
			end := bytes.IndexAny(rest[1:], string([]byte{q, '\\', '\n'}))
			if end >= 0 && rest[1+end] == q {
				out = append(out, string(rest[1:1+end]))
			}
			return true
		})
	}
	return out
}

// longestWord returns the length of the longest word of ws.
func longestWord(ws WordSet) int {
	n := 0
	for w := range ws {
		n = max(n, len(w))
	}
	return n
}

// path reports whether a file is needed for its path alone.
func (nd *needs) path(p string) bool {
	return nd.modules[astutil.ModulePath(p)] || layout.UnderAny(nd.dirs, p)
}

// opsNeeds computes, from the op table of the files parsed so far, what
// else the selected ops need (Loader.Load, CloseOver).
func opsNeeds(tab *optable.OpTable, lay *layout.Layout, want map[string]bool) *needs {
	nd := &needs{names: WordSet{}, modules: map[string]bool{}}
	type key struct {
		scope *layout.Scope
		suite string
	}
	byScope := map[key]int{} // index in nd.uses
	selected := tab.Select(want)
	// The files of the selected ops (not their dispatch file, which every
	// op of the scope shares), and the ops that share one of them.
	shared := map[string]bool{}
	for _, op := range selected {
		for _, im := range op.Impls {
			shared[im.File.Path] = true
		}
		for _, f := range op.Tests {
			shared[f.Path] = true
		}
		for _, f := range op.Benchmarks {
			shared[f.Path] = true
		}
	}
	related := map[*optable.Op]bool{}
	for _, op := range selected {
		related[op] = true
	}
	for _, op := range tab.Ops {
		if related[op] {
			continue
		}
		for _, im := range op.Impls {
			if shared[im.File.Path] {
				related[op] = true
			}
		}
		for _, f := range op.Tests {
			if shared[f.Path] {
				related[op] = true
			}
		}
		for _, f := range op.Benchmarks {
			if shared[f.Path] {
				related[op] = true
			}
		}
	}
	for _, op := range tab.Ops {
		if !related[op] {
			continue
		}
		nd.names[op.Name] = true
		if op.Scope != nil {
			k := key{op.Scope, op.Suite}
			i, ok := byScope[k]
			if !ok {
				i = len(nd.uses)
				byScope[k] = i
				nd.uses = append(nd.uses, scopeUses{scope: op.Scope, suite: op.Suite})
			}
			nd.uses[i].targets = append(nd.uses[i].targets, useTargets(tab, op)...)
		}
		for _, im := range op.Impls {
			if im.Module == "" {
				continue
			}
			// The modules it imports, and their parents (a name imported
			// from a module).
			for _, q := range im.File.Imports().Local {
				nd.modules[q] = true
				if i := strings.LastIndexByte(q, '.'); i >= 0 {
					nd.modules[q[:i]] = true
				}
			}
			// The sub-packages of the cuTile package it is in.
			levels := strings.Count(im.Module, ".")
			if path.Base(im.File.Path) == "__init__.py" {
				levels++
			}
			d := path.Dir(im.File.Path)
			for ; levels > 0; levels-- {
				nd.dirs = append(nd.dirs, d)
				d = path.Dir(d)
			}
		}
	}
	return nd
}

// missingCuTile returns the cuTile packages of the selected ops that have
// no cuTile implementation.
func missingCuTile(tab *optable.OpTable, lay *layout.Layout, want map[string]bool) []string {
	names := layout.LayoutNames(lay)
	var dirs []string
	for _, op := range tab.Select(want) {
		if len(op.ImplsFor(names.CuTileBackend)) == 0 && op.Scope != nil && op.Scope.CuTile != "" {
			dirs = append(dirs, strings.TrimSuffix(layout.ExpandSuite(op.Scope.CuTile, op.Suite), "/"))
		}
	}
	return dirs
}

// useTargets returns the names through which a test or benchmark file
// uses an op (see matchTestsAndBenchmarks): its function name, and its
// stub's name, in each API module of its scope; in a test, a public wrapper
// of it.
func useTargets(tab *optable.OpTable, op *optable.Op) []useTarget {
	funcs := []string{op.Func}
	if op.Stub != nil && op.Stub.Def != nil && op.Stub.Def.Name != op.Func {
		funcs = append(funcs, op.Stub.Def.Name)
	}
	var out []useTarget
	for _, api := range optable.APIModules(op.Scope, op.Suite) {
		for _, f := range funcs {
			out = append(out, useTarget{q: api + "." + f, last: f})
		}
	}
	for _, w := range tab.Wrappers[op] {
		out = append(out, useTarget{q: w, last: astutil.DottedTail(w), testsOnly: true})
	}
	for _, q := range optable.ImplFuncQNames(op) {
		out = append(out, useTarget{q: q, last: astutil.DottedTail(q)})
	}
	return out
}

package checks

import (
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// The *-name kinds (X.1) check that an op's files carry its name. Name
// templates use {func} (the op's function name), {module} (the last part of
// its cuTile module), {suite} and {parent} (the dotted part of the dispatch
// name between the suite and the function: "gemm" for
// flashinfer.gemm.masked_bmm). An op without a cuTile module, tests or
// benchmarks is left to the rules that report the absence.

// fileNameParams are the params of test-file-name and bench-file-name.
type fileNameParams struct {
	Names []string `toml:"names"`
}

func (p *fileNameParams) Validate() error { return needEntries("names", p.Names) }

// opModule is the {module} of an op's name templates: the last part of its
// cuTile module, else its function name.
func opModule(op *optable.Op, names *layout.Names) string {
	if impls := cutileImpls(op, names); len(impls) > 0 {
		return astutil.DottedTail(impls[0].Module)
	}
	return op.Func
}

// servedBy returns the ops each test or benchmark file serves.
func servedBy(tab *optable.OpTable) map[string][]*optable.Op {
	serves := map[string][]*optable.Op{}
	for _, op := range tab.Ops {
		for _, f := range op.Tests {
			serves[f.Path] = append(serves[f.Path], op)
		}
		for _, f := range op.Benchmarks {
			serves[f.Path] = append(serves[f.Path], op)
		}
	}
	return serves
}

// checkFileNames reports, for each op, a file of filesOf(op) when none is
// named after the op by one of tmpls (test-file-name, bench-file-name).
func checkFileNames(pass *Pass, tab *optable.OpTable, rule *rules.Rule, tmpls []string, filesOf func(*optable.Op) []*source.File) {
	names := layout.LayoutNames(pass.Repo.Layout)
	serves := servedBy(tab)
	cands := newOpNames(tmpls, names)
	namers := map[string][]*optable.Op{} // per file: the ops it serves that it is named after
	for _, op := range tab.Ops {
		module := opModule(op, names)
		files := filesOf(op)
		// A file that only calls the op (a baseline) is not asked to carry
		// its name, unless the ops it is about have files named after
		// them already: then it is this op's only home.
		if about := aboutFiles(tab, op, files); len(about) > 0 || !othersNamed(tab, files, op, cands, filesOf) {
			files = about
		}
		if len(files) == 0 {
			continue
		}
		want := cands.of(op)
		ok := false
		for _, f := range files {
			if want[strings.TrimSuffix(path.Base(f.Path), ".py")] {
				ok = true
			}
		}
		if ok {
			continue
		}
		// A file named after another op it serves is that op's file,
		// shared with this one. A misnamed file shared by several ops is
		// judged for each of them (each is named after none): one
		// finding per op, so --op shows it for every one.
		var f *source.File
		for _, g := range files {
			if _, done := namers[g.Path]; !done {
				namers[g.Path] = namedAfter(g, serves[g.Path], cands)
			}
			if !namedAfterOther(namers[g.Path], op) {
				f = g
				break
			}
		}
		if f == nil {
			continue
		}
		exp := path.Dir(f.Path) + "/" + expandName(firstOr(tmpls, "{func}"), op, module) + ".py"
		reportAt(pass, rule, op.Name, f, nil, map[string]string{"expected": exp, "func": op.Func, "actual": f.Path}, nil, nil)
	}
}

// aboutFiles keeps the files that are about op (OpTable.IsAbout).
func aboutFiles(tab *optable.OpTable, op *optable.Op, files []*source.File) []*source.File {
	var out []*source.File
	for _, f := range files {
		if tab.IsAbout(f, op) {
			out = append(out, f)
		}
	}
	return out
}

// othersNamed reports whether every op that op's files are about (other
// than op) has a file of the same kind named after it elsewhere.
func othersNamed(tab *optable.OpTable, files []*source.File, op *optable.Op, cands *opNames, filesOf func(*optable.Op) []*source.File) bool {
	for _, f := range files {
		for _, o := range tab.Ops {
			if o == op || !tab.IsAbout(f, o) || !servesFile(o, f) {
				continue
			}
			want := cands.of(o)
			named := false
			for _, g := range filesOf(o) {
				if g != f && want[strings.TrimSuffix(path.Base(g.Path), ".py")] {
					named = true
				}
			}
			if !named {
				return false
			}
		}
	}
	return true
}

// servesFile reports whether f is one of op's tests or benchmarks.
func servesFile(op *optable.Op, f *source.File) bool {
	for _, g := range op.Tests {
		if g == f {
			return true
		}
	}
	for _, g := range op.Benchmarks {
		if g == f {
			return true
		}
	}
	return false
}

// namedAfter returns the ops of ops (those file f serves) that f is named
// after, computed once per file: asking it per op of a file serving many
// ops was quadratic in them.
func namedAfter(f *source.File, ops []*optable.Op, cands *opNames) []*optable.Op {
	base := strings.TrimSuffix(path.Base(f.Path), ".py")
	var out []*optable.Op
	for _, o := range ops {
		if cands.of(o)[base] {
			out = append(out, o)
		}
	}
	return out
}

// namedAfterOther reports whether a file is named after one of the ops it
// serves other than op; namers are the ops it is named after (namedAfter).
func namedAfterOther(namers []*optable.Op, op *optable.Op) bool {
	for _, o := range namers {
		if o != op {
			return true
		}
	}
	return false
}

// opNames memoizes nameCandidates of each op for one rule's templates
// (the module of each op is opModule's): the file-name and bench-function
// kinds ask for the names of every op a file serves, once per op of it.
type opNames struct {
	tmpls []string
	names *layout.Names
	memo  map[*optable.Op]map[string]bool
}

func newOpNames(tmpls []string, names *layout.Names) *opNames {
	return &opNames{tmpls: tmpls, names: names, memo: map[*optable.Op]map[string]bool{}}
}

// of returns the names op's file or function may have; shared, not to be
// modified.
func (c *opNames) of(op *optable.Op) map[string]bool {
	m, ok := c.memo[op]
	if !ok {
		m = nameCandidates(c.tmpls, op, opModule(op, c.names))
		c.memo[op] = m
	}
	return m
}

func expandName(tmpl string, op *optable.Op, module string) string {
	parent := ""
	rest := op.Name
	if op.Suite != "" {
		rest = strings.TrimPrefix(rest, op.Suite+".")
	}
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		parent = strings.ReplaceAll(rest[:i], ".", "_")
	}
	return analysis.Expand(tmpl, "{func}", op.Func, "{module}", module, "{suite}", op.Suite, "{parent}", parent)
}

func nameCandidates(tmpls []string, op *optable.Op, module string) map[string]bool {
	out := map[string]bool{}
	for _, t := range tmpls {
		s := expandName(t, op, module)
		if !strings.Contains(s, "__") && !strings.HasSuffix(s, "_") {
			out[s] = true
		}
	}
	return out
}

package checker

import (
	"fmt"
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// OpNamesAnalyzer implements kind "op-names" (X.1).
var OpNamesAnalyzer = &Analyzer{
	Name:         "op-names",
	Placeholders: []string{"op", "file", "actual", "expected", "func"},
	Doc: `Checks that an op's files carry its name.

The rule's params select what is compared (check = ...):
  "module"     the cuTile module registering the op is named <func>.py,
               unless it registers several dispatched ops (a grouping module
               such as attention.py)
  "test"       at least one test file of the op has a name built from one of
               the "names" templates
  "benchmark"  likewise for benchmark files
Templates use {func} (the op's function name), {module} (the last part of
its cuTile module), {suite} and {parent} (the dotted part of the dispatch name
between the suite and the function: "gemm" for flashinfer.gemm.masked_bmm).
An op without a cuTile module, tests or benchmarks is left to the rules that
report the absence.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(opNamesParams) },
	Run:      runOpNames,
}

func init() { Register(OpNamesAnalyzer) }

type opNamesParams struct {
	Check string   `toml:"check"`
	Names []string `toml:"names"`
	// Decorator, for check = "bench-function": the decorator of benchmark
	// functions (triton.testing.perf_report).
	Decorator []string `toml:"decorator"`
}

func runOpNames(pass *Pass) (any, error) {
	tab := opTableOf(pass)
	if tab == nil {
		return nil, nil
	}
	names := LayoutNames(pass.Repo.Layout)
	// Op names registered per file (dispatched or not: a module that
	// registers fmha and fmha_backward groups ops).
	perFile := map[string]map[string]bool{}
	for _, im := range tab.Impls {
		if perFile[im.File.Path] == nil {
			perFile[im.File.Path] = map[string]bool{}
		}
		perFile[im.File.Path][im.Op] = true
	}
	// The ops each test or benchmark file serves.
	serves := map[string][]*Op{}
	for _, op := range tab.Ops {
		for _, f := range op.Tests {
			serves[f.Path] = append(serves[f.Path], op)
		}
		for _, f := range op.Benchmarks {
			serves[f.Path] = append(serves[f.Path], op)
		}
	}
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*opNamesParams)
		if p == nil {
			continue
		}
		reportedFile := map[string]bool{}
		for _, op := range tab.Ops {
			impls := cutileImpls(op, names)
			module := op.Func
			if len(impls) > 0 {
				module = dottedTail(impls[0].Module)
			}
			switch p.Check {
			case "module":
				if stepSkipped(op, 2) {
					continue
				}
				for _, im := range impls {
					if len(perFile[im.File.Path]) > 1 || dottedTail(im.Module) == op.Func {
						continue
					}
					want := path.Dir(im.File.Path) + "/" + op.Func + ".py"
					var n ast.Node = im.Call
					if a := CallArg(im.Call, 0, "name"); a != nil {
						n = a
					}
					reportAt(pass, rule, op.Name, im.File, n, map[string]string{"expected": want, "func": op.Func, "actual": im.File.Path}, nil, nil)
				}
			case "bench-function":
				for _, f := range aboutFiles(tab, op, op.Benchmarks) {
					if fd := misnamedBenchFunc(f, op, module, p, serves[f.Path], names); fd != nil && !reportedFile[f.Path+":"+fd.Name] {
						reportedFile[f.Path+":"+fd.Name] = true
						reportAt(pass, rule, op.Name, f, defHeader(fd), map[string]string{
							"expected": expandName(firstOr(p.Names, "bench_{func}"), op, module), "actual": fd.Name, "func": op.Func,
						}, nil, nil)
					}
				}
			case "test", "benchmark":
				files := op.Tests
				if p.Check == "benchmark" {
					files = op.Benchmarks
				}
				// A file that only calls the op (a baseline) is not asked
				// to carry its name, unless the ops it is about have files
				// named after them already: then it is this op's only home.
				if about := aboutFiles(tab, op, files); len(about) > 0 || !othersNamed(tab, files, op, p, names) {
					files = about
				}
				if len(files) == 0 {
					continue
				}
				want := nameCandidates(p.Names, op, module)
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
				// shared with this one; a misnamed file is reported once.
				var f *File
				for _, g := range files {
					if !namedAfterOther(g, serves[g.Path], op, p.Names, tab, names) && !reportedFile[g.Path] {
						f = g
						break
					}
				}
				if f == nil {
					continue
				}
				reportedFile[f.Path] = true
				exp := path.Dir(f.Path) + "/" + expandName(firstOr(p.Names, "{func}"), op, module) + ".py"
				reportAt(pass, rule, op.Name, f, nil, map[string]string{"expected": exp, "func": op.Func, "actual": f.Path}, nil, nil)
			}
		}
	}
	return nil, nil
}

// aboutFiles keeps the files that are about op (OpTable.IsAbout).
func aboutFiles(tab *OpTable, op *Op, files []*File) []*File {
	var out []*File
	for _, f := range files {
		if tab.IsAbout(f, op) {
			out = append(out, f)
		}
	}
	return out
}

// othersNamed reports whether every op that op's files are about (other
// than op) has a file of the same kind named after it elsewhere.
func othersNamed(tab *OpTable, files []*File, op *Op, p *opNamesParams, names *Names) bool {
	for _, f := range files {
		for _, o := range tab.Ops {
			if o == op || !tab.IsAbout(f, o) || !servesFile(o, f) {
				continue
			}
			own := o.Tests
			if p.Check == "benchmark" {
				own = o.Benchmarks
			}
			m := o.Func
			if impls := cutileImpls(o, names); len(impls) > 0 {
				m = dottedTail(impls[0].Module)
			}
			want := nameCandidates(p.Names, o, m)
			named := false
			for _, g := range own {
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
func servesFile(op *Op, f *File) bool {
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

// misnamedBenchFunc returns the benchmark function of file f that should
// be named after op: nil when some decorated function carries one of the
// names, or when the file has none (S5.7 reports that). Functions named
// after another op the file serves are that op's.
func misnamedBenchFunc(f *File, op *Op, module string, p *opNamesParams, served []*Op, names *Names) *ast.FunctionDef {
	im := f.Imports()
	want := nameCandidates(p.Names, op, module)
	others := map[string]bool{}
	for _, o := range served {
		if o == op {
			continue
		}
		m := o.Func
		if impls := cutileImpls(o, names); len(impls) > 0 {
			m = dottedTail(impls[0].Module)
		}
		for n := range nameCandidates(p.Names, o, m) {
			others[n] = true
		}
	}
	var cand *ast.FunctionDef
	for _, fd := range TopLevelFuncs(f.AST) {
		if _, _, ok := im.Decorator(fd.DecoratorList, p.Decorator); !ok {
			continue
		}
		if nameOrVariant(want, fd.Name) {
			return nil
		}
		if nameOrVariant(others, fd.Name) {
			continue
		}
		if cand == nil || fd.Pos().Before(cand.Pos()) {
			cand = fd
		}
	}
	return cand
}

// nameOrVariant reports whether name is one of names or a variant of one
// (bench_layernorm_fwd of bench_layernorm).
func nameOrVariant(names map[string]bool, name string) bool {
	if names[name] {
		return true
	}
	for n := range names {
		if strings.HasPrefix(name, n+"_") {
			return true
		}
	}
	return false
}

// namedAfterOther reports whether file f is named after one of the ops it
// serves other than op.
func namedAfterOther(f *File, ops []*Op, op *Op, tmpls []string, tab *OpTable, names *Names) bool {
	base := strings.TrimSuffix(path.Base(f.Path), ".py")
	for _, o := range ops {
		if o == op {
			continue
		}
		module := o.Func
		if impls := cutileImpls(o, names); len(impls) > 0 {
			module = dottedTail(impls[0].Module)
		}
		if nameCandidates(tmpls, o, module)[base] {
			return true
		}
	}
	return false
}

func expandName(tmpl string, op *Op, module string) string {
	parent := ""
	rest := op.Name
	if op.Suite != "" {
		rest = strings.TrimPrefix(rest, op.Suite+".")
	}
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		parent = strings.ReplaceAll(rest[:i], ".", "_")
	}
	return replaceAll(tmpl, "{func}", op.Func, "{module}", module, "{suite}", op.Suite, "{parent}", parent)
}

func nameCandidates(tmpls []string, op *Op, module string) map[string]bool {
	out := map[string]bool{}
	for _, t := range tmpls {
		s := expandName(t, op, module)
		if !strings.Contains(s, "__") && !strings.HasSuffix(s, "_") {
			out[s] = true
		}
	}
	return out
}

func (p *opNamesParams) Validate() error {
	if err := oneOf("check", p.Check, "module", "test", "benchmark", "bench-function"); err != nil {
		return err
	}
	if p.Check == "bench-function" && len(p.Decorator) == 0 {
		return fmt.Errorf(`check = "bench-function" needs decorator`)
	}
	if p.Check != "module" && len(p.Names) == 0 {
		return fmt.Errorf("check = %q needs names", p.Check)
	}
	return nil
}

package checks

import (
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// BenchFunctionNameAnalyzer implements kind "bench-function-name".
var BenchFunctionNameAnalyzer = opKind(&Analyzer{
	Doc: `Reports a benchmark file of the op none of whose decorated functions is named after it.

In each benchmark file about the op, some function decorated with one of
"decorator" (triton.testing.perf_report) has a name built from one of the
"names" templates (see file_names.go), or a variant of one
(bench_layernorm_fwd of bench_layernorm).`,
	Name:         "bench-function-name",
	Placeholders: []string{"op", "file", "actual", "expected", "func"},
}, runBenchFunctionName)

type benchFunctionNameParams struct {
	Names     []string `toml:"names"`
	Decorator []string `toml:"decorator"`
}

func (p *benchFunctionNameParams) Validate() error {
	if err := needEntries("decorator", p.Decorator); err != nil {
		return err
	}
	return needEntries("names", p.Names)
}

func runBenchFunctionName(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *benchFunctionNameParams) {
	names := layout.LayoutNames(pass.Repo.Layout)
	serves := servedBy(tab)
	cands := newOpNames(p.Names, names)
	files := map[string]*benchFuncs{}
	reported := map[string]bool{}
	for _, op := range tab.Ops {
		module := opModule(op, names)
		for _, f := range aboutFiles(tab, op, op.Benchmarks) {
			if files[f.Path] == nil {
				files[f.Path] = newBenchFuncs(f, p, serves[f.Path], cands)
			}
			if fd := misnamedBenchFunc(op, cands, files[f.Path]); fd != nil && !reported[f.Path+":"+fd.Name] {
				reported[f.Path+":"+fd.Name] = true
				reportAt(pass, rule, op.Name, f, defNode(fd), map[string]string{
					"expected": expandName(firstOr(p.Names, "bench_{func}"), op, module), "actual": fd.Name, "func": op.Func,
				}, nil, nil)
			}
		}
	}
}

// misnamedBenchFunc returns the benchmark function of file f that should
// be named after op: nil when some decorated function carries one of the
// names, or when the file has none (S5.7 reports that). Functions named
// after another op the file serves are that op's.
func misnamedBenchFunc(op *optable.Op, cands *opNames, bf *benchFuncs) *ast.FunctionDef {
	for n := range cands.of(op) {
		if bf.named[n] {
			return nil
		}
	}
	return bf.free
}

// benchFuncs is what misnamedBenchFunc needs of a benchmark file, computed
// once per file (per op, a scan of the file's functions and of the other
// ops' names made the kind quadratic in the ops a file serves).
type benchFuncs struct {
	// named holds the names of the decorated functions and their prefixes
	// that end before a "_" (bench_layernorm of bench_layernorm_fwd).
	named map[string]bool
	// free is the first decorated function not named after any op the
	// file serves (nor a variant of such a name).
	free *ast.FunctionDef
}

// newBenchFuncs indexes the benchmark functions of f, which serves the
// ops served. When some decorated function is named after op (or a
// variant), misnamedBenchFunc returns nil; otherwise no decorated name
// is one of op's, so whether a function is named after another op served
// does not depend on op, and the first that is not is free.
func newBenchFuncs(f *source.File, p *benchFunctionNameParams, served []*optable.Op, cands *opNames) *benchFuncs {
	bf := &benchFuncs{named: map[string]bool{}}
	servedNames := map[string]bool{}
	for _, o := range served {
		for n := range cands.of(o) {
			servedNames[n] = true
		}
	}
	im := f.Imports()
	for _, fd := range astutil.TopLevelFuncs(f.AST) {
		if _, _, ok := im.Decorator(fd.DecoratorList, p.Decorator); !ok {
			continue
		}
		bf.named[fd.Name] = true
		for i := 0; i < len(fd.Name); i++ {
			if fd.Name[i] == '_' {
				bf.named[fd.Name[:i]] = true
			}
		}
		if !nameOrVariantOf(servedNames, fd.Name) && (bf.free == nil || fd.Pos().Before(bf.free.Pos())) {
			bf.free = fd
		}
	}
	return bf
}

// nameOrVariantOf is nameOrVariant with a lookup per prefix of name
// instead of a comparison per name of names.
func nameOrVariantOf(names map[string]bool, name string) bool {
	if names[name] {
		return true
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '_' && names[name[:i]] {
			return true
		}
	}
	return false
}

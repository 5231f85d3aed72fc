package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

var BenchFunctionNameAnalyzer = registerOpKind(&Analyzer{
	Doc: `Checks that a benchmark function of the op is named after it (X.1).

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
	reported := map[string]bool{}
	for _, op := range tab.Ops {
		module := opModule(op, names)
		for _, f := range aboutFiles(tab, op, op.Benchmarks) {
			if fd := misnamedBenchFunc(f, op, module, p, serves[f.Path], names); fd != nil && !reported[f.Path+":"+fd.Name] {
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
func misnamedBenchFunc(f *source.File, op *optable.Op, module string, p *benchFunctionNameParams, served []*optable.Op, names *layout.Names) *ast.FunctionDef {
	im := f.Imports()
	want := nameCandidates(p.Names, op, module)
	others := map[string]bool{}
	for _, o := range served {
		if o == op {
			continue
		}
		for n := range nameCandidates(p.Names, o, opModule(o, names)) {
			others[n] = true
		}
	}
	var cand *ast.FunctionDef
	for _, fd := range astutil.TopLevelFuncs(f.AST) {
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

package checks

import (
	"errors"
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// ForbiddenImportAnalyzer implements kind "forbidden-import".
var ForbiddenImportAnalyzer = &Analyzer{
	Name:         "forbidden-import",
	Placeholders: []string{"op", "file", "func", "module", "name", "public"},
	Doc: `Reports imports of the rule's modules in an op's test or benchmark files.

In the op's files of the rule's step (4: tests, 5: benchmarks), every
import statement (and every call spelled with the full module path) whose
module is under one of modules is reported, once per file. "*" in a module
pattern matches one dotted segment ("tilegym.suites.*.cutile").`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(forbiddenImportParams) },
	Run:      runForbiddenImport,
}

type forbiddenImportParams struct {
	Step    int      `toml:"step"`    // 4 (tests) or 5 (benchmarks)
	Modules []string `toml:"modules"` // dotted module patterns that must not be imported
}

func runForbiddenImport(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*forbiddenImportParams)
		if p == nil || len(p.Modules) == 0 {
			continue
		}
		for _, sf := range stepFiles(pass, tab, p.Step, rule) {
			badLocal := map[string]bool{}
			report := func(n ast.Node, module, name string) {
				// The op to call instead: the one whose backend function
				// (or function name) this is, else the op the file is
				// about; never the helper's own name (a helper has no
				// dispatch entry point).
				op := sf.Primary
				for _, o := range sf.Ops {
					if o.Func == name || slices.Contains(optable.ImplFuncQNames(o), astutil.JoinDotted(module, name)) {
						op = o
						break
					}
				}
				reportAt(pass, rule, op.Name, sf.File, n, map[string]string{
					"module": module, "name": name, "func": op.Func, "public": preferredPublicName(op)}, nil, nil)
			}
			qs := sf.File.NodeCallees()
			for ni, n := range sf.File.Nodes() {
				switch s := n.(type) {
				case *ast.Import:
					for _, a := range s.Names {
						if a == nil {
							continue
						}
						if _, bad := dottedUnder(a.Name, p.Modules); bad {
							local, _, _ := strings.Cut(a.Name, ".")
							if a.Asname != nil {
								local = *a.Asname
							}
							badLocal[local] = true
							report(s, a.Name, astutil.DottedTail(a.Name))
							break
						}
					}
				case *ast.ImportFrom:
					base := astutil.ImportFromModule(astutil.PackagePath(sf.File.Path), s)
					for _, a := range s.Names {
						if a == nil {
							continue
						}
						full := astutil.JoinDotted(base, a.Name)
						if _, bad := dottedUnder(full, p.Modules); bad {
							local := a.Name
							if a.Asname != nil {
								local = *a.Asname
							}
							badLocal[local] = true
							report(s, base, a.Name)
							break
						}
					}
				case *ast.Call:
					// qs[ni] is "" exactly when DottedName(s.Func) is.
					q := qs[ni]
					head, _, _ := strings.Cut(astutil.ChainHead(s.Func), ".")
					if q == "" || badLocal[head] {
						continue
					}
					if q != "" {
						if _, bad := dottedUnder(q, p.Modules); bad {
							i := strings.LastIndexByte(q, '.')
							report(s.Func, q[:max(i, 0)], astutil.DottedTail(q))
						}
					}
				}
			}
		}
	}
	return nil, nil
}

func (p *forbiddenImportParams) Validate() error {
	return errors.Join(validStep(p.Step), needList("modules", p.Modules))
}

package checks

import (
	"errors"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// PlaceholderAnalyzer implements kind "placeholder".
var PlaceholderAnalyzer = &Analyzer{
	Name:         "placeholder",
	Placeholders: []string{"op", "file", "func"},
	Doc: `Reports the placeholders tilegym-lint new leaves where a person must write code.

tilegym-lint new scaffolds an op with raise <exception>("<marker> write ...")
in the kernel of the cuTile module, the reference of the test and the
reference_<op> of the benchmark. Each such raise still in the op's files of
the rule's step (2: its cuTile modules, 4: its tests, 5: its benchmarks) is
one finding, at the raise; {func} is the enclosing function.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(placeholderParams) },
	Run:      runPlaceholder,
}

type placeholderParams struct {
	Step      int    `toml:"step"`      // 2, 4 or 5
	Marker    string `toml:"marker"`    // the start of the placeholder's message
	Exception string `toml:"exception"` // NotImplementedError
}

func runPlaceholder(pass *Pass) (any, error) {
	tab := opTableOf(pass)
	if tab == nil {
		return nil, nil
	}
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*placeholderParams)
		if p == nil {
			continue
		}
		report := func(op string, f *source.File) {
			for _, ph := range findPlaceholders(f.AST, p.Exception, p.Marker) {
				reportAt(pass, rule, op, f, ph.stmt, map[string]string{"func": ph.fn}, nil, nil)
			}
		}
		if p.Step == 2 {
			names := layout.LayoutNames(pass.Repo.Layout)
			for _, m := range cutileModules(tab, names) {
				op := m.impls[0].Op
				if !pass.Wants(op) || m.file.AST == nil || !ruleFileMatch(rule, m.file.Path) {
					continue
				}
				report(op, m.file)
			}
			continue
		}
		for _, sf := range stepFiles(pass, tab, p.Step, rule) {
			report(sf.Primary.Name, sf.File)
		}
	}
	return nil, nil
}

// placeholderRaise is one placeholder: the raise and its enclosing function.
type placeholderRaise struct {
	stmt *ast.Raise
	fn   string // "" at module level
}

// findPlaceholders returns the raises of exception(<marker>...) -- a call
// whose one argument is a string starting with marker -- in source order.
func findPlaceholders(f *ast.File, exception, marker string) []placeholderRaise {
	var out []placeholderRaise
	if f == nil || f.Module == nil {
		return out
	}
	var walk func(stmts []ast.Stmt, fn string)
	walk = func(stmts []ast.Stmt, fn string) {
		for _, s := range stmts {
			switch s := s.(type) {
			case *ast.FunctionDef:
				walk(s.Body, s.Name)
				continue
			case *ast.AsyncFunctionDef:
				walk(s.Body, s.Name)
				continue
			case *ast.Raise:
				c, ok := s.Exc.(*ast.Call)
				if !ok || len(c.Args) != 1 || lastPart(astutil.DottedName(c.Func)) != exception {
					continue
				}
				if msg, ok := astutil.StringValue(c.Args[0]); ok && strings.HasPrefix(msg, marker) {
					out = append(out, placeholderRaise{stmt: s, fn: fn})
				}
				continue
			}
			// Other compound statements: their bodies, same function.
			ast.Inspect(s, func(n ast.Node) bool {
				if n == ast.Node(s) {
					return true
				}
				switch n := n.(type) {
				case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.Raise:
					walk([]ast.Stmt{n.(ast.Stmt)}, fn)
					return false
				case ast.Expr:
					return false
				}
				return true
			})
		}
	}
	walk(f.Module.Body, "")
	return out
}

func lastPart(dotted string) string {
	if i := strings.LastIndexByte(dotted, '.'); i >= 0 {
		return dotted[i+1:]
	}
	return dotted
}

func (p *placeholderParams) Validate() error {
	if p.Step != 2 && p.Step != 4 && p.Step != 5 {
		return errors.New("step: want 2 (cuTile modules), 4 (tests) or 5 (benchmarks)")
	}
	if p.Marker == "" || p.Exception == "" {
		return errors.New("marker and exception: want the placeholder's message prefix and exception")
	}
	return nil
}

package checks

import (
	"errors"
	"math/big"
	"strconv"
	"strings"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// ConfigCountAnalyzer implements kind "config-count".
var ConfigCountAnalyzer = &Analyzer{
	Name:         "config-count",
	Placeholders: []string{"op", "file", "subject", "space", "count", "max"},
	Doc: `Counts the configs of each search space an autotuning search is given.

For each call of a search function ("search": qualified names; its search
space is the argument at "arg"), the space -- a literal list, a list
comprehension, or a call of a config generator of the file or one it
imports (through list(...), or a local variable assigned one) -- is counted:
a for loop over a literal list, tuple or range(n) multiplies what its body
yields by the length of that list, an if takes the larger of its branches,
statements one after another add up, and a yield, an .append(...) or a
returned literal list yields its configs. A loop over anything else counts
once (the count is a lower bound of the real space there). A space of more
than "max" configs is reported once, at its generator (or at the call).
This is a computation, not a pattern, hence a kind of its own.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(ConfigCountParams) },
	Run:      runConfigCount,
}

// ConfigCountParams are the params of kind "config-count".
type ConfigCountParams struct {
	Search  []string `toml:"search"`  // the search functions, qualified
	Arg     int      `toml:"arg"`     // the position of their search space
	Max     int      `toml:"max"`     // the most configs a space may have
	Exclude []string `toml:"exclude"` // globs of files the rule does not look at
	_       struct{}
}

// Validate checks the params.
func (p *ConfigCountParams) Validate() error {
	var errs []error
	if len(p.Search) == 0 {
		errs = append(errs, errors.New("give search, the qualified names of the search functions"))
	}
	if p.Max < 1 {
		errs = append(errs, errors.New("give max, at least 1"))
	}
	if p.Arg < 0 {
		errs = append(errs, errors.New("arg is a position, 0 or more"))
	}
	return errors.Join(errs...)
}

// A configSpace is a search space found: where to report it and its count.
type configSpace struct {
	file  *source.File
	at    ast.Node
	name  string // the generator, or the source of a literal space
	count int64
}

// spaceCounter counts search spaces in a repository, following generators
// into the files they are imported from.
type spaceCounter struct {
	repo *optable.Repo
}

// space returns the search space an expression passed to a search is, in
// file f, in function fn (to find a local variable's assignment; nil: at
// module level).
func (c *spaceCounter) space(f *source.File, fn ast.Node, e ast.Expr, depth int) *configSpace {
	if depth > 3 || e == nil {
		return nil
	}
	switch v := e.(type) {
	case *ast.List:
		return &configSpace{file: f, at: v, name: nodeSource(f, v), count: int64(len(v.Elts))}
	case *ast.Tuple:
		return &configSpace{file: f, at: v, name: nodeSource(f, v), count: int64(len(v.Elts))}
	case *ast.ListComp:
		return &configSpace{file: f, at: v, name: nodeSource(f, v), count: compCount(v.Generators)}
	case *ast.Name:
		// A local variable: its last assignment in the enclosing function;
		// outside one (a decorator's argument), the module's last before it.
		var val ast.Expr
		assigned := func(n ast.Node) bool {
			if a, ok := n.(*ast.Assign); ok && len(a.Targets) == 1 && a.Pos().Line < e.Pos().Line {
				if t, ok := a.Targets[0].(*ast.Name); ok && t.Id == v.Id {
					val = a.Value
				}
			}
			return true
		}
		if fn != nil {
			ast.Inspect(fn, assigned)
		} else if f.AST != nil && f.AST.Module != nil {
			for _, s := range f.AST.Module.Body {
				assigned(s)
			}
		}
		return c.space(f, fn, val, depth+1)
	case *ast.Call:
		if n, ok := v.Func.(*ast.Name); ok && (n.Id == "list" || n.Id == "tuple") && len(v.Args) == 1 {
			return c.space(f, fn, v.Args[0], depth+1)
		}
		def, df := c.generator(f, v.Func)
		if def == nil {
			return nil
		}
		return &configSpace{file: df, at: def, name: def.Name, count: stmtsCount(def.Body)}
	}
	return nil
}

// generator returns the def a callee names: a top-level def of the file,
// or of the module of the snapshot it is imported from.
func (c *spaceCounter) generator(f *source.File, callee ast.Expr) (*ast.FunctionDef, *source.File) {
	n, ok := callee.(*ast.Name)
	if !ok {
		return nil, nil
	}
	if d := astutil.TopLevelFuncs(f.AST)[n.Id]; d != nil {
		return d, f
	}
	q := f.Imports().Local[n.Id]
	i := strings.LastIndexByte(q, '.')
	if i < 0 {
		return nil, nil
	}
	mod, name := q[:i], q[i+1:]
	for _, p := range []string{"src/" + strings.ReplaceAll(mod, ".", "/") + ".py", strings.ReplaceAll(mod, ".", "/") + ".py"} {
		if other := c.repo.File(p); other != nil && other.AST != nil && other.AST.Module != nil {
			if d := astutil.TopLevelFuncs(other.AST)[name]; d != nil {
				return d, other
			}
		}
	}
	return nil, nil
}

// stmtsCount counts the configs a run of statements yields: the sum of
// its statements'.
func stmtsCount(body []ast.Stmt) int64 {
	var n int64
	for _, s := range body {
		n += stmtCount(s)
	}
	return n
}

func stmtCount(s ast.Stmt) int64 {
	switch v := s.(type) {
	case *ast.For:
		return iterLen(v.Iter) * stmtsCount(v.Body)
	case *ast.While:
		return stmtsCount(v.Body)
	case *ast.If:
		return max(stmtsCount(v.Body), stmtsCount(v.Orelse))
	case *ast.With:
		return stmtsCount(v.Body)
	case *ast.Try:
		return stmtsCount(v.Body) + stmtsCount(v.Orelse)
	case *ast.ExprStmt:
		switch x := v.Value.(type) {
		case *ast.Yield:
			return 1
		case *ast.YieldFrom:
			if l, ok := x.Value.(*ast.List); ok {
				return int64(len(l.Elts))
			}
			return 1
		case *ast.Call:
			if a, ok := x.Func.(*ast.Attribute); ok && a.Attr == "append" {
				return 1
			}
		}
	case *ast.Return:
		switch x := v.Value.(type) {
		case *ast.List:
			return int64(len(x.Elts))
		case *ast.ListComp:
			return compCount(x.Generators)
		}
	}
	return 0
}

// compCount is the product of the lengths of a comprehension's iterables.
func compCount(gens []*ast.Comprehension) int64 {
	n := int64(1)
	for _, g := range gens {
		n *= iterLen(g.Iter)
	}
	return n
}

// iterLen is the length of a literal list, tuple or set, or of range(...)
// with literal bounds; 1 for anything else.
func iterLen(e ast.Expr) int64 {
	switch v := e.(type) {
	case *ast.List:
		return int64(max(len(v.Elts), 1))
	case *ast.Tuple:
		return int64(max(len(v.Elts), 1))
	case *ast.Set:
		return int64(max(len(v.Elts), 1))
	case *ast.Call:
		if n, ok := v.Func.(*ast.Name); ok && n.Id == "range" && len(v.Keywords) == 0 {
			var a [3]int64
			a[2] = 1
			for i, x := range v.Args {
				c, ok := x.(*ast.Constant)
				if !ok || i > 2 {
					return 1
				}
				b, ok := c.Value.(*big.Int)
				if !ok || !b.IsInt64() {
					return 1
				}
				a[i] = b.Int64()
			}
			lo, hi, step := int64(0), a[0], int64(1)
			if len(v.Args) >= 2 {
				lo, hi = a[0], a[1]
			}
			if len(v.Args) == 3 {
				step = a[2]
			}
			if step <= 0 || hi <= lo {
				return 1
			}
			return (hi - lo + step - 1) / step
		}
	}
	return 1
}

func runConfigCount(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	c := &spaceCounter{repo: pass.Repo}
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*ConfigCountParams)
		if p == nil {
			continue
		}
		reported := map[ast.Node]bool{}
		for _, f := range ruleFiles(pass, rule.Files, p.Exclude) {
			im := f.Imports()
			fileNodesOf(f).walk(func(path []ast.Node) {
				call, ok := path[len(path)-1].(*ast.Call)
				if !ok || !im.Is(call.Func, p.Search) {
					return
				}
				var fn ast.Node
				for i := len(path) - 2; i >= 0 && fn == nil; i-- {
					if isFunc(path[i]) {
						fn = path[i]
					}
				}
				s := c.space(f, fn, astutil.CallArg(call, p.Arg, ""), 0)
				if s == nil || s.count <= int64(p.Max) || reported[s.at] {
					return
				}
				reported[s.at] = true
				reportFamily(pass, tab, rule, s.file, s.at, map[string]string{
					"space": s.name, "count": strconv.FormatInt(s.count, 10), "max": strconv.Itoa(p.Max),
				})
			})
		}
	}
	return nil, nil
}

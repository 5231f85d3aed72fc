package checks

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/python/pattern"
	"github.com/tilegym/tilegym-lint/python/requires"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// PatternAnalyzer implements kind "pattern".
var PatternAnalyzer = &Analyzer{
	Name:         "pattern",
	Placeholders: []string{"op", "file", "subject", "match", "value", "name"},
	Doc: `Reports the matches of a Python structural pattern in the files of a rule.

A pattern is Python with metavariables ($X), "..." for any expression or
run of arguments or statements, and fully qualified dotted names that match
through the file's imports (cuda.tile.launch matches ct.launch). A match is
reported when it is inside every context of "inside" and none of
"not-inside" (a named context -- kernel, function, module, cache-miss,
"@name" for a function so decorated, "after:pattern" after a statement of
the function holding a match -- or a pattern of an enclosing node),
and its metavariables meet the constraints of "where". With "require",
every file of the rule (or, with a pattern too, every file with a match)
must hold a match of it. The rule's valid and invalid snippets are run as
tests. See docs/rules-language.md.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(PatternParams) },
	Run:      runPattern,
}

// PatternParams are the params of kind "pattern".
type PatternParams struct {
	Pattern   string                 `toml:"pattern"`    // the pattern reported
	Any       []string               `toml:"any"`        // or: any of these
	Nodes     []string               `toml:"nodes"`      // or: any node of these types ("Try", "ListComp")
	Exclude   []string               `toml:"exclude"`    // globs of files the rule does not look at
	Inside    []string               `toml:"inside"`     // contexts every match must be in
	NotInside []string               `toml:"not-inside"` // contexts no match may be in
	Where     map[string]*Where      `toml:"where"`      // constraints on metavariables
	Report    string                 `toml:"report"`     // the metavariable the finding points at (default: the match)
	Require   string                 `toml:"require"`    // a pattern the file must hold
	Valid     []string               `toml:"valid"`      // snippets with no finding
	Invalid   []string               `toml:"invalid"`    // snippets with a finding each
	When      []*Relation            `toml:"when"`       // the rule applies only to a repository where all of these hold (as a relation's)
	Unless    []*Relation            `toml:"unless"`     // ... and none of these
	lists     map[string]*rules.List // the catalog's [lists]
	pats      []*pattern.Pattern     // Pattern and Any, parsed
	inside    []*context             // Inside, parsed
	notInside []*context             // NotInside, parsed
	require   *pattern.Pattern       // Require, parsed
	kinds     map[string]bool        // the node types a match can have (nil: any)
	binds     bool                   // Find returns the metavariables' text (a relation's subject)
	_         struct{}               // keeps the literal form keyed
}

// Where constrains a metavariable. Numeric constraints hold for an integer
// literal; for a tuple or list, for any of its elements (the finding then
// points at the first such element).
type Where struct {
	Regex      string   `toml:"regex"`        // its text matches
	NotRegex   string   `toml:"not-regex"`    // its text does not match
	In         string   `toml:"in"`           // its text (a name: its qualified name) is in this [lists] list
	NotIn      string   `toml:"not-in"`       // ... is not in it
	Range      []int64  `toml:"range"`        // an integer literal in [lo, hi]
	Outside    []int64  `toml:"outside"`      // an integer literal not in [lo, hi]
	PowerOfTwo *bool    `toml:"power-of-two"` // an integer literal that is (true) or is not (false) a power of two
	DefinedAs  string   `toml:"defined-as"`   // a name of a def of the file in this context ("kernel", "@name")
	Kinds      []string `toml:"kinds"`        // its node type is one of these ("GeneratorExp", "Lambda")
	Decorated  []string `toml:"decorated"`    // a name of a def of the file with a decorator matching one of these patterns
	// A parameter of the enclosing def whose annotation matches none of
	// these patterns (directly, as a string, or through a module-level
	// alias: ConstInt = ct.Constant[int]).
	ParamNotAnnotated []string `toml:"parameter-not-annotated"`
	// The text regex and not-regex test is the binding's whole source
	// followed by the values its function assigns to the names in it (each
	// name's last assignment above, three deep): tl.load(ptrs) is tested
	// with what ptrs was computed from.
	WithLocals bool `toml:"with-locals"`
	paramNot   []*pattern.Pattern
	regex      *regexp.Regexp
	decorated  []*pattern.Pattern
	notRegex   *regexp.Regexp
	definedAs  *context
}

// ListNames implements rules.ListUser.
func (p *PatternParams) ListNames() []string {
	var out []string
	for _, w := range p.Where {
		for _, n := range []string{w.In, w.NotIn} {
			if n != "" {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// BindLists implements rules.ListUser.
func (p *PatternParams) BindLists(lists map[string]*rules.List) { p.lists = lists }

// Validate parses the patterns and contexts.
func (p *PatternParams) Validate() error {
	var errs []error
	if p.Pattern == "" && len(p.Any) == 0 && len(p.Nodes) == 0 && p.Require == "" {
		errs = append(errs, errors.New("give pattern, any, nodes or require"))
	}
	for _, n := range p.Nodes {
		if !knownNode(n) {
			errs = append(errs, fmt.Errorf("nodes: %q is not a node type of Python's ast module", n))
		}
	}
	srcs := p.Any
	if p.Pattern != "" {
		srcs = append([]string{p.Pattern}, p.Any...)
	}
	vars := map[string]bool{}
	p.pats, p.kinds = nil, map[string]bool{}
	for _, s := range srcs {
		pt, err := pattern.Parse(s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.pats = append(p.pats, pt)
		for _, v := range pt.Vars() {
			vars[v] = true
		}
		ks := pt.Kinds()
		if ks == nil {
			// A metavariable's own constraint may say (A09: `$F` is a
			// name, an attribute or an import's name).
			if w := p.Where[pt.Root()]; w != nil && len(w.Kinds) > 0 {
				ks = w.Kinds
			}
		}
		if ks == nil || p.kinds == nil {
			p.kinds = nil
		} else {
			for _, k := range ks {
				p.kinds[k] = true
			}
		}
	}
	if p.Require != "" {
		pt, err := pattern.Parse(p.Require)
		errs = append(errs, err)
		p.require = pt
	}
	var err error
	p.inside, err = parseContexts(p.Inside)
	errs = append(errs, err)
	p.notInside, err = parseContexts(p.NotInside)
	errs = append(errs, err)
	for name, w := range p.Where {
		if !vars[name] {
			errs = append(errs, fmt.Errorf("where.%s: the pattern has no $%s", name, name))
		}
		errs = append(errs, w.compile(name))
	}
	if p.Report != "" && !vars[p.Report] {
		errs = append(errs, fmt.Errorf("report: the pattern has no $%s", p.Report))
	}
	errs = append(errs, validateWhen("when", p.When), validateWhen("unless", p.Unless))
	return errors.Join(errs...)
}

func (w *Where) compile(name string) error {
	var errs []error
	var err error
	if w.Regex != "" {
		if w.regex, err = regexp.Compile(w.Regex); err != nil {
			errs = append(errs, fmt.Errorf("where.%s.regex: %v", name, err))
		}
	}
	if w.NotRegex != "" {
		if w.notRegex, err = regexp.Compile(w.NotRegex); err != nil {
			errs = append(errs, fmt.Errorf("where.%s.not-regex: %v", name, err))
		}
	}
	for _, r := range [][]int64{w.Range, w.Outside} {
		if r != nil && (len(r) != 2 || r[0] > r[1]) {
			errs = append(errs, fmt.Errorf("where.%s: a range is [lo, hi] with lo <= hi", name))
		}
	}
	for _, d := range w.ParamNotAnnotated {
		pt, err := pattern.Parse(d)
		if err != nil {
			errs = append(errs, fmt.Errorf("where.%s.parameter-not-annotated: %v", name, err))
			continue
		}
		w.paramNot = append(w.paramNot, pt)
	}
	for _, d := range w.Decorated {
		pt, err := pattern.Parse(d)
		if err != nil {
			errs = append(errs, fmt.Errorf("where.%s.decorated: %v", name, err))
			continue
		}
		w.decorated = append(w.decorated, pt)
	}
	if w.DefinedAs != "" {
		cs, err := parseContexts([]string{w.DefinedAs})
		errs = append(errs, err)
		if len(cs) == 1 {
			if cs[0].pat != nil || cs[0].name != "kernel" && cs[0].decorator == "" {
				errs = append(errs, fmt.Errorf("where.%s.defined-as: want kernel or @decorator", name))
			}
			w.definedAs = cs[0]
		}
	}
	return errors.Join(errs...)
}

// A context is where a match may (inside) or may not (not-inside) be: a
// named context, a decorated function, or a pattern an enclosing node
// matches.
type context struct {
	name      string           // kernel, function, module, cache-miss
	decorator string           // "@name": a function decorated with name (called or not)
	pat       *pattern.Pattern // an enclosing node matches it
	after     *pattern.Pattern // "after:pattern": an earlier statement of the function holds a match
}

var contextNames = []string{"kernel", "function", "module", "cache-miss"}

func parseContexts(list []string) ([]*context, error) {
	var out []*context
	var errs []error
	for _, s := range list {
		switch {
		case slices.Contains(contextNames, s):
			out = append(out, &context{name: s})
		case strings.HasPrefix(s, "@"):
			out = append(out, &context{decorator: s[1:]})
		case strings.HasPrefix(s, "after:"):
			pt, err := pattern.Parse(strings.TrimSpace(s[len("after:"):]))
			if err != nil {
				errs = append(errs, fmt.Errorf("context %q: %v", s, err))
				continue
			}
			out = append(out, &context{after: pt})
		default:
			pt, err := pattern.Parse(s)
			if err != nil {
				errs = append(errs, fmt.Errorf("context %q: not one of %s, an @decorator, after:pattern, or a pattern: %v", s, strings.Join(contextNames, ", "), err))
				continue
			}
			out = append(out, &context{pat: pt})
		}
	}
	return out, errors.Join(errs...)
}

// kernelDecorator is the qualified name of cuTile's kernel decorator.
const kernelDecorator = "cuda.tile.kernel"

// fileMatcher holds what matching in one file needs.
type fileMatcher struct {
	f       *source.File
	im      *astutil.Imports
	resolve pattern.Resolver
	defs    map[string]*ast.FunctionDef // the file's top-level defs
	calls   map[string][][]ast.Node     // the paths of the calls of each top-level def by name (built when asked)
	depth   int                         // callers being followed by cacheMiss
	b       pattern.Bindings            // the bindings of an attempt (match)
	// admitted gives the versions of a dependency the file's project
	// admits (nil: unknown, every version), for gated [lists] items.
	admitted func(dep string) requires.Range
	path     []ast.Node          // the path of the node being matched (for constraints on its enclosing def)
	assigns  map[string]ast.Expr // the values of module-level `name = value` (built when asked)
}

// withLocals is the source of n followed by the values of the names in it
// that the function enclosing the node being matched assigns above it
// (their last assignment), followed in turn to depth.
func (fm *fileMatcher) withLocals(n ast.Node, depth int) string {
	var b strings.Builder
	lines := fileLines.Of(fm.f)
	for l := n.Pos().Line; l <= n.End().Line; l++ {
		line := srcLine(lines, l)
		if l == n.End().Line && n.End().Col <= len(line) {
			line = line[:n.End().Col]
		}
		if l == n.Pos().Line && n.Pos().Col <= len(line) {
			line = line[n.Pos().Col:]
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
	var fn ast.Node
	for i := len(fm.path) - 1; i >= 0 && fn == nil; i-- {
		if isFunc(fm.path[i]) {
			fn = fm.path[i]
		}
	}
	if fn == nil || depth == 0 {
		return b.String()
	}
	seen := map[string]bool{}
	ast.Inspect(n, func(x ast.Node) bool {
		name, ok := x.(*ast.Name)
		if !ok || seen[name.Id] {
			return true
		}
		seen[name.Id] = true
		var val ast.Expr
		ast.Inspect(fn, func(y ast.Node) bool {
			if a, ok := y.(*ast.Assign); ok && len(a.Targets) == 1 && a.Pos().Line < name.Pos().Line {
				if t, ok := a.Targets[0].(*ast.Name); ok && t.Id == name.Id {
					val = a.Value
				}
			}
			return true
		})
		if val != nil {
			b.WriteString(fm.withLocals(val, depth-1))
		}
		return true
	})
	return b.String()
}

// paramNotAnnotated returns the first name in n (not an attribute's) that
// is a parameter of the def enclosing the node being matched and whose
// annotation matches none of the patterns.
func (fm *fileMatcher) paramNotAnnotated(n ast.Node, pats []*pattern.Pattern) (ast.Node, bool) {
	var def *ast.FunctionDef
	for i := len(fm.path) - 1; i >= 0 && def == nil; i-- {
		def, _ = fm.path[i].(*ast.FunctionDef)
	}
	if def == nil {
		return nil, false
	}
	var found ast.Node
	ast.Inspect(n, func(x ast.Node) bool {
		if found != nil {
			return false
		}
		if _, ok := x.(*ast.Attribute); ok {
			return false // x.shape: an attribute of a value, not a parameter
		}
		name, ok := x.(*ast.Name)
		if !ok {
			return true
		}
		for _, prm := range astutil.Params(def.Args) {
			if prm.Name == name.Id && prm.Kind != astutil.VarPositional && prm.Kind != astutil.VarKeyword &&
				!fm.annotationMatches(prm.Arg.Annotation, pats) {
				found = name
			}
		}
		return true
	})
	return found, found != nil
}

// annotationMatches reports whether an annotation matches one of the
// patterns: itself, the expression a string annotation holds, or the value
// of a module-level alias it names.
func (fm *fileMatcher) annotationMatches(ann ast.Expr, pats []*pattern.Pattern) bool {
	switch a := ann.(type) {
	case nil:
		return false
	case *ast.Constant:
		if s, ok := a.Value.(string); ok {
			if f := source.ParseFile("annotation.py", []byte(s)); f.AST != nil && f.AST.Module != nil && len(f.AST.Module.Body) == 1 {
				if es, ok := f.AST.Module.Body[0].(*ast.ExprStmt); ok && fm.annotationMatches(es.Value, pats) {
					return true
				}
			}
		}
	case *ast.Name:
		if fm.assigns == nil {
			fm.assigns = map[string]ast.Expr{}
			astutil.EachTopLevel(fm.f.AST.Module.Body, func(s ast.Stmt) {
				if as, ok := s.(*ast.Assign); ok && len(as.Targets) == 1 {
					if t, ok := as.Targets[0].(*ast.Name); ok {
						fm.assigns[t.Id] = as.Value
					}
				}
			})
		}
		if v := fm.assigns[a.Id]; v != nil && v != ann && fm.annotationMatches(v, pats) {
			return true
		}
	}
	for _, pt := range pats {
		if pt.Match(ann, fm.resolve, nil) {
			return true
		}
	}
	return false
}

// callPaths returns the paths of the calls of a top-level def of the file.
func (fm *fileMatcher) callPaths(name string) [][]ast.Node {
	if fm.calls == nil {
		fm.calls = map[string][][]ast.Node{}
		fileNodesOf(fm.f).walk(func(path []ast.Node) {
			if c, ok := path[len(path)-1].(*ast.Call); ok {
				if n, ok := c.Func.(*ast.Name); ok && fm.defs[n.Id] != nil {
					fm.calls[n.Id] = append(fm.calls[n.Id], slices.Clone(path))
				}
			}
		})
	}
	return fm.calls[name]
}

func newFileMatcher(f *source.File) *fileMatcher {
	fm := &fileMatcher{f: f, im: f.Imports(), defs: astutil.TopLevelFuncs(f.AST)}
	fm.resolve = newResolver(fm.im)
	return fm
}

// newResolver returns the resolver of the names of a file with imports
// im. An attribute chain is resolved (its name built) once however many
// patterns compare it; a name's resolution is a lookup.
func newResolver(im *astutil.Imports) pattern.Resolver {
	resolved := map[*ast.Attribute]string{}
	return func(n ast.Node) string {
		switch e := n.(type) {
		case *ast.Name:
			q, _ := im.Resolve(e)
			return q
		case *ast.Alias:
			return im.ResolveAlias(e)
		case *ast.Attribute:
			q, ok := resolved[e]
			if !ok {
				q, _ = im.Resolve(e)
				resolved[e] = q
			}
			return q
		}
		return "" // what Resolve gives any other expression
	}
}

// decorated reports whether a def carries a decorator resolving to name.
func (fm *fileMatcher) decorated(n ast.Node, name string) bool {
	var decs []ast.Expr
	switch d := n.(type) {
	case *ast.FunctionDef:
		decs = d.DecoratorList
	case *ast.AsyncFunctionDef:
		decs = d.DecoratorList
	default:
		return false
	}
	for _, d := range decs {
		if c, ok := d.(*ast.Call); ok {
			d = c.Func
		}
		if fm.resolve(d) == name {
			return true
		}
	}
	return false
}

// decoratedLike reports whether n names a top-level def of the file with
// a decorator matching one of the patterns.
func (fm *fileMatcher) decoratedLike(n ast.Node, pats []*pattern.Pattern) bool {
	name, ok := n.(*ast.Name)
	if !ok || fm.defs[name.Id] == nil {
		return false
	}
	for _, d := range fm.defs[name.Id].DecoratorList {
		for _, pt := range pats {
			if pt.Match(d, fm.resolve, nil) {
				return true
			}
		}
	}
	return false
}

// in reports whether the node at the end of path (its ancestors first)
// is in the context.
func (fm *fileMatcher) in(c *context, path []ast.Node) bool {
	anc := path[:len(path)-1]
	switch {
	case c.pat != nil:
		for _, a := range anc {
			if c.pat.Match(a, fm.resolve, nil) {
				return true
			}
		}
		return false
	case c.decorator != "":
		for _, a := range anc {
			if fm.decorated(a, c.decorator) {
				return true
			}
		}
		return false
	case c.after != nil:
		return fm.after(c.after, path)
	}
	switch c.name {
	case "kernel":
		for _, a := range anc {
			if fm.decorated(a, kernelDecorator) {
				return true
			}
		}
	case "function":
		return slices.ContainsFunc(anc, isFunc)
	case "module":
		return !slices.ContainsFunc(anc, isFunc)
	case "cache-miss":
		return fm.cacheMiss(path)
	}
	return false
}

// after reports whether a statement before the node at the end of path,
// in its block or an enclosing one of the same function (of the module,
// at module level), holds a match of pt: a synchronize after a launch.
func (fm *fileMatcher) after(pt *pattern.Pattern, path []ast.Node) bool {
	holds := func(list []ast.Stmt, child ast.Node) bool {
		for _, s := range list {
			if ast.Node(s) == child {
				return false
			}
			found := false
			ast.Inspect(s, func(n ast.Node) bool {
				if !found && n != nil && pt.Match(n, fm.resolve, nil) {
					found = true
				}
				return !found
			})
			if found {
				return true
			}
		}
		return false
	}
	for i := len(path) - 2; i >= 0; i-- {
		for _, list := range stmtLists(path[i]) {
			if inStmts(list, path[i+1]) && holds(list, path[i+1]) {
				return true
			}
		}
		if isFunc(path[i]) {
			return false
		}
	}
	return holds(fm.f.AST.Module.Body, path[0])
}

// cacheMiss reports whether the node at the end of path runs only when a
// cache misses: at module level (once), in a function decorated with
// functools.cache or lru_cache, in the body of an `if k not in cache:` or
// `if v is None:` (or `if not v:`), or after a statement `if k in cache:`
// / `if v is not None:` whose body returns.
func (fm *fileMatcher) cacheMiss(path []ast.Node) bool {
	if !slices.ContainsFunc(path[:len(path)-1], isFunc) {
		return true
	}
	for i := len(path) - 2; i >= 0; i-- {
		a := path[i]
		child := path[i+1]
		if s, ok := a.(*ast.If); ok && missTest(s.Test, false) && inStmts(s.Body, child) {
			return true
		}
		// A guard returning on a hit, earlier in the same block.
		for _, body := range stmtLists(a) {
			for _, s := range body {
				if s.Pos().Line >= child.Pos().Line {
					break
				}
				if g, ok := s.(*ast.If); ok && missTest(g.Test, true) && returns(g.Body) {
					return true
				}
			}
		}
		if isFunc(a) {
			if fm.decorated(a, "functools.cache") || fm.decorated(a, "functools.lru_cache") {
				return true
			}
			// A top-level def the file calls only on a cache miss (a
			// tuning helper called under `if key not in cache:`).
			fd, ok := a.(*ast.FunctionDef)
			if !ok || i != 0 || fm.depth > 2 {
				return false
			}
			calls := fm.callPaths(fd.Name)
			if len(calls) == 0 {
				return false
			}
			fm.depth++
			defer func() { fm.depth-- }()
			for _, c := range calls {
				if !fm.cacheMiss(c) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// missTest reports whether an if's test is a cache miss (hit false: `k not
// in c`, `v is None`, `not v`) or a hit (hit true: `k in c`, `v is not
// None`, `v`).
func missTest(e ast.Expr, hit bool) bool {
	switch t := e.(type) {
	case *ast.Compare:
		if len(t.Ops) != 1 {
			return false
		}
		switch t.Ops[0] {
		case ast.NotIn:
			return !hit
		case ast.In:
			return hit
		case ast.Is:
			return !hit && astutil.IsNoneExpr(t.Comparators[0])
		case ast.IsNot:
			return hit && astutil.IsNoneExpr(t.Comparators[0])
		}
	case *ast.UnaryOp:
		if t.Op == ast.Not {
			return !hit && isNameLike(t.Operand)
		}
	case *ast.Name, *ast.Attribute:
		return hit
	}
	return false
}

func isNameLike(e ast.Expr) bool { return astutil.DottedName(e) != "" }

func inStmts(list []ast.Stmt, n ast.Node) bool {
	for _, s := range list {
		if ast.Node(s) == n {
			return true
		}
	}
	return false
}

// stmtLists returns the statement lists of a node.
func stmtLists(n ast.Node) [][]ast.Stmt {
	switch s := n.(type) {
	case *ast.FunctionDef:
		return [][]ast.Stmt{s.Body}
	case *ast.AsyncFunctionDef:
		return [][]ast.Stmt{s.Body}
	case *ast.If:
		return [][]ast.Stmt{s.Body, s.Orelse}
	case *ast.For:
		return [][]ast.Stmt{s.Body, s.Orelse}
	case *ast.While:
		return [][]ast.Stmt{s.Body, s.Orelse}
	case *ast.With:
		return [][]ast.Stmt{s.Body}
	case *ast.Try:
		return [][]ast.Stmt{s.Body, s.Orelse, s.Finalbody}
	case *ast.ExceptHandler:
		return [][]ast.Stmt{s.Body}
	}
	return nil
}

// nodeKind is the type name of a node ("Call").
func nodeKind(n ast.Node) string { return typeKind(reflect.TypeOf(n)) }

// typeKind is the type name of a node type.
func typeKind(t reflect.Type) string {
	if k, ok := kindNames.Load(t); ok {
		return k.(string)
	}
	name := t.Name()
	if t.Kind() == reflect.Pointer {
		name = t.Elem().Name()
	}
	kindNames.Store(t, name)
	return name
}

// kindNames caches nodeKind by type: it runs on every node for every rule.
var kindNames sync.Map

// A fileNodes is a parsed file's nodes in walk's order, each with its
// depth (its path's length less one) and the key the pattern index files
// it under (by its type and nodeAnchor): built once per file and shared by
// the pattern and relation kinds and every walk of theirs, which then go
// through a slice instead of a tree, and skip the nodes whose key no rule
// is concerned with.
type fileNodes struct {
	nodes []ast.Node
	depth []int32
	key   []int32    // index of the node's key in keys
	keys  []indexKey // the distinct keys of the file's nodes
}

var fileNodesFact = source.NewFact(func(f *source.File) *fileNodes {
	fn := &fileNodes{}
	if f.AST == nil || f.AST.Module == nil {
		return fn
	}
	resolve := newResolver(f.Imports())
	ids := map[indexKey]int32{}
	// About one node for every 8 bytes of source.
	fn.nodes = make([]ast.Node, 0, len(f.Src)/8)
	fn.depth = make([]int32, 0, len(f.Src)/8)
	fn.key = make([]int32, 0, len(f.Src)/8)
	for _, s := range f.AST.Module.Body {
		ast.InspectDepth(s, func(n ast.Node, depth int) {
			key := indexKey{reflect.TypeOf(n), nodeAnchor(resolve, n)}
			id, ok := ids[key]
			if !ok {
				id = int32(len(fn.keys))
				ids[key] = id
				fn.keys = append(fn.keys, key)
			}
			fn.nodes = append(fn.nodes, n)
			fn.depth = append(fn.depth, int32(depth))
			fn.key = append(fn.key, id)
		})
	}
	return fn
})

// fileNodesOf returns the nodes of a parsed file, computed once.
func fileNodesOf(f *source.File) *fileNodes { return fileNodesFact.Of(f) }

// walk calls fn for every node with its path from the module, as walk
// does over the file's tree.
func (fn *fileNodes) walk(visit func(path []ast.Node)) {
	path := make([]ast.Node, 0, 32)
	for j, n := range fn.nodes {
		path = append(path[:fn.depth[j]], n)
		visit(path)
	}
}

// match returns the node a match is reported at, when the node at the end
// of path (of type kind, nodeKind's) is one; check is p.check(fm), pats
// those of p.pats that may match the node.
func (p *PatternParams) match(fm *fileMatcher, path []ast.Node, kind string, check func(string, ast.Node) bool, pats []*pattern.Pattern) (ast.Node, pattern.Bindings, bool) {
	n := path[len(path)-1]
	fm.path = path
	if len(p.Nodes) > 0 && slices.Contains(p.Nodes, kind) && p.inContexts(fm, path) {
		return n, pattern.Bindings{}, true
	}
	if p.kinds != nil && !p.kinds[kind] {
		return nil, nil, false
	}
	// One map serves every attempt in the file; a match gets a copy.
	if fm.b == nil {
		fm.b = pattern.Bindings{}
	}
	for _, pt := range pats {
		b := fm.b
		clear(b)
		if !pt.MatchWhere(n, fm.resolve, b, check) {
			continue
		}
		b = maps.Clone(b)
		at, ok := p.holds(fm, b)
		if !ok {
			continue
		}
		if !p.inContexts(fm, path) {
			return nil, nil, false
		}
		if at == nil {
			at = n
			if p.Report != "" {
				at = b[p.Report]
			}
		}
		return at, b, true
	}
	return nil, nil, false
}

// check returns the test of a metavariable's binding against the
// constraints of where, made as the matcher binds it (nil: none).
func (p *PatternParams) check(fm *fileMatcher) func(string, ast.Node) bool {
	if len(p.Where) == 0 {
		return nil
	}
	return func(name string, x ast.Node) bool {
		w := p.Where[name]
		if w == nil {
			return true
		}
		_, ok := w.holds(fm, p, x)
		return ok
	}
}

// inContexts reports whether the node at the end of path is in every
// context of inside and in none of not-inside.
func (p *PatternParams) inContexts(fm *fileMatcher, path []ast.Node) bool {
	for _, c := range p.inside {
		if !fm.in(c, path) {
			return false
		}
	}
	for _, c := range p.notInside {
		if fm.in(c, path) {
			return false
		}
	}
	return true
}

// knownNode reports whether name is a node type of package ast.
func knownNode(name string) bool {
	return slices.Contains([]string{"FunctionDef", "AsyncFunctionDef", "ClassDef", "Return", "Delete", "Assign",
		"AugAssign", "AnnAssign", "For", "AsyncFor", "While", "If", "With", "AsyncWith", "Match", "Raise", "Try",
		"TryStar", "Assert", "Import", "ImportFrom", "Global", "Nonlocal", "ExprStmt", "Pass", "Break", "Continue",
		"BoolOp", "NamedExpr", "BinOp", "UnaryOp", "Lambda", "IfExp", "Dict", "Set", "ListComp", "SetComp",
		"DictComp", "GeneratorExp", "Await", "Yield", "YieldFrom", "Compare", "Call", "JoinedStr", "Constant",
		"Attribute", "Subscript", "Starred", "Name", "List", "Tuple", "Slice"}, name)
}

// holds checks the constraints (a metavariable the matching pattern does
// not have is not constrained); at is the element of a tuple a numeric
// constraint held for, if any.
func (p *PatternParams) holds(fm *fileMatcher, b pattern.Bindings) (at ast.Node, ok bool) {
	for _, name := range slices.Sorted(maps.Keys(p.Where)) {
		w := p.Where[name]
		n := b[name]
		if n == nil {
			continue
		}
		elt, ok := w.holds(fm, p, n)
		if !ok {
			return nil, false
		}
		if elt != nil && (p.Report == "" || p.Report == name) {
			at = elt
		}
	}
	return at, true
}

func (w *Where) holds(fm *fileMatcher, p *PatternParams, n ast.Node) (ast.Node, bool) {
	if len(w.Kinds) > 0 && !slices.Contains(w.Kinds, nodeKind(n)) {
		return nil, false
	}
	if w.regex != nil || w.notRegex != nil || w.In != "" || w.NotIn != "" {
		txt := bindingText(fm, n)
		if w.WithLocals {
			txt = fm.withLocals(n, 3)
		}
		if w.regex != nil && !w.regex.MatchString(txt) {
			return nil, false
		}
		if w.notRegex != nil && w.notRegex.MatchString(txt) {
			return nil, false
		}
		// A value a gated item may or may not make a member (the repository
		// admits versions on both sides of the gate, or declares none) meets
		// neither constraint: a finding must hold for every admitted version.
		if w.In != "" && p.lists[w.In].Member(txt, fm.admitted) != rules.Member {
			return nil, false
		}
		if w.NotIn != "" && p.lists[w.NotIn].Member(txt, fm.admitted) != rules.NotMember {
			return nil, false
		}
	}
	if w.definedAs != nil {
		// A name, or a def's own name (def $K(...)).
		var id string
		switch x := n.(type) {
		case *ast.Name:
			id = x.Id
		case *pattern.Ident:
			id = x.Id
		}
		def := fm.defs[id]
		if def == nil {
			return nil, false
		}
		dec := w.definedAs.decorator
		if w.definedAs.name == "kernel" {
			dec = kernelDecorator
		}
		if !fm.decorated(def, dec) {
			return nil, false
		}
	}
	if len(w.decorated) > 0 && !fm.decoratedLike(n, w.decorated) {
		return nil, false
	}
	if len(w.paramNot) > 0 {
		e, ok := fm.paramNotAnnotated(n, w.paramNot)
		if !ok {
			return nil, false
		}
		if e != n {
			return e, true
		}
	}
	if w.Range == nil && w.Outside == nil && w.PowerOfTwo == nil {
		return nil, true
	}
	var elts []ast.Expr
	switch v := n.(type) {
	case *ast.Tuple:
		elts = v.Elts
	case *ast.List:
		elts = v.Elts
	case ast.Expr:
		elts = []ast.Expr{v}
	}
	for _, e := range elts {
		if w.intHolds(e) {
			if _, one := n.(ast.Expr); len(elts) == 1 && one && ast.Node(e) == n {
				return nil, true
			}
			return e, true
		}
	}
	return nil, false
}

// intHolds checks the numeric constraints on an integer literal.
func (w *Where) intHolds(e ast.Expr) bool {
	c, ok := e.(*ast.Constant)
	if !ok {
		return false
	}
	v, ok := c.Value.(*big.Int)
	if !ok || !v.IsInt64() {
		return false
	}
	x := v.Int64()
	if w.Range != nil && (x < w.Range[0] || x > w.Range[1]) {
		return false
	}
	if w.Outside != nil && x >= w.Outside[0] && x <= w.Outside[1] {
		return false
	}
	if w.PowerOfTwo != nil && (x > 0 && x&(x-1) == 0) != *w.PowerOfTwo {
		return false
	}
	return true
}

// bindingText is what constraints test of a binding: a name's qualified
// name, a string's value, else its source text.
func bindingText(fm *fileMatcher, n ast.Node) string {
	switch v := n.(type) {
	case *pattern.Ident:
		return v.Id
	case *ast.Name:
		return fm.resolve(v)
	case *ast.Attribute:
		return fm.resolve(v)
	case *ast.Alias:
		return fm.resolve(v)
	case *ast.Constant:
		if s, ok := v.Value.(string); ok {
			return s
		}
	}
	return nodeLine(fm.f, n)
}

func runPattern(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	// Each file is walked once for all the rules that look at it.
	var rs []*rules.Rule
	var ps []*PatternParams
	var tree *Tree // for the rules with a "when" or "unless", made when first needed
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*PatternParams)
		if p == nil {
			continue
		}
		if len(p.When)+len(p.Unless) > 0 {
			if tree == nil {
				tree = NewTree(pass.Repo)
			}
			if !tree.Applies(p.When, p.Unless) {
				continue
			}
		}
		rs = append(rs, rule)
		ps = append(ps, p)
	}
	on := map[string][]bool{} // by file: which rules look at it
	var order []string
	for i, p := range ps {
		for _, f := range ruleFiles(pass, rs[i].Files, p.Exclude) {
			if on[f.Path] == nil {
				on[f.Path] = make([]bool, len(ps))
				order = append(order, f.Path)
			}
			on[f.Path][i] = true
		}
	}
	sort.Strings(order)
	ix := newPatternIndex(ps)
	decl := newDeclared(pass.Repo)
	for _, path := range order {
		f := pass.Repo.Files[path]
		for i, ms := range findAll(f, ix, on[path], decl.admitted(path)) {
			for _, m := range ms {
				reportFamily(pass, tab, rs[i], f, m.At, m.Vars)
			}
		}
	}
	return nil, nil
}

// A PatternMatch is one finding of a pattern rule in a file.
type PatternMatch struct {
	At    ast.Node          // nil: the file (a require that fails)
	Vars  map[string]string // match, value, name
	Binds map[string]string // the text of each metavariable (when the params ask for it: a relation's subjects)
}

// Find returns the findings of the rule's pattern in a parsed file, for a
// project that declares no version of its dependencies.
func (p *PatternParams) Find(f *source.File) []PatternMatch {
	return findAll(f, newPatternIndex([]*PatternParams{p}), nil, nil)[0]
}

// SnippetRequires returns the requirements a snippet declares in its
// first lines, comments "# requires: cuda-tile>=1.3" (one each): a valid
// or invalid snippet of a rule that a gated list decides is checked as in
// a repository that declares them. Those that do not parse constrain
// nothing, as in a packaging file.
func SnippetRequires(src string) []requires.Declaration {
	var out []requires.Declaration
	for i, line := range strings.Split(src, "\n") {
		r, ok := strings.CutPrefix(line, "# requires:")
		if !ok {
			break
		}
		req, err := requires.ParseRequirement(r)
		out = append(out, requires.Declaration{Requirement: req, File: "snippet", Line: i + 1, Err: err})
	}
	return out
}

// FindDeclaring is Find in a project that declares decls.
func (p *PatternParams) FindDeclaring(f *source.File, decls []requires.Declaration) []PatternMatch {
	return findAll(f, newPatternIndex([]*PatternParams{p}), nil, func(dep string) requires.Range {
		r, _ := requires.Admitted(decls, dep)
		return r
	})[0]
}

// A patternIndex says, for a node's type and attribute name (nodeAnchor),
// which rules may find something at it and with which of their patterns;
// built as the keys are met, it serves every file the rules look at.
type patternIndex struct {
	ps    []*PatternParams
	byKey map[indexKey]*concern
}

type indexKey struct {
	t      reflect.Type
	anchor string
}

// A concern is what a node of one key may be to the rules.
type concern struct {
	kind  string      // the node's type name (nodeKind)
	rules []candidate // in the order of the rules
}

// A candidate is a rule that may find something at a node: its require
// may match there, or some of its patterns (pats, in the rule's order),
// or its nodes list the node's type.
type candidate struct {
	i    int
	req  bool
	pats []*pattern.Pattern
}

func newPatternIndex(ps []*PatternParams) *patternIndex {
	return &patternIndex{ps: ps, byKey: map[indexKey]*concern{}}
}

// nodeAnchor is the last part of a node's own name, what pattern.Anchor
// constrains: an Attribute's attribute name, a call's callee's (an
// Attribute's, or the last part of what a Name resolves to); else "".
func nodeAnchor(resolve pattern.Resolver, n ast.Node) string {
	switch v := n.(type) {
	case *ast.Call:
		switch f := v.Func.(type) {
		case *ast.Attribute:
			return f.Attr
		case *ast.Name:
			q := resolve(f)
			return q[strings.LastIndexByte(q, '.')+1:]
		}
	case *ast.Attribute:
		return v.Attr
	}
	return ""
}

// mayMatch reports whether a pattern may match a node of type kind whose
// own name ends in anchor.
func mayMatch(pt *pattern.Pattern, kind, anchor string) bool {
	t, pa := pt.Type(), pt.Anchor()
	return (t == "" || t == kind) && (pa == "" || anchor == "" || pa == anchor)
}

// of returns the concern of the nodes of a key: a rule's patterns are
// offered the nodes of their rule's types (PatternParams.kinds) that they
// may match (mayMatch), its nodes those listed, its require those it may
// match.
func (ix *patternIndex) of(key indexKey) *concern {
	if c := ix.byKey[key]; c != nil {
		return c
	}
	c := &concern{kind: typeKind(key.t)}
	for i, p := range ix.ps {
		cd := candidate{i: i, req: p.require != nil && mayMatch(p.require, c.kind, key.anchor)}
		if p.kinds == nil || p.kinds[c.kind] {
			for _, pt := range p.pats {
				if mayMatch(pt, c.kind, key.anchor) {
					cd.pats = append(cd.pats, pt)
				}
			}
		}
		if cd.req || len(cd.pats) > 0 || slices.Contains(p.Nodes, c.kind) {
			c.rules = append(c.rules, cd)
		}
	}
	ix.byKey[key] = c
	return c
}

// findAll returns the findings of the rules of ix that look at a parsed
// file (on[i]: rule i does; nil: all do), from one walk of its tree;
// admitted gives the versions of a dependency the file's project admits
// (nil: every version).
func findAll(f *source.File, ix *patternIndex, on []bool, admitted func(dep string) requires.Range) [][]PatternMatch {
	ps := ix.ps
	fm := newFileMatcher(f)
	fm.admitted = admitted
	out := make([][]PatternMatch, len(ps))
	first := make([]ast.Node, len(ps))
	found := make([]bool, len(ps))
	looks := func(i int) bool { return on == nil || on[i] }
	checks := make([]func(string, ast.Node) bool, len(ps))
	for i, p := range ps {
		if looks(i) {
			checks[i] = p.check(fm)
		}
	}
	// The concern of each key the file's nodes have, looked up once.
	fn := fileNodesOf(f)
	concerns := make([]*concern, len(fn.keys))
	for k, key := range fn.keys {
		concerns[k] = ix.of(key)
	}
	path := make([]ast.Node, 0, 32)
	for j, n := range fn.nodes {
		path = append(path[:fn.depth[j]], n)
		c := concerns[fn.key[j]]
		for _, cd := range c.rules {
			i := cd.i
			if !looks(i) {
				continue
			}
			p := ps[i]
			if cd.req && !found[i] && p.require.Match(n, fm.resolve, nil) {
				found[i] = true
			}
			at, b, ok := p.match(fm, path, c.kind, checks[i], cd.pats)
			if !ok {
				continue
			}
			if first[i] == nil {
				first[i] = at
			}
			if p.require == nil {
				m := PatternMatch{At: at, Vars: matchVars(fm, n, at)}
				if p.binds {
					m.Binds = map[string]string{}
					for k, x := range b {
						m.Binds[k] = bindingText(fm, x)
					}
				}
				out[i] = append(out[i], m)
			}
		}
	}
	for i, p := range ps {
		if looks(i) && p.require != nil && (len(p.pats) == 0 || first[i] != nil) && !found[i] {
			out[i] = append(out[i], PatternMatch{At: first[i], Vars: map[string]string{"match": "", "value": "", "name": ""}})
		}
	}
	return out
}

func matchVars(fm *fileMatcher, n, at ast.Node) map[string]string {
	v := map[string]string{"match": nodeSource(fm.f, n), "value": nodeSource(fm.f, at), "name": ""}
	switch x := at.(type) {
	case *pattern.Ident:
		v["name"] = x.Id
		if x.Lineno == 0 {
			v["value"] = x.Id
		}
	case *ast.Name:
		v["name"] = x.Id
	case *ast.Attribute:
		v["name"] = x.Attr
	case *ast.Alias:
		v["name"] = x.Name
	case *ast.Call:
		v["name"] = astutil.DottedTail(astutil.DottedName(x.Func))
		if a, ok := x.Func.(*ast.Attribute); ok && v["name"] == "" {
			v["name"] = a.Attr // a method of a call's result: f(x).to(...)
		}
	}
	return v
}

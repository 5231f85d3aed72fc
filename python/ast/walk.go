package ast

// Inspect traverses the tree rooted at n depth-first in source (field) order.
// It calls f(node) for n and for every descendant positioned node; if f
// returns false, the children of that node are skipped. The unpositioned
// helper nodes (Arguments, Comprehension, WithItem, MatchCase) are not passed
// to f, but their positioned children are visited as if they were children
// of the enclosing node. A nil n is ignored.
func Inspect(n Node, f func(Node) bool) {
	if isNilNode(n) {
		return
	}
	if !f(n) {
		return
	}
	walkChildren(n, f)
}

// InspectDepth calls f for n and every node Inspect visits under it, in
// Inspect's order, with its depth below n (n's is 0): what a walk that
// keeps each node's path needs, with one visit per node and no closure
// made per node.
func InspectDepth(n Node, f func(n Node, depth int)) {
	w := &depthWalker{f: f}
	w.visit = w.node
	Inspect(n, w.visit)
}

type depthWalker struct {
	f     func(Node, int)
	depth int
	visit func(Node) bool // w.node, made once
}

func (w *depthWalker) node(n Node) bool {
	w.f(n, w.depth)
	w.depth++
	walkChildren(n, w.visit)
	w.depth--
	return false
}

func isNilNode(n Node) bool {
	if n == nil {
		return true
	}
	// Typed nil pointers stored in an interface.
	switch v := n.(type) {
	case *Name:
		return v == nil
	case *Constant:
		return v == nil
	case *Arg:
		return v == nil
	case *Keyword:
		return v == nil
	case *Alias:
		return v == nil
	case *ExceptHandler:
		return v == nil
	}
	return false
}

func inspectExprs(list []Expr, f func(Node) bool) {
	for _, e := range list {
		if e != nil {
			Inspect(e, f)
		}
	}
}

func inspectStmts(list []Stmt, f func(Node) bool) {
	for _, s := range list {
		if s != nil {
			Inspect(s, f)
		}
	}
}

func inspectPatterns(list []Pattern, f func(Node) bool) {
	for _, p := range list {
		if p != nil {
			Inspect(p, f)
		}
	}
}

func inspectTypeParams(list []TypeParam, f func(Node) bool) {
	for _, p := range list {
		if p != nil {
			Inspect(p, f)
		}
	}
}

func inspectExpr(e Expr, f func(Node) bool) {
	if e != nil {
		Inspect(e, f)
	}
}

func inspectArg(a *Arg, f func(Node) bool) {
	if a != nil {
		Inspect(a, f)
	}
}

func inspectKeywords(list []*Keyword, f func(Node) bool) {
	for _, k := range list {
		if k != nil {
			Inspect(k, f)
		}
	}
}

// inspectArguments visits the parameters in source order: positional-only
// and regular parameters interleaved with their defaults, then *args, then
// keyword-only parameters with their defaults, then **kwargs.
func inspectArguments(a *Arguments, f func(Node) bool) {
	if a == nil {
		return
	}
	pos := len(a.PosOnlyArgs) + len(a.Args)
	firstDefault := pos - len(a.Defaults)
	i := 0
	visit := func(p *Arg) {
		inspectArg(p, f)
		if i >= firstDefault && i-firstDefault < len(a.Defaults) {
			inspectExpr(a.Defaults[i-firstDefault], f)
		}
		i++
	}
	for _, p := range a.PosOnlyArgs {
		visit(p)
	}
	for _, p := range a.Args {
		visit(p)
	}
	inspectArg(a.Vararg, f)
	for j, p := range a.KwOnlyArgs {
		inspectArg(p, f)
		if j < len(a.KwDefaults) {
			inspectExpr(a.KwDefaults[j], f)
		}
	}
	inspectArg(a.Kwarg, f)
}

func inspectComprehensions(gens []*Comprehension, f func(Node) bool) {
	for _, g := range gens {
		if g == nil {
			continue
		}
		inspectExpr(g.Target, f)
		inspectExpr(g.Iter, f)
		inspectExprs(g.Ifs, f)
	}
}

func inspectHandlers(hs []*ExceptHandler, f func(Node) bool) {
	for _, h := range hs {
		if h != nil {
			Inspect(h, f)
		}
	}
}

func walkChildren(n Node, f func(Node) bool) {
	switch n := n.(type) {
	// Statements.
	case *FunctionDef:
		inspectExprs(n.DecoratorList, f)
		inspectTypeParams(n.TypeParams, f)
		inspectArguments(n.Args, f)
		inspectExpr(n.Returns, f)
		inspectStmts(n.Body, f)
	case *AsyncFunctionDef:
		inspectExprs(n.DecoratorList, f)
		inspectTypeParams(n.TypeParams, f)
		inspectArguments(n.Args, f)
		inspectExpr(n.Returns, f)
		inspectStmts(n.Body, f)
	case *ClassDef:
		inspectExprs(n.DecoratorList, f)
		inspectTypeParams(n.TypeParams, f)
		inspectExprs(n.Bases, f)
		inspectKeywords(n.Keywords, f)
		inspectStmts(n.Body, f)
	case *Return:
		inspectExpr(n.Value, f)
	case *Delete:
		inspectExprs(n.Targets, f)
	case *Assign:
		inspectExprs(n.Targets, f)
		inspectExpr(n.Value, f)
	case *TypeAlias:
		inspectExpr(n.Name, f)
		inspectTypeParams(n.TypeParams, f)
		inspectExpr(n.Value, f)
	case *AugAssign:
		inspectExpr(n.Target, f)
		inspectExpr(n.Value, f)
	case *AnnAssign:
		inspectExpr(n.Target, f)
		inspectExpr(n.Annotation, f)
		inspectExpr(n.Value, f)
	case *For:
		inspectExpr(n.Target, f)
		inspectExpr(n.Iter, f)
		inspectStmts(n.Body, f)
		inspectStmts(n.Orelse, f)
	case *AsyncFor:
		inspectExpr(n.Target, f)
		inspectExpr(n.Iter, f)
		inspectStmts(n.Body, f)
		inspectStmts(n.Orelse, f)
	case *While:
		inspectExpr(n.Test, f)
		inspectStmts(n.Body, f)
		inspectStmts(n.Orelse, f)
	case *If:
		inspectExpr(n.Test, f)
		inspectStmts(n.Body, f)
		inspectStmts(n.Orelse, f)
	case *With:
		for _, it := range n.Items {
			if it != nil {
				inspectExpr(it.ContextExpr, f)
				inspectExpr(it.OptionalVars, f)
			}
		}
		inspectStmts(n.Body, f)
	case *AsyncWith:
		for _, it := range n.Items {
			if it != nil {
				inspectExpr(it.ContextExpr, f)
				inspectExpr(it.OptionalVars, f)
			}
		}
		inspectStmts(n.Body, f)
	case *Match:
		inspectExpr(n.Subject, f)
		for _, c := range n.Cases {
			if c == nil {
				continue
			}
			if c.Pattern != nil {
				Inspect(c.Pattern, f)
			}
			inspectExpr(c.Guard, f)
			inspectStmts(c.Body, f)
		}
	case *Raise:
		inspectExpr(n.Exc, f)
		inspectExpr(n.Cause, f)
	case *Try:
		inspectStmts(n.Body, f)
		inspectHandlers(n.Handlers, f)
		inspectStmts(n.Orelse, f)
		inspectStmts(n.Finalbody, f)
	case *TryStar:
		inspectStmts(n.Body, f)
		inspectHandlers(n.Handlers, f)
		inspectStmts(n.Orelse, f)
		inspectStmts(n.Finalbody, f)
	case *Assert:
		inspectExpr(n.Test, f)
		inspectExpr(n.Msg, f)
	case *Import:
		for _, a := range n.Names {
			if a != nil {
				Inspect(a, f)
			}
		}
	case *ImportFrom:
		for _, a := range n.Names {
			if a != nil {
				Inspect(a, f)
			}
		}
	case *ExprStmt:
		inspectExpr(n.Value, f)
	case *Global, *Nonlocal, *Pass, *Break, *Continue:

	// Expressions.
	case *BoolOp:
		inspectExprs(n.Values, f)
	case *NamedExpr:
		inspectExpr(n.Target, f)
		inspectExpr(n.Value, f)
	case *BinOp:
		inspectExpr(n.Left, f)
		inspectExpr(n.Right, f)
	case *UnaryOp:
		inspectExpr(n.Operand, f)
	case *Lambda:
		inspectArguments(n.Args, f)
		inspectExpr(n.Body, f)
	case *IfExp:
		// Source order: body if test else orelse.
		inspectExpr(n.Body, f)
		inspectExpr(n.Test, f)
		inspectExpr(n.Orelse, f)
	case *Dict:
		for i := range n.Values {
			if i < len(n.Keys) {
				inspectExpr(n.Keys[i], f)
			}
			inspectExpr(n.Values[i], f)
		}
	case *Set:
		inspectExprs(n.Elts, f)
	case *ListComp:
		inspectExpr(n.Elt, f)
		inspectComprehensions(n.Generators, f)
	case *SetComp:
		inspectExpr(n.Elt, f)
		inspectComprehensions(n.Generators, f)
	case *DictComp:
		inspectExpr(n.Key, f)
		inspectExpr(n.Value, f)
		inspectComprehensions(n.Generators, f)
	case *GeneratorExp:
		inspectExpr(n.Elt, f)
		inspectComprehensions(n.Generators, f)
	case *Await:
		inspectExpr(n.Value, f)
	case *Yield:
		inspectExpr(n.Value, f)
	case *YieldFrom:
		inspectExpr(n.Value, f)
	case *Compare:
		inspectExpr(n.Left, f)
		inspectExprs(n.Comparators, f)
	case *Call:
		inspectExpr(n.Func, f)
		inspectExprs(n.Args, f)
		inspectKeywords(n.Keywords, f)
	case *FormattedValue:
		inspectExpr(n.Value, f)
		inspectExpr(n.FormatSpec, f)
	case *JoinedStr:
		inspectExprs(n.Values, f)
	case *Constant, *Name:
	case *Attribute:
		inspectExpr(n.Value, f)
	case *Subscript:
		inspectExpr(n.Value, f)
		inspectExpr(n.Slice, f)
	case *Starred:
		inspectExpr(n.Value, f)
	case *List:
		inspectExprs(n.Elts, f)
	case *Tuple:
		inspectExprs(n.Elts, f)
	case *Slice:
		inspectExpr(n.Lower, f)
		inspectExpr(n.Upper, f)
		inspectExpr(n.Step, f)

	// Other positioned nodes.
	case *ExceptHandler:
		inspectExpr(n.Type, f)
		inspectStmts(n.Body, f)
	case *Arg:
		inspectExpr(n.Annotation, f)
	case *Keyword:
		inspectExpr(n.Value, f)
	case *Alias:

	// Patterns.
	case *MatchValue:
		inspectExpr(n.Value, f)
	case *MatchSingleton, *MatchStar:
	case *MatchSequence:
		inspectPatterns(n.Patterns, f)
	case *MatchMapping:
		for i := range n.Patterns {
			if i < len(n.Keys) {
				inspectExpr(n.Keys[i], f)
			}
			if n.Patterns[i] != nil {
				Inspect(n.Patterns[i], f)
			}
		}
	case *MatchClass:
		inspectExpr(n.Cls, f)
		inspectPatterns(n.Patterns, f)
		inspectPatterns(n.KwdPatterns, f)
	case *MatchAs:
		if n.Pattern != nil {
			Inspect(n.Pattern, f)
		}
	case *MatchOr:
		inspectPatterns(n.Patterns, f)

	// Type parameters.
	case *TypeVar:
		inspectExpr(n.Bound, f)
	case *ParamSpec, *TypeVarTuple:
	}
}

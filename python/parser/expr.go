package parser

import (
	"github.com/tilegym/tilegym-lint/python/ast"
)

// starExpressions: star_expression (',' star_expression)* [','] -> Tuple.
func (p *parser) starExpressions() ast.Expr {
	start := p.p
	e := p.starExpression()
	if p.kind() != tComma {
		return e
	}
	base := len(p.exprStack)
	p.exprStack = append(p.exprStack, e)
	for p.got(tComma) {
		if !p.startsExpr() {
			break
		}
		e := p.starExpression()
		p.exprStack = append(p.exprStack, e)
	}
	return &ast.Tuple{Attrs: p.span(start), Elts: p.popExprs(base), Ctx: ast.Load}
}

// startsExpr reports whether the current token can begin an expression.
func (p *parser) startsExpr() bool {
	switch p.kind() {
	case tName, tNumber, tString, tLParen, tLBrack, tLBrace, tMinus, tPlus, tTilde, tStar,
		tEllipsis, kwNot, kwLambda, kwAwait, kwNone, kwTrue, kwFalse:
		return true
	}
	return false
}

func (p *parser) starExpression() ast.Expr {
	if p.kind() == tStar {
		start := p.p
		p.next()
		v := p.bitwiseOr()
		return &ast.Starred{Attrs: p.span(start), Value: v, Ctx: ast.Load}
	}
	return p.expression()
}

func (p *parser) starNamedExpression() ast.Expr {
	if p.kind() == tStar {
		start := p.p
		p.next()
		v := p.bitwiseOr()
		return &ast.Starred{Attrs: p.span(start), Value: v, Ctx: ast.Load}
	}
	return p.namedExpression()
}

func (p *parser) namedExpression() ast.Expr {
	if p.kind() == tName && p.peekKind(1) == tColonEqual {
		start := p.p
		n, i := p.name()
		target := p.newName(p.tokAttrs(i), n, ast.Store)
		p.next()
		v := p.expression()
		return &ast.NamedExpr{Attrs: p.span(start), Target: target, Value: v}
	}
	start := p.p
	e := p.expression()
	if p.kind() == tColonEqual {
		p.errorAtNode(e, "cannot use assignment expressions with "+exprDesc(e))
	}
	if p.kind() == tEqual && !p.noInvalid {
		p.invalidNamedAssign(start, e)
	}
	return e
}

// invalidNamedAssign reports `a = b` where a named expression was
// expected (`if x = 1:`) at a, as CPython's invalid_named_expression does:
// a must be a NAME or, unless it starts with a list, tuple, generator or
// True/None/False, a bitwise_or; b a bitwise_or not followed by '=' or ':='.
// It returns, having restored the position, when the rule does not apply.
func (p *parser) invalidNamedAssign(start int, a ast.Expr) {
	if p.lastTok().ecol != a.Attributes().EndColOffset || p.lastTok().eline != a.Attributes().EndLineno {
		// a is parenthesized as a whole: an atom, still a bitwise_or.
		a = nil
	}
	isName := false
	switch n := a.(type) {
	case nil:
	case *ast.Name:
		isName = p.p == start+1
	case *ast.Compare, *ast.BoolOp, *ast.Lambda, *ast.IfExp, *ast.NamedExpr:
		return
	case *ast.UnaryOp:
		if n.Op == ast.Not {
			return
		}
	}
	if !isName {
		switch p.toks[start].kind {
		case kwTrue, kwNone, kwFalse:
			return
		case tLParen, tLBrack:
			switch leftmost(a).(type) {
			case *ast.Tuple, *ast.List, *ast.GeneratorExp:
				return
			}
		}
	}
	save, far := p.p, p.furthest
	p.next()
	if p.attempt(func() { p.bitwiseOr() }) && p.kind() != tEqual && p.kind() != tColonEqual {
		if isName {
			p.errorAt(start, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?")
		}
		if a == nil {
			p.errorAt(start, "cannot assign to expression here. Maybe you meant '==' instead of '='?")
		}
		p.errorAtNode(a, "cannot assign to "+exprDesc(a)+" here. Maybe you meant '==' instead of '='?")
	}
	p.reached = max(p.reached, p.furthest)
	p.p, p.furthest = save, far
}

// leftmost returns the innermost node that starts where e starts, following
// left operands, values of trailers and called functions.
func leftmost(e ast.Expr) ast.Expr {
	for {
		switch n := e.(type) {
		case *ast.BinOp:
			e = n.Left
		case *ast.Attribute:
			e = n.Value
		case *ast.Subscript:
			e = n.Value
		case *ast.Call:
			e = n.Func
		default:
			return e
		}
	}
}

// withoutInvalid runs f with the specific-error checks off.
func (p *parser) withoutInvalid(f func()) {
	old := p.noInvalid
	p.noInvalid = true
	defer func() { p.noInvalid = old }()
	f()
}

// attempt runs f and reports whether it returned without a syntax error;
// the parse position is left where f stopped.
func (p *parser) attempt(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isB := r.(bailout); !isB {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

// legacyCall reports Python 2's `print x` / `exec x` at the name, as
// CPython's invalid_legacy_expression does, if the rest parses as
// star_expressions.
func (p *parser) legacyCall(a *ast.Name) {
	if p.kind() == tLParen {
		return
	}
	save, far := p.p, p.furthest
	p.noInvalid = true
	ok := p.attempt(func() { p.starExpressions() })
	p.noInvalid = false
	if ok {
		p.errorAtNode(a, "Missing parentheses in call to '"+a.Id+"'. Did you mean "+a.Id+"(...)?")
	}
	p.reached = max(p.reached, p.furthest)
	p.p, p.furthest = save, far
}

// forgotComma reports two expressions in a row inside brackets at the
// first, as CPython's invalid_expression does ("Perhaps you forgot a
// comma?"), unless a is a legacy print/exec or starts with NAME STRING or a
// soft keyword. It returns, having restored the position, otherwise.
func (p *parser) forgotComma(start int, a ast.Expr) {
	if n, ok := a.(*ast.Name); ok && (n.Id == "print" || n.Id == "exec") {
		p.legacyCall(n)
		return
	}
	if p.toks[start].kind == tName && (p.toks[start+1].kind == tString ||
		p.isName(start, "match") || p.isName(start, "case") || p.isName(start, "_")) {
		return
	}
	save, far := p.p, p.furthest
	p.noInvalid = true
	ok := p.attempt(func() { p.expression() })
	p.noInvalid = false
	if ok && p.toks[p.p-1].level > 0 {
		p.errorAtNode(a, "invalid syntax. Perhaps you forgot a comma?")
	}
	p.reached = max(p.reached, p.furthest)
	p.p, p.furthest = save, far
}

// Kinds for the fast paths of expression: a simple atom, a token that can
// start a primary (not a prefix operator, await or lambda), and a token
// after which an expression ends (no operator, no `if`, no start of another
// expression).
var (
	simpleAtom    = kindSet(tName, tNumber, tString, kwNone, kwTrue, kwFalse)
	startsPrimary = kindSet(tName, tNumber, tString, kwNone, kwTrue, kwFalse, tEllipsis, tLParen, tLBrack, tLBrace)
	endsExpr      = kindSet(tComma, tRParen, tRBrack, tRBrace, tNewline, tEqual, tColon, tSemi)
)

// fastPaths turns the fast paths of expression on; the tests turn them off
// to compare with the plain descent.
var fastPaths = true

func (p *parser) expression() ast.Expr {
	// Fast path: a lone name, number or string followed by a token that
	// ends the expression is just that atom.
	if fastPaths && simpleAtom[p.kind()] && endsExpr[p.peekKind(1)] {
		if p.depth+1 > maxDepth {
			p.tooDeep()
		}
		return p.atom()
	}
	p.enter()
	defer p.leave()
	if p.kind() == kwLambda {
		return p.lambdef()
	}
	start := p.p
	if fastPaths && startsPrimary[p.kind()] {
		// Fast path: the primary (an atom with its trailers) that every
		// level of the descent below would reach first; if no operator
		// follows, it is the expression, else the descent takes it as the
		// first operand (see pending).
		e := p.primary()
		if endsExpr[p.kind()] {
			return e
		}
		p.pending, p.pendingStart = e, start
	}
	e := p.disjunction()
	if p.kind() == kwIf {
		ifPos := p.p
		p.next()
		test := p.disjunction()
		if p.kind() != kwElse && p.noInvalid {
			// Without the invalid_ rules (expression_without_invalid),
			// CPython's expression falls back to the disjunction alone.
			p.p = ifPos
			return e
		}
		if p.kind() != kwElse {
			if p.kind() != tColon {
				// CPython points at the body (invalid_expression).
				p.errorAtNode(e, "expected 'else' after 'if' expression")
			}
			p.syntaxError()
		}
		p.next()
		orelse := p.expression()
		return &ast.IfExp{Attrs: p.span(start), Test: test, Body: e, Orelse: orelse}
	}
	if !p.noInvalid && p.startsExpr() {
		p.forgotComma(start, e)
	}
	return e
}

func (p *parser) lambdef() ast.Expr {
	// CPython's rule stack is two levels deeper for a lambda body.
	if p.depth+3 > maxDepth {
		p.tooDeep()
	}
	start := p.p
	p.next()
	args := p.parameters(true)
	p.expect(tColon)
	body := p.expression()
	return &ast.Lambda{Attrs: p.span(start), Args: args, Body: body}
}

// exprStart is the first token of the expression being parsed: that of the
// pending primary if there is one.
func (p *parser) exprStart() int {
	if p.pending != nil {
		return p.pendingStart
	}
	return p.p
}

func (p *parser) disjunction() ast.Expr {
	start := p.exprStart()
	e := p.conjunction()
	if p.kind() != kwOr {
		return e
	}
	vals := []ast.Expr{e}
	for p.got(kwOr) {
		vals = append(vals, p.conjunction())
	}
	return &ast.BoolOp{Attrs: p.span(start), Op: ast.Or, Values: vals}
}

func (p *parser) conjunction() ast.Expr {
	start := p.exprStart()
	e := p.inversion()
	if p.kind() != kwAnd {
		return e
	}
	vals := []ast.Expr{e}
	for p.got(kwAnd) {
		vals = append(vals, p.inversion())
	}
	return &ast.BoolOp{Attrs: p.span(start), Op: ast.And, Values: vals}
}

func (p *parser) inversion() ast.Expr {
	if p.kind() == kwNot && p.pending == nil {
		p.enter()
		defer p.leave()
		start := p.p
		p.next()
		v := p.inversion()
		return &ast.UnaryOp{Attrs: p.span(start), Op: ast.Not, Operand: v}
	}
	return p.comparison()
}

func (p *parser) compOp() (ast.CmpOperator, bool) {
	switch p.kind() {
	case tEqEqual:
		return ast.Eq, true
	case tNotEqual:
		return ast.NotEq, true
	case tLess:
		return ast.Lt, true
	case tLessEqual:
		return ast.LtE, true
	case tGreater:
		return ast.Gt, true
	case tGreaterEqual:
		return ast.GtE, true
	case kwIn:
		return ast.In, true
	case kwIs:
		if p.peekKind(1) == kwNot {
			p.next()
			return ast.IsNot, true
		}
		return ast.Is, true
	case kwNot:
		if p.peekKind(1) == kwIn {
			p.next()
			return ast.NotIn, true
		}
	}
	return 0, false
}

type compareAlloc struct {
	c     ast.Compare
	ops   [1]ast.CmpOperator
	comps [1]ast.Expr
}

func (p *parser) comparison() ast.Expr {
	start := p.exprStart()
	e := p.bitwiseOr()
	op, ok := p.compOp()
	if !ok {
		return e
	}
	// One allocation for the usual single comparison: the node with its
	// one-element lists (a longer chain reallocates them).
	ca := &compareAlloc{}
	c := &ca.c
	c.Left = e
	c.Ops, c.Comparators = ca.ops[:0:1], ca.comps[:0:1]
	for ok {
		p.next()
		c.Ops = append(c.Ops, op)
		r := p.bitwiseOr()
		c.Comparators = append(c.Comparators, r)
		op, ok = p.compOp()
	}
	c.Attrs = p.span(start)
	return c
}

// binary operator precedence levels, loosest first.
const (
	lvlOr = iota
	lvlXor
	lvlAnd
	lvlShift
	lvlSum
	lvlTerm
	lvlFactor
)

// binOpInfo gives the operator and precedence level of a binary operator token.
func binOpInfo(k tokKind) (ast.Operator, int, bool) {
	switch k {
	case tVBar:
		return ast.BitOr, lvlOr, true
	case tCircumflex:
		return ast.BitXor, lvlXor, true
	case tAmper:
		return ast.BitAnd, lvlAnd, true
	case tLShift:
		return ast.LShift, lvlShift, true
	case tRShift:
		return ast.RShift, lvlShift, true
	case tPlus:
		return ast.Add, lvlSum, true
	case tMinus:
		return ast.Sub, lvlSum, true
	case tStar:
		return ast.Mult, lvlTerm, true
	case tSlash:
		return ast.Div, lvlTerm, true
	case tDoubleSlash:
		return ast.FloorDiv, lvlTerm, true
	case tPercent:
		return ast.Mod, lvlTerm, true
	case tAt:
		return ast.MatMult, lvlTerm, true
	}
	return 0, 0, false
}

func (p *parser) bitwiseOr() ast.Expr { return p.binary(lvlOr) }

// binary parses left-associative binary operators of precedence level
// minLevel or tighter (precedence climbing).
func (p *parser) binary(minLevel int) ast.Expr {
	start := p.exprStart()
	e := p.factor()
	for n := 1; ; n++ {
		op, lvl, ok := binOpInfo(p.kind())
		if !ok || lvl < minLevel {
			p.chain(n)
			return e
		}
		p.next()
		r := p.binary(lvl + 1)
		b := p.binops.new()
		b.Attrs, b.Left, b.Op, b.Right = p.span(start), e, op, r
		e = b
	}
}

func (p *parser) factor() ast.Expr {
	if p.pending != nil {
		return p.power()
	}
	var op ast.UnaryOperator
	switch p.kind() {
	case tPlus:
		op = ast.UAdd
	case tMinus:
		op = ast.USub
	case tTilde:
		op = ast.Invert
	default:
		return p.power()
	}
	p.enter()
	defer p.leave()
	start := p.p
	p.next()
	v := p.factor()
	return &ast.UnaryOp{Attrs: p.span(start), Op: op, Operand: v}
}

func (p *parser) power() ast.Expr {
	start := p.exprStart()
	var e ast.Expr
	if p.pending != nil {
		e, p.pending = p.pending, nil
	} else if p.kind() == kwAwait {
		p.next()
		v := p.primary()
		e = &ast.Await{Attrs: p.span(start), Value: v}
	} else {
		e = p.primary()
	}
	if p.kind() == tDoubleStar {
		p.next()
		p.enter()
		if p.depth+2 > maxDepth {
			p.tooDeep()
		}
		r := p.factor()
		p.leave()
		return &ast.BinOp{Attrs: p.span(start), Left: e, Op: ast.Pow, Right: r}
	}
	return e
}

func (p *parser) primary() ast.Expr {
	start := p.p
	e := p.atom()
	for n := 1; ; n++ {
		switch p.kind() {
		case tDot:
			p.next()
			n, _ := p.name()
			a := p.attrSlab.new()
			a.Attrs, a.Value, a.Attr = p.span(start), e, n
			e = a
		case tLParen:
			open := p.p
			p.next()
			args, kws := p.callArgs(open)
			p.expect(tRParen)
			c := p.callSlab.new()
			c.Attrs, c.Func, c.Args, c.Keywords = p.span(start), e, args, kws
			e = c
		case tLBrack:
			p.next()
			s := p.slices()
			p.expect(tRBrack)
			e = &ast.Subscript{Attrs: p.span(start), Value: e, Slice: s, Ctx: ast.Load}
		default:
			p.chain(n)
			return e
		}
	}
}

func (p *parser) slices() ast.Expr {
	start := p.p
	first := p.sliceItem()
	if p.kind() != tComma {
		if _, ok := first.(*ast.Starred); ok {
			return &ast.Tuple{Attrs: p.span(start), Elts: []ast.Expr{first}, Ctx: ast.Load}
		}
		return first
	}
	elts := []ast.Expr{first}
	for p.got(tComma) {
		if p.kind() == tRBrack {
			break
		}
		elts = append(elts, p.sliceItem())
	}
	return &ast.Tuple{Attrs: p.span(start), Elts: elts, Ctx: ast.Load}
}

func (p *parser) sliceItem() ast.Expr {
	start := p.p
	if p.kind() == tStar {
		// starred_expression: '*' expression
		p.next()
		v := p.expression()
		return &ast.Starred{Attrs: p.span(start), Value: v, Ctx: ast.Load}
	}
	var lower ast.Expr
	if p.kind() != tColon {
		lower = p.namedExpression()
		if p.kind() != tColon {
			return lower
		}
		if _, ok := lower.(*ast.NamedExpr); ok && p.toks[start].kind != tLParen {
			p.syntaxError()
		}
	}
	p.next() // ':'
	s := &ast.Slice{Lower: lower}
	if p.kind() != tColon && p.kind() != tComma && p.kind() != tRBrack {
		s.Upper = p.expression()
	}
	if p.got(tColon) {
		if p.kind() != tComma && p.kind() != tRBrack {
			s.Step = p.expression()
		}
	}
	s.Attrs = p.span(start)
	return s
}

// popExprs returns the expressions pushed on p.exprStack since base as an
// exact-size list and pops them.
func (p *parser) popExprs(base int) []ast.Expr {
	out := make([]ast.Expr, len(p.exprStack)-base)
	copy(out, p.exprStack[base:])
	clear(p.exprStack[base:])
	p.exprStack = p.exprStack[:base]
	return out
}

// callArgs parses call arguments up to (not including) ')'. open is the
// index of the '(' token (for the span of a sole generator argument), or -1
// for class bases.
func (p *parser) callArgs(open int) ([]ast.Expr, []*ast.Keyword) {
	base := len(p.exprStack)
	defer func() {
		clear(p.exprStack[base:])
		p.exprStack = p.exprStack[:base]
	}()
	kwBase := len(p.kwStack)
	defer func() {
		clear(p.kwStack[kwBase:])
		p.kwStack = p.kwStack[:kwBase]
	}()
	sawKw, sawDStar := false, false
	pending := ""
	n := 0
	for p.kind() != tRParen {
		start := p.p
		switch {
		case p.kind() == tStar:
			p.next()
			v := p.expression()
			if sawDStar {
				p.errorAt(start, "iterable argument unpacking follows keyword argument unpacking")
			}
			p.exprStack = append(p.exprStack, &ast.Starred{Attrs: p.span(start), Value: v, Ctx: ast.Load})
		case p.kind() == tDoubleStar:
			p.next()
			v := p.expression()
			k := p.kwSlab.new()
			k.Attrs, k.Value = p.span(start), v
			p.kwStack = append(p.kwStack, k)
			sawDStar = true
		case p.kind() == tName && p.peekKind(1) == tEqual:
			nm, _ := p.name()
			p.next()
			v := p.expression()
			k := p.kwSlab.new()
			sp := p.strSlab.new()
			*sp = nm
			k.Attrs, k.Arg, k.Value = p.span(start), sp, v
			p.kwStack = append(p.kwStack, k)
			sawKw = true
		default:
			e := p.namedExpression()
			if p.kind() == kwFor || p.kind() == kwAsync && p.peekKind(1) == kwFor {
				gens := p.comprehensions()
				if n == 0 && p.kind() == tRParen && open >= 0 {
					return []ast.Expr{&ast.GeneratorExp{Attrs: p.spanTo(open, p.p), Elt: e, Generators: gens}}, nil
				}
				p.errorAt(start, "Generator expression must be parenthesized")
			}
			if p.kind() == tEqual {
				p.errorAtNode(e, "expression cannot contain assignment, perhaps you meant \"==\"?")
			}
			// CPython finds these after parsing all the arguments
			// (invalid_arguments) and reports them at the furthest token.
			if pending == "" && sawDStar {
				pending = "positional argument follows keyword argument unpacking"
			} else if pending == "" && sawKw {
				pending = "positional argument follows keyword argument"
			}
			p.exprStack = append(p.exprStack, e)
		}
		n++
		if !p.got(tComma) {
			break
		}
	}
	if pending != "" {
		p.errorAt(max(p.p, p.furthest), pending)
	}
	if p.kind() != tRParen {
		p.syntaxError()
	}
	var kws []*ast.Keyword
	if len(p.kwStack) > kwBase {
		kws = p.kwLists.copyOf(p.kwStack[kwBase:])
	}
	var args []ast.Expr
	if len(p.exprStack) > base {
		args = p.argLists.copyOf(p.exprStack[base:])
	}
	return args, kws
}

// spanTo gives the span from token s to token e inclusive.
func (p *parser) spanTo(s, e int) ast.Attrs {
	a, b := &p.toks[s], &p.toks[e]
	return ast.Attrs{Lineno: a.line, ColOffset: a.col, EndLineno: b.eline, EndColOffset: b.ecol}
}

func (p *parser) comprehensions() []*ast.Comprehension {
	var gens []*ast.Comprehension
	for p.kind() == kwFor || p.kind() == kwAsync && p.peekKind(1) == kwFor {
		c := &ast.Comprehension{}
		if p.got(kwAsync) {
			c.IsAsync = 1
		}
		p.next()
		c.Target = p.starTargets()
		p.expect(kwIn)
		c.Iter = p.disjunction()
		for p.kind() == kwIf {
			p.next()
			c.Ifs = append(c.Ifs, p.disjunction())
		}
		if c.Ifs == nil {
			c.Ifs = []ast.Expr{}
		}
		gens = append(gens, c)
	}
	return gens
}

func (p *parser) yieldExpr() ast.Expr {
	start := p.p
	p.next()
	if p.got(kwFrom) {
		v := p.expression()
		return &ast.YieldFrom{Attrs: p.span(start), Value: v}
	}
	var v ast.Expr
	if p.startsExpr() {
		v = p.starExpressions()
	}
	return &ast.Yield{Attrs: p.span(start), Value: v}
}

func (p *parser) atom() ast.Expr {
	start := p.p
	switch p.kind() {
	case tName:
		n, i := p.name()
		return p.newName(p.tokAttrs(i), n, ast.Load)
	case kwTrue:
		p.next()
		return p.newConst(p.tokAttrs(start), true)
	case kwFalse:
		p.next()
		return p.newConst(p.tokAttrs(start), false)
	case kwNone:
		p.next()
		return p.newConst(p.tokAttrs(start), nil)
	case tEllipsis:
		p.next()
		return p.newConst(p.tokAttrs(start), ast.Ellipsis{})
	case tNumber:
		p.next()
		return p.newConst(p.tokAttrs(start), p.number(start))
	case tString:
		return p.strings()
	case tLParen:
		return p.parenAtom()
	case tLBrack:
		return p.listAtom()
	case tLBrace:
		return p.braceAtom()
	}
	p.syntaxError()
	return nil
}

func (p *parser) isCompFor() bool {
	return p.kind() == kwFor || p.kind() == kwAsync && p.peekKind(1) == kwFor
}

func (p *parser) parenAtom() ast.Expr {
	start := p.p
	p.next()
	if p.got(tRParen) {
		return &ast.Tuple{Attrs: p.span(start), Elts: []ast.Expr{}, Ctx: ast.Load}
	}
	if p.kind() == kwYield {
		e := p.yieldExpr()
		p.expect(tRParen)
		return e
	}
	first := p.starNamedExpression()
	if p.isCompFor() {
		if _, ok := first.(*ast.Starred); ok {
			p.errorAtNode(first, "iterable unpacking cannot be used in comprehension")
		}
		gens := p.comprehensions()
		p.expect(tRParen)
		return &ast.GeneratorExp{Attrs: p.span(start), Elt: first, Generators: gens}
	}
	if p.got(tRParen) {
		if _, ok := first.(*ast.Starred); ok {
			p.errorAtNode(first, "cannot use starred expression here")
		}
		return first
	}
	if p.kind() != tComma {
		p.syntaxError()
	}
	base := len(p.exprStack)
	p.exprStack = append(p.exprStack, first)
	for p.got(tComma) {
		if p.kind() == tRParen {
			break
		}
		e := p.starNamedExpression()
		p.exprStack = append(p.exprStack, e)
	}
	elts := p.popExprs(base)
	p.expect(tRParen)
	return &ast.Tuple{Attrs: p.span(start), Elts: elts, Ctx: ast.Load}
}

func (p *parser) listAtom() ast.Expr {
	start := p.p
	p.next()
	if p.got(tRBrack) {
		return &ast.List{Attrs: p.span(start), Elts: []ast.Expr{}, Ctx: ast.Load}
	}
	first := p.starNamedExpression()
	if p.isCompFor() {
		if _, ok := first.(*ast.Starred); ok {
			p.errorAtNode(first, "iterable unpacking cannot be used in comprehension")
		}
		gens := p.comprehensions()
		p.expect(tRBrack)
		return &ast.ListComp{Attrs: p.span(start), Elt: first, Generators: gens}
	}
	base := len(p.exprStack)
	p.exprStack = append(p.exprStack, first)
	for p.got(tComma) {
		if p.kind() == tRBrack {
			break
		}
		e := p.starNamedExpression()
		p.exprStack = append(p.exprStack, e)
	}
	elts := p.popExprs(base)
	p.expect(tRBrack)
	return &ast.List{Attrs: p.span(start), Elts: elts, Ctx: ast.Load}
}

func (p *parser) braceAtom() ast.Expr {
	start := p.p
	p.next()
	if p.got(tRBrace) {
		return &ast.Dict{Attrs: p.span(start), Keys: []ast.Expr{}, Values: []ast.Expr{}}
	}
	if p.kind() == tDoubleStar {
		return p.dictRest(start, nil, nil)
	}
	keyStart := p.p
	first := p.starNamedExpression()
	if p.kind() == tColon {
		if _, ok := first.(*ast.Starred); ok {
			p.syntaxError()
		}
		if _, ok := first.(*ast.NamedExpr); ok && p.toks[keyStart].kind == tName {
			p.syntaxError()
		}
		p.next()
		p.emptyDictValue()
		v := p.expression()
		if p.isCompFor() {
			gens := p.comprehensions()
			p.expect(tRBrace)
			return &ast.DictComp{Attrs: p.span(start), Key: first, Value: v, Generators: gens}
		}
		return p.dictRest(start, first, v)
	}
	// set
	if p.isCompFor() {
		if _, ok := first.(*ast.Starred); ok {
			p.errorAtNode(first, "iterable unpacking cannot be used in comprehension")
		}
		gens := p.comprehensions()
		p.expect(tRBrace)
		return &ast.SetComp{Attrs: p.span(start), Elt: first, Generators: gens}
	}
	elts := []ast.Expr{first}
	for p.got(tComma) {
		if p.kind() == tRBrace {
			break
		}
		elts = append(elts, p.starNamedExpression())
	}
	p.expect(tRBrace)
	return &ast.Set{Attrs: p.span(start), Elts: elts}
}

// emptyDictValue reports a missing dict value (`{k: }`, `{k: , ...}`) at
// the ':' just consumed, as CPython's invalid_kvpair does.
func (p *parser) emptyDictValue() {
	if k := p.kind(); k == tRBrace || k == tComma {
		p.errorAt(p.p-1, "expression expected after dictionary key and ':'")
	}
}

// dictRest parses the remaining dict items; key/value is the first item
// already parsed (nil key with nil value means none).
func (p *parser) dictRest(start int, key, value ast.Expr) ast.Expr {
	d := &ast.Dict{Keys: []ast.Expr{}, Values: []ast.Expr{}}
	if value != nil {
		d.Keys = append(d.Keys, key)
		d.Values = append(d.Values, value)
		if !p.got(tComma) {
			p.expect(tRBrace)
			d.Attrs = p.span(start)
			return d
		}
	}
	for p.kind() != tRBrace {
		if p.got(tDoubleStar) {
			d.Keys = append(d.Keys, nil)
			d.Values = append(d.Values, p.bitwiseOr())
		} else {
			// Two expressions in a row here are "':' expected" in CPython
			// (invalid_kvpair), not a forgotten comma.
			var k ast.Expr
			p.withoutInvalid(func() { k = p.expression() })
			if p.kind() != tColon {
				// CPython's invalid_kvpair points at the key's last character.
				a := k.Attributes()
				panic(bailout{err: &Error{p.filename, int(a.EndLineno), int(max(a.EndColOffset-1, 0)), "':' expected after dictionary key"}})
			}
			p.next()
			p.emptyDictValue()
			d.Keys = append(d.Keys, k)
			d.Values = append(d.Values, p.expression())
		}
		if !p.got(tComma) {
			break
		}
	}
	p.expect(tRBrace)
	d.Attrs = p.span(start)
	return d
}

// ---------------------------------------------------------------------------
// targets

// starTargets parses star_targets (for loops, comprehensions): targets are
// primaries, possibly starred, separated by commas.
func (p *parser) starTargets() ast.Expr {
	start := p.p
	t := p.starTarget()
	if p.kind() != tComma {
		return t
	}
	elts := []ast.Expr{t}
	for p.got(tComma) {
		if p.kind() == kwIn || p.kind() == tEqual || !p.startsExpr() {
			break
		}
		elts = append(elts, p.starTarget())
	}
	return &ast.Tuple{Attrs: p.span(start), Elts: elts, Ctx: ast.Store}
}

func (p *parser) starTarget() ast.Expr {
	if p.kind() == tStar {
		start := p.p
		p.next()
		if p.kind() == tStar {
			p.syntaxError()
		}
		v := p.starTarget()
		s := &ast.Starred{Attrs: p.span(start), Value: v, Ctx: ast.Store}
		p.setCtx(v, ast.Store)
		return s
	}
	t := p.targetAtom()
	p.setCtx(t, ast.Store)
	return t
}

// targetAtom parses a primary to be used as an assignment/del target.
func (p *parser) targetAtom() ast.Expr {
	return p.primary()
}

// setCtx validates e as a target and sets its context.
func (p *parser) setCtx(e ast.Expr, ctx ast.ExprContext) {
	switch t := e.(type) {
	case *ast.Name:
		t.Ctx = ctx
	case *ast.Attribute:
		t.Ctx = ctx
	case *ast.Subscript:
		t.Ctx = ctx
	case *ast.Starred:
		if ctx == ast.Del {
			p.errorAtNode(e, "cannot delete starred")
		}
		t.Ctx = ctx
		p.setCtx(t.Value, ctx)
	case *ast.Tuple:
		t.Ctx = ctx
		for _, x := range t.Elts {
			p.setCtx(x, ctx)
		}
	case *ast.List:
		t.Ctx = ctx
		for _, x := range t.Elts {
			p.setCtx(x, ctx)
		}
	default:
		verb := "assign to"
		if ctx == ast.Del {
			verb = "delete"
		}
		p.errorAtNode(e, "cannot "+verb+" "+exprDesc(e))
	}
}

func exprDesc(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Constant:
		switch t.Value {
		case nil:
			return "None"
		case true:
			return "True"
		case false:
			return "False"
		}
		if _, ok := t.Value.(ast.Ellipsis); ok {
			return "ellipsis"
		}
		return "literal"
	case *ast.Call:
		return "function call"
	case *ast.Compare:
		return "comparison"
	case *ast.BinOp, *ast.UnaryOp, *ast.BoolOp:
		return "expression"
	case *ast.Lambda:
		return "lambda"
	case *ast.IfExp:
		return "conditional expression"
	case *ast.NamedExpr:
		return "named expression"
	case *ast.Name:
		return "name"
	case *ast.Attribute:
		return "attribute"
	case *ast.Subscript:
		return "subscript"
	case *ast.Tuple:
		return "tuple"
	case *ast.List:
		return "list"
	case *ast.Starred:
		return "starred"
	case *ast.JoinedStr:
		return "f-string expression"
	case *ast.Dict, *ast.DictComp:
		return "dict literal"
	case *ast.Set, *ast.SetComp:
		return "set display"
	case *ast.GeneratorExp:
		return "generator expression"
	case *ast.ListComp:
		return "list comprehension"
	case *ast.Yield, *ast.YieldFrom:
		return "yield expression"
	case *ast.Await:
		return "await expression"
	}
	return "expression"
}

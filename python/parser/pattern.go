package parser

import "github.com/tilegym/tilegym-lint/python/ast"

// tryMatch parses a match statement if the current line is one; it returns
// nil (with the position restored) when `match` is an ordinary name.
func (p *parser) tryMatch() (s ast.Stmt) {
	save := p.p
	if !p.startsExprAt(p.p + 1) {
		return nil
	}
	start := p.p
	var subject ast.Expr
	ok := func() (ok bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, isB := r.(bailout); !isB {
					panic(r)
				}
				ok = false
			}
		}()
		p.next()
		subject = p.subjectExpr()
		if p.kind() != tColon || p.peekKind(1) != tNewline || p.peekKind(2) != tIndent || !p.isName(p.p+3, "case") {
			return false
		}
		return true
	}()
	if !ok {
		p.p = save
		return nil
	}
	p.next()
	p.next()
	p.next()
	var cases []*ast.MatchCase
	for p.kind() != tDedent && p.kind() != tEOF {
		if !p.isName(p.p, "case") {
			p.syntaxError()
		}
		p.next()
		c := &ast.MatchCase{Pattern: p.casePatterns()}
		if p.got(kwIf) {
			c.Guard = p.namedExpression()
		}
		c.Body = p.block()
		cases = append(cases, c)
	}
	p.expect(tDedent)
	return &ast.Match{Attrs: p.span(start), Subject: subject, Cases: cases}
}

func (p *parser) startsExprAt(i int) bool {
	save := p.p
	p.p = i
	ok := p.startsExpr()
	p.p = save
	return ok
}

func (p *parser) subjectExpr() ast.Expr {
	start := p.p
	first := p.starNamedExpression()
	if p.kind() != tComma {
		if _, ok := first.(*ast.Starred); ok {
			p.syntaxError()
		}
		return first
	}
	elts := []ast.Expr{first}
	for p.got(tComma) {
		if p.kind() == tColon {
			break
		}
		elts = append(elts, p.starNamedExpression())
	}
	return &ast.Tuple{Attrs: p.span(start), Elts: elts, Ctx: ast.Load}
}

func (p *parser) casePatterns() ast.Pattern {
	start := p.p
	pat := p.maybeStarPattern()
	if p.kind() != tComma {
		if _, ok := pat.(*ast.MatchStar); ok {
			p.syntaxError()
		}
		return pat
	}
	pats := []ast.Pattern{pat}
	for p.got(tComma) {
		if p.kind() == tColon || p.kind() == kwIf {
			break
		}
		pats = append(pats, p.maybeStarPattern())
	}
	return &ast.MatchSequence{Attrs: p.span(start), Patterns: pats}
}

func (p *parser) maybeStarPattern() ast.Pattern {
	if p.kind() == tStar {
		start := p.p
		p.next()
		n, _ := p.name()
		var name *string
		if n != "_" {
			name = &n
		}
		return &ast.MatchStar{Attrs: p.span(start), Name: name}
	}
	return p.pattern()
}

func (p *parser) pattern() ast.Pattern {
	p.enter()
	defer p.leave()
	start := p.p
	or := p.orPattern()
	if p.got(kwAs) {
		n, i := p.name()
		if n == "_" {
			p.errorAt(i, "cannot use '_' as a target")
		}
		if k := p.kind(); k == tDot || k == tLParen || k == tEqual {
			p.syntaxError()
		}
		return &ast.MatchAs{Attrs: p.span(start), Pattern: or, Name: &n}
	}
	return or
}

func (p *parser) orPattern() ast.Pattern {
	start := p.p
	first := p.closedPattern()
	if p.kind() != tVBar {
		return first
	}
	pats := []ast.Pattern{first}
	for p.got(tVBar) {
		pats = append(pats, p.closedPattern())
	}
	return &ast.MatchOr{Attrs: p.span(start), Patterns: pats}
}

func (p *parser) closedPattern() ast.Pattern {
	start := p.p
	switch p.kind() {
	case tNumber, tMinus, tString:
		v := p.literalExpr()
		return &ast.MatchValue{Attrs: p.span(start), Value: v}
	case kwNone, kwTrue, kwFalse:
		k := p.kind()
		p.next()
		var v any
		if k == kwTrue {
			v = true
		} else if k == kwFalse {
			v = false
		}
		return &ast.MatchSingleton{Attrs: p.span(start), Value: v}
	case tName:
		e := p.nameOrAttr()
		if p.kind() == tLParen {
			return p.classPattern(start, e)
		}
		if n, ok := e.(*ast.Name); ok {
			if k := p.kind(); k == tDot || k == tEqual {
				p.syntaxError()
			}
			if n.Id == "_" {
				return &ast.MatchAs{Attrs: p.span(start)}
			}
			id := n.Id
			return &ast.MatchAs{Attrs: p.span(start), Name: &id}
		}
		if k := p.kind(); k == tEqual {
			p.syntaxError()
		}
		return &ast.MatchValue{Attrs: p.span(start), Value: e}
	case tLParen:
		p.next()
		if p.got(tRParen) {
			return &ast.MatchSequence{Attrs: p.span(start), Patterns: []ast.Pattern{}}
		}
		first := p.maybeStarPattern()
		if p.got(tRParen) {
			if _, ok := first.(*ast.MatchStar); ok {
				p.syntaxError()
			}
			return first
		}
		if p.kind() != tComma {
			p.syntaxError()
		}
		pats := []ast.Pattern{first}
		for p.got(tComma) {
			if p.kind() == tRParen {
				break
			}
			pats = append(pats, p.maybeStarPattern())
		}
		p.expect(tRParen)
		return &ast.MatchSequence{Attrs: p.span(start), Patterns: pats}
	case tLBrack:
		p.next()
		pats := []ast.Pattern{}
		for p.kind() != tRBrack {
			pats = append(pats, p.maybeStarPattern())
			if !p.got(tComma) {
				break
			}
		}
		p.expect(tRBrack)
		return &ast.MatchSequence{Attrs: p.span(start), Patterns: pats}
	case tLBrace:
		return p.mappingPattern()
	}
	p.syntaxError()
	return nil
}

func (p *parser) nameOrAttr() ast.Expr {
	start := p.p
	n, i := p.name()
	var e ast.Expr = &ast.Name{Attrs: p.tokAttrs(i), Id: n, Ctx: ast.Load}
	for p.got(tDot) {
		a, _ := p.name()
		e = &ast.Attribute{Attrs: p.span(start), Value: e, Attr: a, Ctx: ast.Load}
	}
	return e
}

// signedNumber: NUMBER | '-' NUMBER
func (p *parser) signedNumber() ast.Expr {
	start := p.p
	neg := p.got(tMinus)
	if p.kind() != tNumber {
		p.syntaxError()
	}
	i := p.p
	p.next()
	var e ast.Expr = &ast.Constant{Attrs: p.tokAttrs(i), Value: p.number(i)}
	if neg {
		e = &ast.UnaryOp{Attrs: p.span(start), Op: ast.USub, Operand: e}
	}
	return e
}

func isImag(e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryOp); ok {
		e = u.Operand
	}
	c, ok := e.(*ast.Constant)
	if !ok {
		return false
	}
	_, ok = c.Value.(complex128)
	return ok
}

// literalExpr parses a number (possibly signed or complex) or strings.
func (p *parser) literalExpr() ast.Expr {
	start := p.p
	switch p.kind() {
	case tString:
		return p.strings()
	case kwNone:
		p.next()
		return &ast.Constant{Attrs: p.tokAttrs(start), Value: nil}
	case kwTrue:
		p.next()
		return &ast.Constant{Attrs: p.tokAttrs(start), Value: true}
	case kwFalse:
		p.next()
		return &ast.Constant{Attrs: p.tokAttrs(start), Value: false}
	}
	left := p.signedNumber()
	if p.kind() == tPlus || p.kind() == tMinus {
		op := ast.Add
		if p.kind() == tMinus {
			op = ast.Sub
		}
		if isImag(left) {
			p.errorAtNode(left, "real number required in complex literal")
		}
		p.next()
		if p.kind() != tNumber {
			p.syntaxError()
		}
		i := p.p
		p.next()
		right := &ast.Constant{Attrs: p.tokAttrs(i), Value: p.number(i)}
		if !isImag(right) {
			p.errorAtNode(right, "imaginary number required in complex literal")
		}
		return &ast.BinOp{Attrs: p.span(start), Left: left, Op: op, Right: right}
	}
	return left
}

func (p *parser) mappingPattern() ast.Pattern {
	start := p.p
	p.next()
	m := &ast.MatchMapping{Keys: []ast.Expr{}, Patterns: []ast.Pattern{}}
	for p.kind() != tRBrace {
		if p.got(tDoubleStar) {
			n, i := p.name()
			if n == "_" {
				p.errorAt(i, "invalid syntax")
			}
			m.Rest = &n
			p.got(tComma)
			if p.kind() != tRBrace {
				p.syntaxError()
			}
			break
		}
		var key ast.Expr
		if p.kind() == tName {
			key = p.nameOrAttr()
			if _, ok := key.(*ast.Name); ok {
				p.errorAtNode(key, "invalid syntax")
			}
		} else {
			key = p.literalExpr()
		}
		p.expect(tColon)
		m.Keys = append(m.Keys, key)
		m.Patterns = append(m.Patterns, p.pattern())
		if !p.got(tComma) {
			break
		}
	}
	p.expect(tRBrace)
	m.Attrs = p.span(start)
	return m
}

func (p *parser) classPattern(start int, cls ast.Expr) ast.Pattern {
	p.next() // (
	c := &ast.MatchClass{Cls: cls, Patterns: []ast.Pattern{}, KwdAttrs: []string{}, KwdPatterns: []ast.Pattern{}}
	for p.kind() != tRParen {
		if p.kind() == tName && p.peekKind(1) == tEqual {
			n, _ := p.name()
			p.next()
			c.KwdAttrs = append(c.KwdAttrs, n)
			c.KwdPatterns = append(c.KwdPatterns, p.pattern())
		} else {
			pat := p.pattern()
			if len(c.KwdAttrs) > 0 {
				p.errorAtNode(pat, "positional patterns follow keyword patterns")
			}
			c.Patterns = append(c.Patterns, pat)
		}
		if !p.got(tComma) {
			break
		}
	}
	p.expect(tRParen)
	c.Attrs = p.span(start)
	return c
}

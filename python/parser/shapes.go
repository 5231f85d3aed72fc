package parser

// shapes counts the token shapes the arena's slabs are sized from (see
// arena.presize), as the tokenizer emits the tokens: the tokenizer already
// knows what each token is, where a second pass over the tokens paid a
// mispredicted branch per token (a tenth of a parse). The counts are
// estimates: a miss costs only another chunk or some unused room, never a
// different tree. countShapes, in the tests, is the same count as a plain
// pass over the tokens; a test checks that both agree.
type shapes struct {
	names, attrs, calls, consts, kws, assigns, binops, args int
	exprStmts, callArgs, stmts, callKws                     int

	inImport bool // in an import statement: its names are aliases
	assigned bool // the statement has an '=' already
	// stmtStart: no token of the statement yet; exprLike: it starts like
	// an expression and has no '=', augmented assignment or annotation at
	// depth 0 (an expression statement).
	stmtStart, exprLike bool
	defDepth            int    // 1 + the paren depth outside a def's parameter list, 0 outside one
	callAt              uint64 // bit d: the brackets at depth d (1-63) are a call's
	// lastName: the last NAME was counted in names (a keyword argument's
	// name, once its '=' follows, is moved to kws).
	lastName bool
}

// startsExprStmt marks the kinds that start an expression statement.
var startsExprStmt = kindSet(tName, tString, tNumber, tLParen, tLBrack, tLBrace, kwAwait, kwYield, kwNone, kwTrue, kwFalse,
	tEllipsis, tMinus, tPlus, tTilde, kwNot, kwLambda, tStar)

// binaryOps marks the binary operators; endsOperand the kinds after which
// one is binary (not unary, not a star argument).
var (
	binaryOps   = kindSet(tPlus, tMinus, tStar, tSlash, tDoubleSlash, tPercent, tAt, tVBar, tAmper, tCircumflex, tLShift, tRShift, tDoubleStar)
	endsOperand = kindSet(tName, tNumber, tString, tRParen, tRBrack, tRBrace, kwNone, kwTrue, kwFalse, tEllipsis)
	// endsExprStmt marks what makes a statement not an expression
	// statement at depth 0: an annotation, a compound statement's ':',
	// an augmented assignment ('=' is handled with the assignments).
	endsExprStmt = kindSet(tColon, tPlusEqual, tMinEqual, tStarEqual, tSlashEqual, tPercentEqual, tAmperEqual, tVBarEqual,
		tCircumflexEqual, tLShiftEqual, tRShiftEqual, tDoubleStarEqual, tDoubleSlashEqual, tAtEqual)
)

func kindSet(ks ...tokKind) (m [256]bool) {
	for _, k := range ks {
		m[k] = true
	}
	return
}

func (s *shapes) init() {
	s.stmtStart = true
}

// token notes a token other than NEWLINE, INDENT and DEDENT for the
// statement's shape.
func (s *shapes) token(k tokKind) {
	if s.stmtStart {
		s.stmtStart, s.exprLike = false, startsExprStmt[k]
	}
}

// endStmt notes a NEWLINE or ';'.
func (s *shapes) endStmt() {
	s.inImport, s.assigned = false, false
	s.stmts++
	if s.exprLike {
		s.exprStmts++
	}
	s.stmtStart, s.exprLike = true, false
}

// name notes a NAME after prev at paren depth depth.
func (s *shapes) name(prev tokKind, depth int) {
	s.lastName = false
	switch {
	case s.inImport || prev == tDot || prev == kwDef || prev == kwClass:
	case s.defDepth > 0 && depth == s.defDepth && (prev == tLParen || prev == tComma || prev == tStar || prev == tDoubleStar):
		s.args++
	default:
		s.names++
		s.lastName = true
	}
}

// open notes an opening bracket k after prev2 prev; depth is the depth
// inside it.
func (s *shapes) open(k, prev, prev2 tokKind, depth int) {
	call := false
	if k == tLParen {
		switch prev {
		case tName:
			if prev2 == kwDef {
				s.defDepth = depth
			} else if prev2 != kwClass {
				call = true
			}
		case tRParen, tRBrack:
			call = true
		}
	}
	if depth < 64 {
		s.callAt &^= 1 << depth
		if call {
			s.callAt |= 1 << depth
		}
	}
	if call {
		s.calls++
		s.callArgs++ // taken back at once by ')' (no argument)
	}
}

// close notes a closing bracket after prev; depth is the depth inside it.
func (s *shapes) close(prev tokKind, depth int) {
	if (prev == tLParen || prev == tComma) && depth < 64 && s.callAt&(1<<depth) != 0 {
		s.callArgs-- // `f()`, or a trailing comma
	}
	if depth == s.defDepth {
		s.defDepth = 0
	}
}

// comma notes a ',' at depth depth.
func (s *shapes) comma(depth int) {
	if depth < 64 && s.callAt&(1<<depth) != 0 {
		s.callArgs++ // taken back by ')' after a trailing comma
	}
}

// equal notes a '=' after prev at depth depth.
func (s *shapes) equal(prev tokKind, depth int) {
	if depth == 0 {
		if !s.assigned {
			s.assigns++
			s.assigned = true
		}
		s.exprLike = false
		return
	}
	if prev == tName && s.lastName {
		// A keyword argument (or default): its name is not a Name node.
		s.names--
		s.kws++
		if depth < 64 && s.callAt&(1<<depth) != 0 {
			s.callArgs--
			s.callKws++
		}
	}
}

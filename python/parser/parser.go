package parser

import (
	"math/big"
	"runtime/debug"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// maxDepth bounds the recursion of the descent. CPython 3.11 rejects chains
// of about 2985 unary operators, lambdas or conditional expressions (its
// parser stack limit); brackets are limited to 200 levels by the tokenizer.
const maxDepth = 2986

// maxTreeDepth is the deepest tree CPython 3.11's ast.parse builds: it
// raises RecursionError ("maximum recursion depth exceeded during ast
// construction") beyond it, counting the Module as depth 1 (measured:
// `x = 1+1+...` with 2986 terms and `x = a.b.b...` with 2985 attributes are
// the longest accepted chains). Left-associative chains (binary operators,
// attribute/call/subscript trailers) are built by loops, not recursion, so
// maxDepth alone does not bound them; without this limit a long enough chain
// would give a tree too deep for any recursive walk of it.
const maxTreeDepth = 2988

type parser struct {
	filename string
	src      []byte
	srcStr   string // string(src)
	toks     []token
	p        int
	depth    int
	fdepth   int // f-string nesting of this parser
	// furthest is the index of the furthest token the parser has looked
	// at: CPython reports a generic syntax error there (pegen's last
	// token filled), not where the failing rule started.
	furthest int
	// noInvalid turns off the checks for specific errors that CPython makes
	// only in its invalid_ rules, while one of them parses a sub-expression.
	noInvalid bool
	// reached is the furthest token looked at by those checks, which
	// furthest does not count; CPython's tokenizer has read that far.
	reached int
	// fieldCursor makes the line count of f-string fields linear.
	fieldCursor fieldCursor
	// pending is a primary expression parsed ahead by expression's fast
	// path, starting at token pendingStart: the descent from disjunction
	// down to power takes it as its first operand (power consumes it).
	pending      ast.Expr
	pendingStart int

	*arena
}

// arena holds the slabs for the most frequent nodes of one parse: one
// allocation per chunk instead of one per node (a tree lives and dies as a
// whole). The f-string field parsers of a file share the file's arena. The
// slabs are never carried over to another parse: a chunk shared by two trees
// would keep the older tree alive, and through it the one before, and so on.
type arena struct {
	// peakDepth is the deepest recursion (depth) of the parse and
	// longestChain the longest run of one loop that deepens the tree (a
	// binary operator chain, a trailer chain, an elif chain): together they
	// bound the tree's depth, so that only files that could be too deep
	// are measured (see checkTreeDepth).
	peakDepth, longestChain int

	nameSlab  slab[ast.Name]
	attrSlab  slab[ast.Attribute]
	callSlab  slab[ast.Call]
	constSlab slab[ast.Constant]
	kwSlab    slab[ast.Keyword]
	strSlab   slab[string]
	assigns   slab[assignAlloc]
	binops    slab[ast.BinOp]
	exprStmts slab[ast.ExprStmt]
	argSlab   slab[ast.Arg]
	intSlab   slab[big.Int]
	wordSlab  slab[[1]big.Word]
	argLists  listSlab[ast.Expr]     // call arguments
	stmtLists listSlab[ast.Stmt]     // statement lists
	kwLists   listSlab[*ast.Keyword] // call keywords
	*scratch
}

// scratch holds the work buffers of a parse. They hold nothing of the tree
// once a parse is over (putScratch clears them), so unlike the slabs they are
// recycled from one parse to the next.
type scratch struct {
	exprStack []ast.Expr // scratch stacks for building exact-size lists
	stmtStack []ast.Stmt
	kwStack   []*ast.Keyword
	tokScratch
}

// scratches recycles scratch buffers between parses; like tokBufs it
// survives garbage collections and keeps only a few.
var scratches = make(chan *scratch, 4)

func getScratch() *scratch {
	select {
	case s := <-scratches:
		return s
	default:
		return new(scratch)
	}
}

// putScratch hands s back for the next parse, first clearing every pointer
// into the finished tree and its source. Every pop of a scratch stack clears
// what it pops, so only the entries below the current lengths (left by a
// bailout) may still be set. (The comment buffer is cleared by tokenizeWith.)
func putScratch(s *scratch) {
	clear(s.exprStack)
	s.exprStack = s.exprStack[:0]
	clear(s.stmtStack)
	s.stmtStack = s.stmtStack[:0]
	clear(s.kwStack)
	s.kwStack = s.kwStack[:0]
	select {
	case scratches <- s:
	default:
	}
}

// assignAlloc allocates an Assign together with its usual single target.
type assignAlloc struct {
	a       ast.Assign
	targets [1]ast.Expr
}

// newInt makes a small int constant value without separate allocations.
func (p *parser) newInt(v int64) *big.Int {
	if v >= 0 && v < int64(len(smallInts)) {
		return &smallInts[v]
	}
	if v < 0 || uint64(v) > uint64(^big.Word(0)) {
		return big.NewInt(v)
	}
	w := p.wordSlab.new()
	w[0] = big.Word(v)
	return p.intSlab.new().SetBits(w[:])
}

// slab hands out nodes from chunks that double in size (4 to 256).
type slab[T any] struct {
	buf  []T
	next int
}

func (s *slab[T]) new() *T {
	if len(s.buf) == 0 {
		if s.next < 4 {
			s.next = 4
		} else if s.next < 256 {
			s.next *= 2
		}
		s.buf = make([]T, s.next)
	}
	x := &s.buf[0]
	s.buf = s.buf[1:]
	return x
}

// reserve makes the next chunk n long (if n > 0); after it the chunks
// double from 4, so that an estimate a little short leaves little room
// unused at the end of the file.
func (s *slab[T]) reserve(n int) {
	if n > 0 {
		s.buf = make([]T, n)
		s.next = 2
	}
}

// listSlab hands out exact-size lists (len == cap, so appending to one
// reallocates) from one chunk, sized by presize; lists that no longer fit
// get their own allocation.
type listSlab[T any] struct {
	buf []T
}

func (s *listSlab[T]) reserve(n int) {
	if n > 0 {
		s.buf = make([]T, n)
	}
}

// copyOf returns an exact-size copy of x.
func (s *listSlab[T]) copyOf(x []T) []T {
	n := len(x)
	var out []T
	if n == 0 {
		return make([]T, 0) // not nil, like the make it replaces
	} else if n <= len(s.buf) {
		out = s.buf[:n:n]
		s.buf = s.buf[n:]
	} else {
		out = make([]T, n)
	}
	copy(out, x)
	return out
}

// presize sizes the first chunk of the most frequent slabs from the counts
// of token shapes the tokenizer made (see shapes), so that most files need
// one chunk per slab with little room left unused.
func (a *arena) presize(c *shapes) {
	a.nameSlab.reserve(c.names)
	a.attrSlab.reserve(c.attrs)
	a.callSlab.reserve(c.calls)
	a.constSlab.reserve(c.consts)
	a.kwSlab.reserve(c.kws)
	a.strSlab.reserve(c.kws)
	a.assigns.reserve(c.assigns)
	a.binops.reserve(c.binops)
	a.argSlab.reserve(c.args)
	a.exprStmts.reserve(c.exprStmts)
	a.argLists.reserve(c.callArgs)
	a.stmtLists.reserve(c.stmts)
	a.kwLists.reserve(c.callKws)
}

func (p *parser) newName(a ast.Attrs, id string, ctx ast.ExprContext) *ast.Name {
	n := p.nameSlab.new()
	n.Attrs, n.Id, n.Ctx = a, id, ctx
	return n
}

func (p *parser) newConst(a ast.Attrs, v any) *ast.Constant {
	c := p.constSlab.new()
	c.Attrs, c.Value = a, v
	return c
}

// tokBufs recycles token buffers between parses (tokens never escape a
// parse). Unlike a sync.Pool it is not emptied by every garbage collection,
// which matters because a parse allocates a lot; it keeps at most a few
// buffers of bounded size.
var tokBufs = make(chan []token, 4)

const maxKeptTokens = 1 << 18

// ParseFile parses one Python source file. src is the raw bytes of the file.
// The tree's identifiers, comments and plain string literals share src's
// memory (no second copy of the source is kept): the caller must not modify
// src once it is passed.
func ParseFile(filename string, src []byte) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f = nil
			if b, ok := r.(bailout); ok {
				err = b.err
				return
			}
			// Last line of defence: an internal bug must not crash callers.
			err = &Error{filename, 1, 0, "internal parser error: " + panicString(r) + "\n" + string(debug.Stack())}
		}
	}()
	text, e := decodeSource(filename, src)
	if e != nil {
		return nil, e
	}
	// The source as a string without a copy (text is src, or a decoded
	// copy only this parse holds; neither is modified): identifiers,
	// comments and plain string literals are substrings of it instead of
	// separate allocations, and a tree costs no second copy of its source.
	srcStr := unsafe.String(unsafe.SliceData(text), len(text))
	tz := &tokenizer{filename: filename, src: text, srcStr: srcStr}
	select {
	case b := <-tokBufs:
		tz.toks = b[:0]
	default:
	}
	if want := len(text)/5 + 16; cap(tz.toks) < want {
		tz.toks = make([]token, 0, want)
	}
	defer func() {
		if cap(tz.toks) <= maxKeptTokens {
			select {
			case tokBufs <- tz.toks:
			default:
			}
		}
	}()
	ar := &arena{scratch: getScratch()}
	defer putScratch(ar.scratch)
	comments, te := tokenizeFile(tz, &ar.tokScratch)
	ar.presize(&tz.shapes)
	p := &parser{filename: filename, src: text, srcStr: srcStr, toks: tz.toks, arena: ar}
	if te != nil {
		// The parse must fail: decide between its error and the
		// tokenizer's as CPython does.
		return nil, p.parseWithTokError(te)
	}
	mod := &ast.Module{Body: p.fileStmts(), TypeIgnores: []ast.TypeIgnore{}}
	p.checkTreeDepth(mod.Body)
	return &ast.File{Name: filename, Module: mod, Comments: comments}, nil
}

// tokError is an error of the file's tokenizer. CPython tokenizes lazily,
// so the error it reports depends on how far the parser gets; the tokens
// before the error are kept and a tError token marks where it stopped.
type tokError struct {
	err   *Error
	quiet bool // see failQuiet
	index int  // of the tError token
	// The innermost bracket open when the tokenizer stopped, if any.
	paren               byte
	parenLine, parenCol int
}

// tokenizeFile tokenizes the whole file. On a tokenizer error it returns
// the error, the tokens before it being followed by tError and tEOF.
func tokenizeFile(tz *tokenizer, s *tokScratch) (comments []ast.Comment, te *tokError) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		b, ok := r.(bailout)
		if !ok {
			panic(r)
		}
		te = &tokError{err: b.err, quiet: b.quiet, index: len(tz.toks)}
		if n := len(tz.parens); n > 0 {
			te.paren, te.parenLine, te.parenCol = tz.parens[n-1], tz.parenLines[n-1], tz.parenCols[n-1]
		}
		line, col := int32(b.err.Line), int32(b.err.Col)
		for _, k := range [...]tokKind{tError, tEOF} {
			tz.toks = append(tz.toks, token{kind: k, start: int32(tz.pos), end: int32(tz.pos), line: line, col: col, eline: line, ecol: col})
		}
		comments = nil
	}()
	return tz.tokenizeWith(s), nil
}

// parseWithTokError parses a file whose tokenizer failed and returns the
// error CPython 3.11 reports. If the parser reaches the tokenizer's error,
// that error. Otherwise the parser failed first; then CPython tokenizes the
// rest of the file (_PyPegen_tokenize_full_source_to_check_for_errors) and,
// unless the parse error is an indentation error found by the parser,
// reports the tokenizer's error if it is one that sets an exception, else a
// bracket still open at the tokenizer's error if it was opened on a line
// before that of the furthest token read, else the parse error.
func (p *parser) parseWithTokError(te *tokError) (err *Error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		b, ok := r.(bailout)
		if !ok {
			panic(r)
		}
		err = b.err
		reached := max(p.reached, p.furthest)
		if reached >= te.index {
			err = te.err
			return
		}
		if err.Msg == "unexpected indent" || err.Msg == "unexpected unindent" {
			return
		}
		if !te.quiet {
			err = te.err
		} else if te.paren != 0 && te.parenLine < int(p.toks[reached].line) {
			err = &Error{p.filename, te.parenLine, te.parenCol, "'" + string(te.paren) + "' was never closed"}
		}
	}()
	p.fileStmts()
	// Unreachable: the tError token matches no rule.
	return te.err
}

func panicString(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case string:
		return v
	}
	return "unknown panic"
}

// ---------------------------------------------------------------------------
// token helpers

func (p *parser) kind() tokKind { return p.toks[p.p].kind }

func (p *parser) peekKind(n int) tokKind {
	if p.p+n < len(p.toks) {
		p.furthest = max(p.furthest, p.p+n)
		return p.toks[p.p+n].kind
	}
	return tEOF
}

func (p *parser) next() {
	if p.p < len(p.toks)-1 {
		p.p++
		p.furthest = max(p.furthest, p.p)
	}
}

func (p *parser) isName(i int, s string) bool {
	t := &p.toks[i]
	return t.kind == tName && string(p.src[t.start:t.end]) == s
}

// errorAt reports an error at token i. CPython's INDENT and DEDENT tokens
// have no column: it reports the end of the indentation as a 1-based
// offset, one less than at a token there (and 0, which is 1 here, for no
// indentation).
func (p *parser) errorAt(i int, msg string) {
	t := &p.toks[i]
	col := int(t.col)
	if t.kind == tIndent || t.kind == tDedent {
		col = max(col-1, 0)
	}
	panic(bailout{err: &Error{p.filename, int(t.line), col, msg}})
}

func (p *parser) errorAtNode(n ast.Node, msg string) {
	a := n.Attributes()
	panic(bailout{err: &Error{p.filename, int(a.Lineno), int(a.ColOffset), msg}})
}

// syntaxError reports a generic syntax error at the furthest token looked
// at, as CPython does (_PyPegen_set_syntax_error).
func (p *parser) syntaxError() {
	i := max(p.p, p.furthest)
	t := &p.toks[i]
	switch t.kind {
	case tIndent:
		p.unexpectedIndent(i)
	case tDedent:
		p.errorAt(i, "unexpected unindent")
	case tEOF:
		p.errorAt(i, "unexpected EOF while parsing")
	}
	p.errorAt(i, "invalid syntax")
}

// unexpectedIndent reports an INDENT token.
func (p *parser) unexpectedIndent(i int) {
	p.errorAt(i, "unexpected indent")
}

func (p *parser) expect(k tokKind) {
	if p.kind() != k {
		if k == tIndent {
			p.errorAt(p.p, "expected an indented block")
		}
		if k == tColon {
			p.errorAt(p.p, "expected ':'")
		}
		p.syntaxError()
	}
	p.next()
}

func (p *parser) got(k tokKind) bool {
	if p.kind() == k {
		p.next()
		return true
	}
	return false
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.tooDeep()
	}
	if p.depth > p.peakDepth {
		p.peakDepth = p.depth
	}
}

// chain records a run of n iterations of a tree-deepening loop.
func (p *parser) chain(n int) {
	if n > p.longestChain {
		p.longestChain = n
	}
}

// checkTreeDepth rejects a tree deeper than maxTreeDepth, as CPython does.
// The tree is measured only when the parse's recursion depth and longest
// chain allow such depth: each recursion level adds at most a chain and a few
// nodes, and block nesting (at most 100 indentation levels) a few per level.
func (p *parser) checkTreeDepth(body []ast.Stmt) {
	if 300+(p.peakDepth+1)*(p.longestChain+4) <= maxTreeDepth {
		return
	}
	for _, s := range body {
		if n := deeperThan(s, 2, maxTreeDepth); n != nil {
			pos := n.Pos()
			panic(bailout{err: &Error{p.filename, pos.Line, pos.Col,
				"too complex: the syntax tree is nested deeper than " + strconv.Itoa(maxTreeDepth) + " levels"}})
		}
	}
}

// deeperThan returns a node of the tree rooted at n (which is at depth d)
// that lies deeper than limit, or nil. Its recursion is bounded by limit.
func deeperThan(n ast.Node, d, limit int) ast.Node {
	if d > limit {
		return n
	}
	var found ast.Node
	ast.Inspect(n, func(c ast.Node) bool {
		if c == n {
			return true
		}
		if found == nil {
			found = deeperThan(c, d+1, limit)
		}
		return false
	})
	return found
}

func (p *parser) tooDeep() {
	p.errorAt(p.p, "too complex: nesting exceeds the parser's limit")
}

func (p *parser) leave() { p.depth-- }

// lastTok is the last consumed token that is not NEWLINE/INDENT/DEDENT.
func (p *parser) lastTok() *token {
	i := p.p - 1
	for i > 0 {
		k := p.toks[i].kind
		if k != tNewline && k != tIndent && k != tDedent {
			break
		}
		i--
	}
	if i < 0 {
		i = 0
	}
	return &p.toks[i]
}

// span gives the attributes of a rule that started at token start and whose
// last token has just been consumed (CPython's EXTRA).
func (p *parser) span(start int) ast.Attrs {
	s := &p.toks[start]
	e := p.lastTok()
	return ast.Attrs{Lineno: s.line, ColOffset: s.col, EndLineno: e.eline, EndColOffset: e.ecol}
}

func (p *parser) tokAttrs(i int) ast.Attrs {
	t := &p.toks[i]
	return ast.Attrs{Lineno: t.line, ColOffset: t.col, EndLineno: t.eline, EndColOffset: t.ecol}
}

func (p *parser) name() (string, int) {
	if p.kind() != tName {
		p.syntaxError()
	}
	i := p.p
	p.next()
	return p.identifier(i), i
}

// identifier returns the NFKC-normalized text of a NAME token.
func (p *parser) identifier(i int) string {
	t := &p.toks[i]
	if t.nonASCII {
		return nfkc(p.srcStr[t.start:t.end])
	}
	return p.srcStr[t.start:t.end]
}

func strptr(s string) *string { return &s }

// ---------------------------------------------------------------------------
// statements

func (p *parser) fileStmts() []ast.Stmt {
	for p.kind() != tEOF {
		if p.kind() == tNewline {
			p.next()
			continue
		}
		p.statement()
	}
	return p.popStmts(0)
}

// popStmts returns the statements pushed since base as an exact-size slice.
func (p *parser) popStmts(base int) []ast.Stmt {
	out := p.stmtLists.copyOf(p.stmtStack[base:])
	clear(p.stmtStack[base:])
	p.stmtStack = p.stmtStack[:base]
	return out
}

// statement parses one statement (which may be several simple statements
// separated by semicolons) and pushes it on p.stmtStack.
func (p *parser) statement() {
	switch p.kind() {
	case kwDef, kwIf, kwClass, kwWith, kwFor, kwTry, kwWhile, tAt, kwAsync:
		s := p.compoundStmt()
		p.stmtStack = append(p.stmtStack, s)
		return
	case tName:
		if p.isName(p.p, "match") {
			if s := p.tryMatch(); s != nil {
				p.stmtStack = append(p.stmtStack, s)
				return
			}
		}
	case tIndent:
		p.unexpectedIndent(p.p)
	}
	p.simpleStmts()
}

func (p *parser) simpleStmts() {
	for {
		s := p.simpleStmt()
		p.stmtStack = append(p.stmtStack, s)
		if p.got(tSemi) {
			if p.kind() == tNewline {
				break
			}
			continue
		}
		break
	}
	if p.kind() != tNewline {
		p.syntaxError()
	}
	p.next()
}

func (p *parser) block() []ast.Stmt {
	p.expect(tColon)
	base := len(p.stmtStack)
	if p.kind() != tNewline {
		p.simpleStmts()
		return p.popStmts(base)
	}
	p.next()
	if p.kind() != tIndent {
		p.errorAt(p.p, "expected an indented block")
	}
	p.next()
	p.enter()
	for p.kind() != tDedent && p.kind() != tEOF {
		p.statement()
	}
	p.leave()
	p.expect(tDedent)
	return p.popStmts(base)
}

func (p *parser) compoundStmt() ast.Stmt {
	start := p.p
	switch p.kind() {
	case tAt:
		var decos []ast.Expr
		for p.kind() == tAt {
			p.next()
			decos = append(decos, p.namedExpression())
			p.expect(tNewline)
		}
		var s ast.Stmt
		switch p.kind() {
		case kwDef:
			s = p.funcDef(p.p, false)
		case kwAsync:
			if p.peekKind(1) != kwDef {
				p.syntaxError()
			}
			s = p.funcDef(p.p, true)
		case kwClass:
			s = p.classDef()
		default:
			p.syntaxError()
		}
		switch n := s.(type) {
		case *ast.FunctionDef:
			n.DecoratorList = decos
		case *ast.AsyncFunctionDef:
			n.DecoratorList = decos
		case *ast.ClassDef:
			n.DecoratorList = decos
		}
		return s
	case kwDef:
		return p.funcDef(start, false)
	case kwClass:
		return p.classDef()
	case kwIf:
		return p.ifStmt()
	case kwWhile:
		p.next()
		test := p.namedExpression()
		p.headerColon()
		body := p.block()
		orelse := p.elseBlock()
		return &ast.While{Attrs: p.span(start), Test: test, Body: body, Orelse: orelse}
	case kwFor:
		return p.forStmt(start, false)
	case kwWith:
		return p.withStmt(start, false)
	case kwTry:
		return p.tryStmt()
	case kwAsync:
		switch p.peekKind(1) {
		case kwDef:
			return p.funcDef(start, true)
		case kwWith:
			p.next()
			return p.withStmt(start, true)
		case kwFor:
			p.next()
			return p.forStmt(start, true)
		}
		p.next()
		p.syntaxError()
	}
	p.syntaxError()
	return nil
}

// headerColon checks the ':' after an if, elif or while condition: CPython
// says "expected ':'" only before a NEWLINE (invalid_if_stmt and the like),
// else it is a generic syntax error at the furthest token.
func (p *parser) headerColon() {
	switch p.kind() {
	case tColon:
	case tNewline:
		p.errorAt(p.p, "expected ':'")
	default:
		p.syntaxError()
	}
}

func (p *parser) elseBlock() []ast.Stmt {
	if p.kind() == kwElse {
		p.next()
		return p.block()
	}
	return nil
}

func (p *parser) ifStmt() ast.Stmt {
	start := p.p
	p.next() // if / elif
	test := p.namedExpression()
	p.headerColon()
	body := p.block()
	var orelse []ast.Stmt
	if p.kind() == kwElif {
		// An elif is an If nested in the orelse of the one before: a level
		// of recursion here and a level of the tree.
		p.enter()
		p.chain(p.depth)
		orelse = []ast.Stmt{p.ifStmt()}
		p.leave()
	} else {
		orelse = p.elseBlock()
	}
	return &ast.If{Attrs: p.span(start), Test: test, Body: body, Orelse: orelse}
}

func (p *parser) forStmt(start int, async bool) ast.Stmt {
	p.expect(kwFor)
	target := p.starTargets()
	p.expect(kwIn)
	iter := p.starExpressions()
	body := p.block()
	orelse := p.elseBlock()
	if async {
		return &ast.AsyncFor{Attrs: p.span(start), Target: target, Iter: iter, Body: body, Orelse: orelse}
	}
	return &ast.For{Attrs: p.span(start), Target: target, Iter: iter, Body: body, Orelse: orelse}
}

func (p *parser) withStmt(start int, async bool) ast.Stmt {
	p.expect(kwWith)
	var items []*ast.WithItem
	parsed := false
	if p.kind() == tLParen {
		// Try the parenthesized form: '(' ','.with_item+ ','? ')' ':'
		save := p.p
		func() {
			defer func() {
				if r := recover(); r != nil {
					if _, ok := r.(bailout); !ok {
						panic(r)
					}
					p.p = save
					items = nil
				}
			}()
			p.next()
			for {
				items = append(items, p.withItem())
				if p.got(tComma) {
					if p.kind() == tRParen {
						break
					}
					continue
				}
				break
			}
			p.expect(tRParen)
			if p.kind() != tColon {
				p.p = save
				items = nil
				return
			}
			parsed = true
		}()
	}
	if !parsed {
		for {
			items = append(items, p.withItem())
			if !p.got(tComma) {
				break
			}
		}
	}
	body := p.block()
	if async {
		return &ast.AsyncWith{Attrs: p.span(start), Items: items, Body: body}
	}
	return &ast.With{Attrs: p.span(start), Items: items, Body: body}
}

func (p *parser) withItem() *ast.WithItem {
	e := p.expression()
	it := &ast.WithItem{ContextExpr: e}
	if p.got(kwAs) {
		t := p.starTarget()
		switch p.kind() {
		case tComma, tRParen, tColon:
		default:
			p.syntaxError()
		}
		it.OptionalVars = t
	}
	return it
}

func (p *parser) tryStmt() ast.Stmt {
	start := p.p
	p.next()
	body := p.block()
	var handlers []*ast.ExceptHandler
	star := -1
	for p.kind() == kwExcept {
		hs := p.p
		p.next()
		isStar := false
		if p.kind() == tStar {
			isStar = true
			p.next()
		}
		if star == -1 {
			if isStar {
				star = 1
			} else {
				star = 0
			}
		} else if (star == 1) != isStar {
			p.errorAt(hs, "cannot have both 'except' and 'except*' on the same 'try'")
		}
		h := &ast.ExceptHandler{}
		if p.kind() != tColon {
			h.Type = p.expression()
			if p.kind() == tComma {
				// except A, B: is Python 2 syntax; a tuple needs parens.
				p.errorAt(p.p, "multiple exception types must be parenthesized")
			}
			if p.got(kwAs) {
				n, _ := p.name()
				h.Name = &n
			}
		} else if isStar {
			p.errorAt(p.p, "expected one or more exception types")
		}
		h.Body = p.block()
		h.Attrs = p.span(hs)
		handlers = append(handlers, h)
	}
	var orelse, final []ast.Stmt
	if len(handlers) > 0 {
		orelse = p.elseBlock()
	}
	if p.kind() == kwFinally {
		p.next()
		final = p.block()
	}
	if len(handlers) == 0 && final == nil {
		p.errorAt(p.p, "expected 'except' or 'finally' block")
	}
	if star == 1 {
		return &ast.TryStar{Attrs: p.span(start), Body: body, Handlers: handlers, Orelse: orelse, Finalbody: final}
	}
	return &ast.Try{Attrs: p.span(start), Body: body, Handlers: handlers, Orelse: orelse, Finalbody: final}
}

func (p *parser) funcDef(start int, async bool) ast.Stmt {
	if async {
		p.next()
	}
	p.expect(kwDef)
	name, _ := p.name()
	var tparams []ast.TypeParam
	if p.kind() == tLBrack {
		tparams = p.typeParams()
	}
	p.expect(tLParen)
	args := p.parameters(false)
	p.expect(tRParen)
	var returns ast.Expr
	if p.got(tRArrow) {
		returns = p.expression()
	}
	body := p.block()
	if async {
		return &ast.AsyncFunctionDef{Attrs: p.span(start), Name: name, Args: args, Body: body, Returns: returns, TypeParams: tparams}
	}
	return &ast.FunctionDef{Attrs: p.span(start), Name: name, Args: args, Body: body, Returns: returns, TypeParams: tparams}
}

func (p *parser) classDef() ast.Stmt {
	start := p.p
	p.expect(kwClass)
	name, _ := p.name()
	var tparams []ast.TypeParam
	if p.kind() == tLBrack {
		tparams = p.typeParams()
	}
	var bases []ast.Expr
	var kws []*ast.Keyword
	if p.got(tLParen) {
		bases, kws = p.callArgs(-1)
		p.expect(tRParen)
	}
	body := p.block()
	return &ast.ClassDef{Attrs: p.span(start), Name: name, Bases: bases, Keywords: kws, Body: body, TypeParams: tparams}
}

// typeParams parses a PEP 695 type parameter list (Python 3.12).
func (p *parser) typeParams() []ast.TypeParam {
	p.expect(tLBrack)
	var out []ast.TypeParam
	for p.kind() != tRBrack {
		s := p.p
		switch p.kind() {
		case tStar:
			p.next()
			n, _ := p.name()
			out = append(out, &ast.TypeVarTuple{Attrs: p.span(s), Name: n})
		case tDoubleStar:
			p.next()
			n, _ := p.name()
			out = append(out, &ast.ParamSpec{Attrs: p.span(s), Name: n})
		default:
			n, _ := p.name()
			var bound ast.Expr
			if p.got(tColon) {
				bound = p.expression()
			}
			out = append(out, &ast.TypeVar{Attrs: p.span(s), Name: n, Bound: bound})
		}
		if !p.got(tComma) {
			break
		}
	}
	if len(out) == 0 {
		p.syntaxError()
	}
	p.expect(tRBrack)
	return out
}

// parameters parses a def (lambda=false, ends at ')') or lambda (ends at
// ':') parameter list.
func (p *parser) parameters(lambda bool) *ast.Arguments {
	a := &ast.Arguments{PosOnlyArgs: []*ast.Arg{}, Args: []*ast.Arg{}, KwOnlyArgs: []*ast.Arg{}, KwDefaults: []ast.Expr{}, Defaults: []ast.Expr{}}
	end := tRParen
	if lambda {
		end = tColon
	}
	star := false // seen * or *args
	sawDefault := false
	param := func(starAnn bool) *ast.Arg {
		s := p.p
		n, _ := p.name()
		arg := p.argSlab.new()
		arg.Arg = n
		if !lambda && p.got(tColon) {
			if starAnn && p.kind() == tStar {
				arg.Annotation = p.starExpression()
			} else {
				arg.Annotation = p.expression()
			}
		}
		arg.Attrs = p.span(s)
		return arg
	}
	for p.kind() != end {
		switch p.kind() {
		case tSlash:
			if star || len(a.Args) == 0 || len(a.PosOnlyArgs) > 0 {
				if star {
					p.errorAt(p.p, "/ must be ahead of *")
				}
				if len(a.PosOnlyArgs) > 0 {
					p.errorAt(p.p, "/ may appear only once")
				}
				p.errorAt(p.p, "at least one argument must precede /")
			}
			p.next()
			a.PosOnlyArgs, a.Args = a.Args, []*ast.Arg{}
		case tStar:
			if star {
				p.errorAt(p.p, "* argument may appear only once")
			}
			star = true
			st := p.p
			p.next()
			if p.kind() == tComma || p.kind() == end {
				if p.kind() == end || p.peekKind(1) == end || p.peekKind(1) == tDoubleStar {
					p.errorAt(st, "named arguments must follow bare *")
				}
			} else {
				a.Vararg = param(true)
				if p.kind() == tEqual {
					p.errorAt(p.p, "var-positional argument cannot have default value")
				}
			}
		case tDoubleStar:
			p.next()
			a.Kwarg = param(false)
			if p.kind() == tEqual {
				p.errorAt(p.p, "var-keyword argument cannot have default value")
			}
			p.got(tComma)
			if p.kind() != end {
				p.errorAt(p.p, "arguments cannot follow var-keyword argument")
			}
			return a
		default:
			arg := param(false)
			var def ast.Expr
			if p.got(tEqual) {
				if k := p.kind(); k == tRParen || k == tComma {
					// CPython's invalid_default points at the '='.
					p.errorAt(p.p-1, "expected default value expression")
				}
				def = p.expression()
			}
			if star {
				a.KwOnlyArgs = append(a.KwOnlyArgs, arg)
				a.KwDefaults = append(a.KwDefaults, def)
			} else {
				if def != nil {
					sawDefault = true
					a.Defaults = append(a.Defaults, def)
				} else if sawDefault {
					p.errorAtNode(arg, "non-default argument follows default argument")
				}
				a.Args = append(a.Args, arg)
			}
		}
		if !p.got(tComma) {
			break
		}
	}
	if p.kind() != end {
		p.syntaxError()
	}
	return a
}

// ---------------------------------------------------------------------------
// simple statements

func (p *parser) simpleStmt() ast.Stmt {
	start := p.p
	switch p.kind() {
	case kwPass:
		p.next()
		return &ast.Pass{Attrs: p.span(start)}
	case kwBreak:
		p.next()
		return &ast.Break{Attrs: p.span(start)}
	case kwContinue:
		p.next()
		return &ast.Continue{Attrs: p.span(start)}
	case kwReturn:
		p.next()
		var v ast.Expr
		if !p.atStmtEnd() {
			v = p.starExpressions()
		}
		return &ast.Return{Attrs: p.span(start), Value: v}
	case kwRaise:
		p.next()
		r := &ast.Raise{}
		if !p.atStmtEnd() {
			r.Exc = p.expression()
			if p.got(kwFrom) {
				r.Cause = p.expression()
			}
		}
		r.Attrs = p.span(start)
		return r
	case kwGlobal, kwNonlocal:
		k := p.kind()
		p.next()
		var names []string
		for {
			n, _ := p.name()
			names = append(names, n)
			if !p.got(tComma) {
				break
			}
		}
		if k == kwGlobal {
			return &ast.Global{Attrs: p.span(start), Names: names}
		}
		return &ast.Nonlocal{Attrs: p.span(start), Names: names}
	case kwDel:
		p.next()
		var targets []ast.Expr
		for {
			t := p.targetAtom()
			p.setCtx(t, ast.Del)
			targets = append(targets, t)
			if !p.got(tComma) {
				break
			}
			if p.atStmtEnd() {
				break
			}
		}
		if !p.atStmtEnd() {
			p.syntaxError()
		}
		return &ast.Delete{Attrs: p.span(start), Targets: targets}
	case kwAssert:
		p.next()
		a := &ast.Assert{Test: p.expression()}
		if p.got(tComma) {
			a.Msg = p.expression()
		}
		a.Attrs = p.span(start)
		return a
	case kwImport:
		p.next()
		var names []*ast.Alias
		for {
			names = append(names, p.dottedAlias())
			if !p.got(tComma) {
				break
			}
		}
		return &ast.Import{Attrs: p.span(start), Names: names}
	case kwFrom:
		return p.importFrom()
	case tName:
		if p.isName(p.p, "type") && p.peekKind(1) == tName && (p.peekKind(2) == tEqual || p.peekKind(2) == tLBrack) {
			if s := p.tryTypeAlias(); s != nil {
				return s
			}
		}
	}
	return p.exprOrAssign()
}

func (p *parser) tryTypeAlias() (s ast.Stmt) {
	save := p.p
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.p = save
			s = nil
		}
	}()
	start := p.p
	p.next()
	n, ni := p.name()
	name := &ast.Name{Attrs: p.tokAttrs(ni), Id: n, Ctx: ast.Store}
	var tp []ast.TypeParam
	if p.kind() == tLBrack {
		tp = p.typeParams()
	}
	p.expect(tEqual)
	v := p.expression()
	return &ast.TypeAlias{Attrs: p.span(start), Name: name, TypeParams: tp, Value: v}
}

func (p *parser) atStmtEnd() bool {
	k := p.kind()
	return k == tNewline || k == tSemi || k == tEOF
}

func (p *parser) dottedName() string {
	n, _ := p.name()
	if p.kind() != tDot {
		return n
	}
	var b strings.Builder
	b.WriteString(n)
	for p.got(tDot) {
		m, _ := p.name()
		b.WriteByte('.')
		b.WriteString(m)
	}
	return b.String()
}

func (p *parser) dottedAlias() *ast.Alias {
	s := p.p
	a := &ast.Alias{Name: p.dottedName()}
	if p.got(kwAs) {
		n, _ := p.name()
		a.Asname = &n
	}
	a.Attrs = p.span(s)
	return a
}

func (p *parser) importFrom() ast.Stmt {
	start := p.p
	p.next()
	level := 0
	for {
		if p.kind() == tDot {
			level++
		} else if p.kind() == tEllipsis {
			level += 3
		} else {
			break
		}
		p.next()
	}
	var mod *string
	if p.kind() != kwImport {
		m := p.dottedName()
		mod = &m
	} else if level == 0 {
		p.syntaxError()
	}
	p.expect(kwImport)
	var names []*ast.Alias
	if p.kind() == tStar {
		names = []*ast.Alias{{Attrs: p.tokAttrs(p.p), Name: "*"}}
		p.next()
	} else {
		paren := p.got(tLParen)
		for {
			s := p.p
			n, _ := p.name()
			a := &ast.Alias{Name: n}
			if p.got(kwAs) {
				an, _ := p.name()
				a.Asname = &an
			}
			a.Attrs = p.span(s)
			names = append(names, a)
			if !p.got(tComma) {
				break
			}
			if paren && p.kind() == tRParen {
				break
			}
			if !paren && p.atStmtEnd() {
				p.errorAt(p.p, "trailing comma not allowed without surrounding parentheses")
			}
		}
		if paren {
			p.expect(tRParen)
		}
	}
	return &ast.ImportFrom{Attrs: p.span(start), Module: mod, Names: names, Level: level}
}

var augOps = map[tokKind]ast.Operator{
	tPlusEqual: ast.Add, tMinEqual: ast.Sub, tStarEqual: ast.Mult, tAtEqual: ast.MatMult,
	tSlashEqual: ast.Div, tPercentEqual: ast.Mod, tAmperEqual: ast.BitAnd, tVBarEqual: ast.BitOr,
	tCircumflexEqual: ast.BitXor, tLShiftEqual: ast.LShift, tRShiftEqual: ast.RShift,
	tDoubleStarEqual: ast.Pow, tDoubleSlashEqual: ast.FloorDiv,
}

func (p *parser) exprOrAssign() ast.Stmt {
	start := p.p
	var first ast.Expr
	if p.kind() == kwYield {
		first = p.yieldExpr()
	} else {
		first = p.starExpressions()
	}
	switch k := p.kind(); k {
	case tColon:
		// annotated assignment
		simple := 0
		switch t := first.(type) {
		case *ast.Name:
			if p.toks[start].kind == tName {
				simple = 1
			}
		case *ast.Attribute, *ast.Subscript:
		case *ast.Tuple:
			p.errorAtNode(t, "only single target (not tuple) can be annotated")
		case *ast.List:
			p.errorAtNode(t, "only single target (not list) can be annotated")
		default:
			p.errorAtNode(first, "illegal target for annotation")
		}
		p.setCtx(first, ast.Store)
		p.next()
		ann := p.expression()
		var val ast.Expr
		if p.got(tEqual) {
			val = p.annotatedRHS()
		}
		return &ast.AnnAssign{Attrs: p.span(start), Target: first, Annotation: ann, Value: val, Simple: simple}
	case tEqual:
		aa := p.assigns.new()
		aa.targets[0] = first
		targets := aa.targets[:1:1]
		var val ast.Expr
		for p.got(tEqual) {
			val = p.annotatedRHS()
			if p.kind() == tEqual {
				targets = append(targets, val)
			}
		}
		for _, t := range targets {
			p.setCtx(t, ast.Store)
		}
		aa.a.Attrs, aa.a.Targets, aa.a.Value = p.span(start), targets, val
		return &aa.a
	default:
		if op, ok := augOps[k]; ok {
			switch first.(type) {
			case *ast.Name, *ast.Attribute, *ast.Subscript:
			default:
				p.errorAtNode(first, "'"+exprDesc(first)+"' is an illegal expression for augmented assignment")
			}
			p.setCtx(first, ast.Store)
			p.next()
			val := p.annotatedRHS()
			return &ast.AugAssign{Attrs: p.span(start), Target: first, Op: op, Value: val}
		}
	}
	es := p.exprStmts.new()
	es.Attrs, es.Value = p.span(start), first
	return es
}

func (p *parser) annotatedRHS() ast.Expr {
	if p.kind() == kwYield {
		return p.yieldExpr()
	}
	return p.starExpressions()
}

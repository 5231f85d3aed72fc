// Package ast declares the types that represent Python syntax trees.
//
// The node types mirror CPython's ast module (Python 3.12 grammar) one to
// one: the same node names, the same fields in the same order, and the same
// position convention (Lineno and EndLineno 1-based, ColOffset and
// EndColOffset 0-based UTF-8 byte offsets). The struct tag `py` names the
// CPython field, so a tree can be printed in the same canonical form as
// CPython's (see package astdump).
package ast

// Pos is a position in a source file: Line is 1-based, Col is a 0-based
// UTF-8 byte offset within the line (CPython's convention).
type Pos struct {
	Line int
	Col  int
}

// Before reports whether p comes strictly before q.
func (p Pos) Before(q Pos) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Col < q.Col)
}

// Attrs holds the position attributes CPython gives to statements,
// expressions, patterns, arguments, keywords, aliases, except handlers and
// type parameters. They are int32 (the tokenizer's positions are), which
// makes every node 16 bytes smaller than with int; Pos and End give ints.
type Attrs struct {
	Lineno       int32
	ColOffset    int32
	EndLineno    int32
	EndColOffset int32
}

// Pos returns the start position of the node.
func (a *Attrs) Pos() Pos { return Pos{int(a.Lineno), int(a.ColOffset)} }

// End returns the position just past the node.
func (a *Attrs) End() Pos { return Pos{int(a.EndLineno), int(a.EndColOffset)} }

// Span returns the position attributes of a node from start to end.
func Span(start, end Pos) Attrs {
	return Attrs{int32(start.Line), int32(start.Col), int32(end.Line), int32(end.Col)}
}

// Attributes gives access to the position attributes for in-place update.
func (a *Attrs) Attributes() *Attrs { return a }

// Node is a syntax tree node that has a position.
type Node interface {
	Pos() Pos
	End() Pos
	Attributes() *Attrs
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Pattern is a match-statement pattern node.
type Pattern interface {
	Node
	patternNode()
}

// TypeParam is a PEP 695 type parameter node.
type TypeParam interface {
	Node
	typeParamNode()
}

// Comment is a comment kept in the side table of a File.
type Comment struct {
	Pos  Pos    // position of the '#'
	Text string // the comment text including the leading '#', without the line end
}

// File is a parsed source file: the module and its comments in source order.
type File struct {
	Name     string
	Module   *Module
	Comments []Comment
}

// Module is the root of a parsed file (CPython: Module(stmt* body, type_ignore* type_ignores)).
type Module struct {
	Body        []Stmt       `py:"body"`
	TypeIgnores []TypeIgnore `py:"type_ignores"`
}

// TypeIgnore is only produced with type comments enabled; kept for completeness.
type TypeIgnore struct {
	Lineno int    `py:"lineno"`
	Tag    string `py:"tag"`
}

// ---------------------------------------------------------------------------
// Statements

type FunctionDef struct {
	Attrs
	Name          string      `py:"name"`
	Args          *Arguments  `py:"args"`
	Body          []Stmt      `py:"body"`
	DecoratorList []Expr      `py:"decorator_list"`
	Returns       Expr        `py:"returns"` // may be nil
	TypeComment   *string     `py:"type_comment"`
	TypeParams    []TypeParam `py:"type_params"`
}

type AsyncFunctionDef struct {
	Attrs
	Name          string      `py:"name"`
	Args          *Arguments  `py:"args"`
	Body          []Stmt      `py:"body"`
	DecoratorList []Expr      `py:"decorator_list"`
	Returns       Expr        `py:"returns"`
	TypeComment   *string     `py:"type_comment"`
	TypeParams    []TypeParam `py:"type_params"`
}

type ClassDef struct {
	Attrs
	Name          string      `py:"name"`
	Bases         []Expr      `py:"bases"`
	Keywords      []*Keyword  `py:"keywords"`
	Body          []Stmt      `py:"body"`
	DecoratorList []Expr      `py:"decorator_list"`
	TypeParams    []TypeParam `py:"type_params"`
}

type Return struct {
	Attrs
	Value Expr `py:"value"`
}

type Delete struct {
	Attrs
	Targets []Expr `py:"targets"`
}

type Assign struct {
	Attrs
	Targets     []Expr  `py:"targets"`
	Value       Expr    `py:"value"`
	TypeComment *string `py:"type_comment"`
}

// TypeAlias is `type X[T] = ...` (Python 3.12).
type TypeAlias struct {
	Attrs
	Name       Expr        `py:"name"`
	TypeParams []TypeParam `py:"type_params"`
	Value      Expr        `py:"value"`
}

type AugAssign struct {
	Attrs
	Target Expr     `py:"target"`
	Op     Operator `py:"op"`
	Value  Expr     `py:"value"`
}

type AnnAssign struct {
	Attrs
	Target     Expr `py:"target"`
	Annotation Expr `py:"annotation"`
	Value      Expr `py:"value"`
	Simple     int  `py:"simple"`
}

type For struct {
	Attrs
	Target      Expr    `py:"target"`
	Iter        Expr    `py:"iter"`
	Body        []Stmt  `py:"body"`
	Orelse      []Stmt  `py:"orelse"`
	TypeComment *string `py:"type_comment"`
}

type AsyncFor struct {
	Attrs
	Target      Expr    `py:"target"`
	Iter        Expr    `py:"iter"`
	Body        []Stmt  `py:"body"`
	Orelse      []Stmt  `py:"orelse"`
	TypeComment *string `py:"type_comment"`
}

type While struct {
	Attrs
	Test   Expr   `py:"test"`
	Body   []Stmt `py:"body"`
	Orelse []Stmt `py:"orelse"`
}

type If struct {
	Attrs
	Test   Expr   `py:"test"`
	Body   []Stmt `py:"body"`
	Orelse []Stmt `py:"orelse"`
}

type With struct {
	Attrs
	Items       []*WithItem `py:"items"`
	Body        []Stmt      `py:"body"`
	TypeComment *string     `py:"type_comment"`
}

type AsyncWith struct {
	Attrs
	Items       []*WithItem `py:"items"`
	Body        []Stmt      `py:"body"`
	TypeComment *string     `py:"type_comment"`
}

type Match struct {
	Attrs
	Subject Expr         `py:"subject"`
	Cases   []*MatchCase `py:"cases"`
}

type Raise struct {
	Attrs
	Exc   Expr `py:"exc"`
	Cause Expr `py:"cause"`
}

type Try struct {
	Attrs
	Body      []Stmt           `py:"body"`
	Handlers  []*ExceptHandler `py:"handlers"`
	Orelse    []Stmt           `py:"orelse"`
	Finalbody []Stmt           `py:"finalbody"`
}

type TryStar struct {
	Attrs
	Body      []Stmt           `py:"body"`
	Handlers  []*ExceptHandler `py:"handlers"`
	Orelse    []Stmt           `py:"orelse"`
	Finalbody []Stmt           `py:"finalbody"`
}

type Assert struct {
	Attrs
	Test Expr `py:"test"`
	Msg  Expr `py:"msg"`
}

type Import struct {
	Attrs
	Names []*Alias `py:"names"`
}

type ImportFrom struct {
	Attrs
	Module *string  `py:"module"` // nil for `from . import x`
	Names  []*Alias `py:"names"`
	Level  int      `py:"level"`
}

type Global struct {
	Attrs
	Names []string `py:"names"`
}

type Nonlocal struct {
	Attrs
	Names []string `py:"names"`
}

// ExprStmt is CPython's Expr statement (an expression used as a statement).
type ExprStmt struct {
	Attrs
	Value Expr `py:"value"`
}

type Pass struct{ Attrs }
type Break struct{ Attrs }
type Continue struct{ Attrs }

// ---------------------------------------------------------------------------
// Expressions

type BoolOp struct {
	Attrs
	Op     BoolOperator `py:"op"`
	Values []Expr       `py:"values"`
}

type NamedExpr struct {
	Attrs
	Target Expr `py:"target"`
	Value  Expr `py:"value"`
}

type BinOp struct {
	Attrs
	Left  Expr     `py:"left"`
	Op    Operator `py:"op"`
	Right Expr     `py:"right"`
}

type UnaryOp struct {
	Attrs
	Op      UnaryOperator `py:"op"`
	Operand Expr          `py:"operand"`
}

type Lambda struct {
	Attrs
	Args *Arguments `py:"args"`
	Body Expr       `py:"body"`
}

type IfExp struct {
	Attrs
	Test   Expr `py:"test"`
	Body   Expr `py:"body"`
	Orelse Expr `py:"orelse"`
}

// Dict is a dict display; a nil key marks a `**value` entry.
type Dict struct {
	Attrs
	Keys   []Expr `py:"keys"`
	Values []Expr `py:"values"`
}

type Set struct {
	Attrs
	Elts []Expr `py:"elts"`
}

type ListComp struct {
	Attrs
	Elt        Expr             `py:"elt"`
	Generators []*Comprehension `py:"generators"`
}

type SetComp struct {
	Attrs
	Elt        Expr             `py:"elt"`
	Generators []*Comprehension `py:"generators"`
}

type DictComp struct {
	Attrs
	Key        Expr             `py:"key"`
	Value      Expr             `py:"value"`
	Generators []*Comprehension `py:"generators"`
}

type GeneratorExp struct {
	Attrs
	Elt        Expr             `py:"elt"`
	Generators []*Comprehension `py:"generators"`
}

type Await struct {
	Attrs
	Value Expr `py:"value"`
}

type Yield struct {
	Attrs
	Value Expr `py:"value"`
}

type YieldFrom struct {
	Attrs
	Value Expr `py:"value"`
}

type Compare struct {
	Attrs
	Left        Expr          `py:"left"`
	Ops         []CmpOperator `py:"ops"`
	Comparators []Expr        `py:"comparators"`
}

type Call struct {
	Attrs
	Func     Expr       `py:"func"`
	Args     []Expr     `py:"args"`
	Keywords []*Keyword `py:"keywords"`
}

// FormattedValue is one `{...}` field of an f-string. Conversion is -1 for
// none, or 's', 'r', 'a'.
type FormattedValue struct {
	Attrs
	Value      Expr `py:"value"`
	Conversion int  `py:"conversion"`
	FormatSpec Expr `py:"format_spec"`
}

type JoinedStr struct {
	Attrs
	Values []Expr `py:"values"`
}

// Constant is a literal. Value is one of: nil (None), bool, *big.Int (int),
// float64 (float), complex128 (complex), string (str, WTF-8 so that lone
// surrogates survive), Bytes (bytes), Ellipsis.
type Constant struct {
	Attrs
	Value any     `py:"value"`
	Kind  *string `py:"kind"` // "u" for u-prefixed strings, else nil
}

// Bytes is the value of a bytes literal.
type Bytes []byte

// Ellipsis is the value of the `...` literal.
type Ellipsis struct{}

type Attribute struct {
	Attrs
	Value Expr        `py:"value"`
	Attr  string      `py:"attr"`
	Ctx   ExprContext `py:"ctx"`
}

type Subscript struct {
	Attrs
	Value Expr        `py:"value"`
	Slice Expr        `py:"slice"`
	Ctx   ExprContext `py:"ctx"`
}

type Starred struct {
	Attrs
	Value Expr        `py:"value"`
	Ctx   ExprContext `py:"ctx"`
}

type Name struct {
	Attrs
	Id  string      `py:"id"`
	Ctx ExprContext `py:"ctx"`
}

type List struct {
	Attrs
	Elts []Expr      `py:"elts"`
	Ctx  ExprContext `py:"ctx"`
}

type Tuple struct {
	Attrs
	Elts []Expr      `py:"elts"`
	Ctx  ExprContext `py:"ctx"`
}

type Slice struct {
	Attrs
	Lower Expr `py:"lower"`
	Upper Expr `py:"upper"`
	Step  Expr `py:"step"`
}

// ---------------------------------------------------------------------------
// Other nodes

// Comprehension is one `for ... in ... if ...` clause (no positions in CPython).
type Comprehension struct {
	Target  Expr   `py:"target"`
	Iter    Expr   `py:"iter"`
	Ifs     []Expr `py:"ifs"`
	IsAsync int    `py:"is_async"`
}

type ExceptHandler struct {
	Attrs
	Type Expr    `py:"type"`
	Name *string `py:"name"`
	Body []Stmt  `py:"body"`
}

// Arguments is a parameter list (no positions in CPython). KwDefaults has one
// entry per KwOnlyArgs entry, nil where that parameter has no default.
type Arguments struct {
	PosOnlyArgs []*Arg `py:"posonlyargs"`
	Args        []*Arg `py:"args"`
	Vararg      *Arg   `py:"vararg"`
	KwOnlyArgs  []*Arg `py:"kwonlyargs"`
	KwDefaults  []Expr `py:"kw_defaults"`
	Kwarg       *Arg   `py:"kwarg"`
	Defaults    []Expr `py:"defaults"`
}

type Arg struct {
	Attrs
	Arg         string  `py:"arg"`
	Annotation  Expr    `py:"annotation"`
	TypeComment *string `py:"type_comment"`
}

// Keyword is a keyword argument; Arg is nil for `**value`.
type Keyword struct {
	Attrs
	Arg   *string `py:"arg"`
	Value Expr    `py:"value"`
}

type Alias struct {
	Attrs
	Name   string  `py:"name"`
	Asname *string `py:"asname"`
}

// WithItem has no positions in CPython.
type WithItem struct {
	ContextExpr  Expr `py:"context_expr"`
	OptionalVars Expr `py:"optional_vars"`
}

// MatchCase has no positions in CPython.
type MatchCase struct {
	Pattern Pattern `py:"pattern"`
	Guard   Expr    `py:"guard"`
	Body    []Stmt  `py:"body"`
}

// ---------------------------------------------------------------------------
// Patterns

type MatchValue struct {
	Attrs
	Value Expr `py:"value"`
}

// MatchSingleton's Value is nil (None), true or false.
type MatchSingleton struct {
	Attrs
	Value any `py:"value"`
}

type MatchSequence struct {
	Attrs
	Patterns []Pattern `py:"patterns"`
}

type MatchMapping struct {
	Attrs
	Keys     []Expr    `py:"keys"`
	Patterns []Pattern `py:"patterns"`
	Rest     *string   `py:"rest"`
}

type MatchClass struct {
	Attrs
	Cls         Expr      `py:"cls"`
	Patterns    []Pattern `py:"patterns"`
	KwdAttrs    []string  `py:"kwd_attrs"`
	KwdPatterns []Pattern `py:"kwd_patterns"`
}

type MatchStar struct {
	Attrs
	Name *string `py:"name"`
}

type MatchAs struct {
	Attrs
	Pattern Pattern `py:"pattern"`
	Name    *string `py:"name"`
}

type MatchOr struct {
	Attrs
	Patterns []Pattern `py:"patterns"`
}

// ---------------------------------------------------------------------------
// Type parameters (Python 3.12)

type TypeVar struct {
	Attrs
	Name  string `py:"name"`
	Bound Expr   `py:"bound"`
}

type ParamSpec struct {
	Attrs
	Name string `py:"name"`
}

type TypeVarTuple struct {
	Attrs
	Name string `py:"name"`
}

// ---------------------------------------------------------------------------
// Enumerations

type ExprContext int

const (
	Load ExprContext = iota
	Store
	Del
)

func (c ExprContext) String() string { return [...]string{"Load", "Store", "Del"}[c] }

type BoolOperator int

const (
	And BoolOperator = iota
	Or
)

func (o BoolOperator) String() string { return [...]string{"And", "Or"}[o] }

type Operator int

const (
	Add Operator = iota
	Sub
	Mult
	MatMult
	Div
	Mod
	Pow
	LShift
	RShift
	BitOr
	BitXor
	BitAnd
	FloorDiv
)

func (o Operator) String() string {
	return [...]string{"Add", "Sub", "Mult", "MatMult", "Div", "Mod", "Pow", "LShift",
		"RShift", "BitOr", "BitXor", "BitAnd", "FloorDiv"}[o]
}

type UnaryOperator int

const (
	Invert UnaryOperator = iota
	Not
	UAdd
	USub
)

func (o UnaryOperator) String() string { return [...]string{"Invert", "Not", "UAdd", "USub"}[o] }

type CmpOperator int

const (
	Eq CmpOperator = iota
	NotEq
	Lt
	LtE
	Gt
	GtE
	Is
	IsNot
	In
	NotIn
)

func (o CmpOperator) String() string {
	return [...]string{"Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "Is", "IsNot", "In", "NotIn"}[o]
}

// ---------------------------------------------------------------------------
// Marker methods

func (*FunctionDef) stmtNode()      {}
func (*AsyncFunctionDef) stmtNode() {}
func (*ClassDef) stmtNode()         {}
func (*Return) stmtNode()           {}
func (*Delete) stmtNode()           {}
func (*Assign) stmtNode()           {}
func (*TypeAlias) stmtNode()        {}
func (*AugAssign) stmtNode()        {}
func (*AnnAssign) stmtNode()        {}
func (*For) stmtNode()              {}
func (*AsyncFor) stmtNode()         {}
func (*While) stmtNode()            {}
func (*If) stmtNode()               {}
func (*With) stmtNode()             {}
func (*AsyncWith) stmtNode()        {}
func (*Match) stmtNode()            {}
func (*Raise) stmtNode()            {}
func (*Try) stmtNode()              {}
func (*TryStar) stmtNode()          {}
func (*Assert) stmtNode()           {}
func (*Import) stmtNode()           {}
func (*ImportFrom) stmtNode()       {}
func (*Global) stmtNode()           {}
func (*Nonlocal) stmtNode()         {}
func (*ExprStmt) stmtNode()         {}
func (*Pass) stmtNode()             {}
func (*Break) stmtNode()            {}
func (*Continue) stmtNode()         {}

func (*BoolOp) exprNode()         {}
func (*NamedExpr) exprNode()      {}
func (*BinOp) exprNode()          {}
func (*UnaryOp) exprNode()        {}
func (*Lambda) exprNode()         {}
func (*IfExp) exprNode()          {}
func (*Dict) exprNode()           {}
func (*Set) exprNode()            {}
func (*ListComp) exprNode()       {}
func (*SetComp) exprNode()        {}
func (*DictComp) exprNode()       {}
func (*GeneratorExp) exprNode()   {}
func (*Await) exprNode()          {}
func (*Yield) exprNode()          {}
func (*YieldFrom) exprNode()      {}
func (*Compare) exprNode()        {}
func (*Call) exprNode()           {}
func (*FormattedValue) exprNode() {}
func (*JoinedStr) exprNode()      {}
func (*Constant) exprNode()       {}
func (*Attribute) exprNode()      {}
func (*Subscript) exprNode()      {}
func (*Starred) exprNode()        {}
func (*Name) exprNode()           {}
func (*List) exprNode()           {}
func (*Tuple) exprNode()          {}
func (*Slice) exprNode()          {}

func (*MatchValue) patternNode()     {}
func (*MatchSingleton) patternNode() {}
func (*MatchSequence) patternNode()  {}
func (*MatchMapping) patternNode()   {}
func (*MatchClass) patternNode()     {}
func (*MatchStar) patternNode()      {}
func (*MatchAs) patternNode()        {}
func (*MatchOr) patternNode()        {}

func (*TypeVar) typeParamNode()      {}
func (*ParamSpec) typeParamNode()    {}
func (*TypeVarTuple) typeParamNode() {}

// Keywords lists Python's keywords (the soft keywords match, case, type
// and _ are names).
var Keywords = [...]string{"False", "None", "True", "and", "as", "assert", "async", "await",
	"break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for",
	"from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
	"raise", "return", "try", "while", "with", "yield"}

// IsIdentifier reports whether s is an ASCII Python identifier that is not
// a keyword: a name that can be written into generated code as itself
// (an import, a def, an __all__ entry).
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	for _, k := range Keywords {
		if s == k {
			return false
		}
	}
	return true
}

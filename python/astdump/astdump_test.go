package astdump

import (
	"bytes"
	"math"
	"math/big"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/python/ast"
)

func at(l, c, el, ec int32) ast.Attrs {
	return ast.Attrs{Lineno: l, ColOffset: c, EndLineno: el, EndColOffset: ec}
}

func strp(s string) *string { return &s }

// pos is the canonical attribute suffix for at(l, c, el, ec).
func pos(l, c, el, ec int) string {
	return `,"lineno":` + strconv.Itoa(l) + `,"col_offset":` + strconv.Itoa(c) + `,"end_lineno":` + strconv.Itoa(el) + `,"end_col_offset":` + strconv.Itoa(ec) + `}`
}

func TestWriteModule(t *testing.T) {
	// x = 1
	f := &ast.File{Module: &ast.Module{Body: []ast.Stmt{
		&ast.Assign{
			Attrs:   at(1, 0, 1, 5),
			Targets: []ast.Expr{&ast.Name{Attrs: at(1, 0, 1, 1), Id: "x", Ctx: ast.Store}},
			Value:   &ast.Constant{Attrs: at(1, 4, 1, 5), Value: bigInt(1)},
		},
	}}}
	want := `{"_type":"Module","body":[{"_type":"Assign","targets":[{"_type":"Name","id":"x","ctx":{"_type":"Store"},"lineno":1,"col_offset":0,"end_lineno":1,"end_col_offset":1}],"value":{"_type":"Constant","value":{"int":"1"},"kind":null,"lineno":1,"col_offset":4,"end_lineno":1,"end_col_offset":5},"type_comment":null,"lineno":1,"col_offset":0,"end_lineno":1,"end_col_offset":5}],"type_ignores":[]}`
	var buf bytes.Buffer
	if err := Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("Write mismatch (-want +got):\n%s", diff)
	}

	buf.Reset()
	if err := Write(&buf, &ast.File{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"_type":"Module","body":[],"type_ignores":[]}`, buf.String()); diff != "" {
		t.Errorf("empty module mismatch (-want +got):\n%s", diff)
	}
}

func TestConstants(t *testing.T) {
	huge, _ := new(big.Int).SetString("2417851639229258349412351", 10)
	tests := []struct {
		value any
		want  string
	}{
		{nil, `{"None":null}`},
		{true, `{"bool":true}`},
		{false, `{"bool":false}`},
		{bigInt(0), `{"int":"0"}`},
		{bigInt(123), `{"int":"123"}`},
		{huge, `{"int":"2417851639229258349412351"}`},
		{1.5, `{"float":"3ff8000000000000"}`},
		{0.0, `{"float":"0000000000000000"}`},
		{math.Inf(1), `{"float":"7ff0000000000000"}`},
		{0.1, `{"float":"3fb999999999999a"}`},
		{complex(0, 2), `{"complex":"4000000000000000"}`},
		{complex(1, 2), `{"complex":"3ff0000000000000,4000000000000000"}`},
		{"", `{"str":""}`},
		{"a\"b\\c\n\r\t\b\f\x00\x1f\x7f", `{"str":"a\"b\\c\n\r\t\b\f\u0000\u001f\u007f"}`},
		{"é€😀", `{"str":"\u00e9\u20ac\ud83d\ude00"}`},
		{"\xed\xb2\x80", `{"str":"\udc80"}`},                   // lone low surrogate U+DC80 (WTF-8)
		{"x\xed\xa0\xbdy", `{"str":"x\ud83dy"}`},               // lone high surrogate U+D83D
		{"\xed\xa0\xbd\xed\xb8\x80", `{"str":"\ud83d\ude00"}`}, // surrogate pair kept as two code points
		{"\xff", `{"str":"\ufffd"}`},                           // not WTF-8: never produced by the parser
		{ast.Bytes{}, `{"bytes":""}`},
		{ast.Bytes{0, 0xff, 'a'}, `{"bytes":"00ff61"}`},
		{ast.Ellipsis{}, `{"Ellipsis":null}`},
	}
	for _, tt := range tests {
		got, err := AppendNode(nil, &ast.Constant{Attrs: at(1, 0, 1, 3), Value: tt.value})
		if err != nil {
			t.Errorf("%#v: %v", tt.value, err)
			continue
		}
		want := `{"_type":"Constant","value":` + tt.want + `,"kind":null` + pos(1, 0, 1, 3)
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("constant %#v (-want +got):\n%s", tt.value, diff)
		}
	}

	// An unsupported value is reported but still dumped (as a value CPython never produces).
	got, err := AppendNode(nil, &ast.Constant{Value: int32(1)})
	if err == nil || !strings.Contains(string(got), `{"unknown":"int32"}`) {
		t.Errorf("int32 constant: got %s, %v; want an error and an unknown marker", got, err)
	}
}

func TestKindAndSingleton(t *testing.T) {
	got := String(&ast.Constant{Attrs: at(2, 1, 2, 5), Value: "x", Kind: strp("u")})
	want := `{"_type":"Constant","value":{"str":"x"},"kind":"u"` + pos(2, 1, 2, 5)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for v, w := range map[any]string{nil: `{"None":null}`, true: `{"bool":true}`, false: `{"bool":false}`} {
		got := String(&ast.MatchSingleton{Attrs: at(1, 5, 1, 9), Value: v})
		want := `{"_type":"MatchSingleton","value":` + w + pos(1, 5, 1, 9)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("MatchSingleton %v (-want +got):\n%s", v, diff)
		}
	}
}

func TestOperators(t *testing.T) {
	a := &ast.Name{Attrs: at(1, 0, 1, 1), Id: "a"}
	b := &ast.Name{Attrs: at(1, 4, 1, 5), Id: "b"}
	na := `{"_type":"Name","id":"a","ctx":{"_type":"Load"}` + pos(1, 0, 1, 1)
	nb := `{"_type":"Name","id":"b","ctx":{"_type":"Load"}` + pos(1, 4, 1, 5)
	tests := []struct {
		node any
		want string
	}{
		{&ast.BinOp{Attrs: at(1, 0, 1, 5), Left: a, Op: ast.FloorDiv, Right: b},
			`{"_type":"BinOp","left":` + na + `,"op":{"_type":"FloorDiv"},"right":` + nb + pos(1, 0, 1, 5)},
		{&ast.BoolOp{Attrs: at(1, 0, 1, 5), Op: ast.Or, Values: []ast.Expr{a, b}},
			`{"_type":"BoolOp","op":{"_type":"Or"},"values":[` + na + `,` + nb + `]` + pos(1, 0, 1, 5)},
		{&ast.UnaryOp{Attrs: at(1, 0, 1, 5), Op: ast.USub, Operand: b},
			`{"_type":"UnaryOp","op":{"_type":"USub"},"operand":` + nb + pos(1, 0, 1, 5)},
		{&ast.Compare{Attrs: at(1, 0, 1, 5), Left: a, Ops: []ast.CmpOperator{ast.NotIn, ast.IsNot}, Comparators: []ast.Expr{b, b}},
			`{"_type":"Compare","left":` + na + `,"ops":[{"_type":"NotIn"},{"_type":"IsNot"}],"comparators":[` + nb + `,` + nb + `]` + pos(1, 0, 1, 5)},
		{&ast.AugAssign{Attrs: at(1, 0, 1, 5), Target: &ast.Name{Attrs: at(1, 0, 1, 1), Id: "a", Ctx: ast.Store}, Op: ast.MatMult, Value: b},
			`{"_type":"AugAssign","target":{"_type":"Name","id":"a","ctx":{"_type":"Store"}` + pos(1, 0, 1, 1) + `,"op":{"_type":"MatMult"},"value":` + nb + pos(1, 0, 1, 5)},
		{&ast.Delete{Attrs: at(1, 0, 1, 5), Targets: []ast.Expr{&ast.Name{Attrs: at(1, 4, 1, 5), Id: "b", Ctx: ast.Del}}},
			`{"_type":"Delete","targets":[{"_type":"Name","id":"b","ctx":{"_type":"Del"}` + pos(1, 4, 1, 5) + `]` + pos(1, 0, 1, 5)},
		{ast.Load, `{"_type":"Load"}`},
		{ast.BitXor, `{"_type":"BitXor"}`},
	}
	for _, tt := range tests {
		got, err := AppendNode(nil, tt.node)
		if err != nil {
			t.Errorf("%T: %v", tt.node, err)
		}
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("%T (-want +got):\n%s", tt.node, diff)
		}
	}
}

func TestRenamedAndPositionlessNodes(t *testing.T) {
	name := func(id string, ctx ast.ExprContext, a ast.Attrs) *ast.Name {
		return &ast.Name{Attrs: a, Id: id, Ctx: ctx}
	}
	pass := &ast.Pass{Attrs: at(2, 4, 2, 8)}
	passJ := `{"_type":"Pass"` + pos(2, 4, 2, 8)
	tests := []struct {
		node any
		want string
	}{
		// def f(a, /, b=1, *c, d, e=2, **g) -> None: pass   (positions made up)
		{&ast.FunctionDef{
			Attrs: at(1, 0, 2, 8),
			Name:  "f",
			Args: &ast.Arguments{
				PosOnlyArgs: []*ast.Arg{{Attrs: at(1, 6, 1, 7), Arg: "a"}},
				Args:        []*ast.Arg{{Attrs: at(1, 12, 1, 13), Arg: "b", Annotation: name("int", ast.Load, at(1, 14, 1, 17))}},
				Vararg:      &ast.Arg{Attrs: at(1, 20, 1, 21), Arg: "c"},
				KwOnlyArgs:  []*ast.Arg{{Attrs: at(1, 23, 1, 24), Arg: "d"}},
				KwDefaults:  []ast.Expr{nil},
				Defaults:    []ast.Expr{&ast.Constant{Attrs: at(1, 15, 1, 16), Value: bigInt(1)}},
			},
			Body:          []ast.Stmt{pass},
			DecoratorList: []ast.Expr{name("d", ast.Load, at(0, 1, 0, 2))},
		}, `{"_type":"FunctionDef","name":"f","args":{"_type":"arguments",` +
			`"posonlyargs":[{"_type":"arg","arg":"a","annotation":null,"type_comment":null` + pos(1, 6, 1, 7) + `],` +
			`"args":[{"_type":"arg","arg":"b","annotation":{"_type":"Name","id":"int","ctx":{"_type":"Load"}` + pos(1, 14, 1, 17) + `,"type_comment":null` + pos(1, 12, 1, 13) + `],` +
			`"vararg":{"_type":"arg","arg":"c","annotation":null,"type_comment":null` + pos(1, 20, 1, 21) + `,` +
			`"kwonlyargs":[{"_type":"arg","arg":"d","annotation":null,"type_comment":null` + pos(1, 23, 1, 24) + `],` +
			`"kw_defaults":[null],"kwarg":null,` +
			`"defaults":[{"_type":"Constant","value":{"int":"1"},"kind":null` + pos(1, 15, 1, 16) + `]},` +
			`"body":[` + passJ + `],"decorator_list":[{"_type":"Name","id":"d","ctx":{"_type":"Load"}` + pos(0, 1, 0, 2) + `],` +
			`"returns":null,"type_comment":null,"type_params":[]` + pos(1, 0, 2, 8)},
		{&ast.ExprStmt{Attrs: at(3, 0, 3, 1), Value: name("x", ast.Load, at(3, 0, 3, 1))},
			`{"_type":"Expr","value":{"_type":"Name","id":"x","ctx":{"_type":"Load"}` + pos(3, 0, 3, 1) + pos(3, 0, 3, 1)},
		{&ast.Comprehension{Target: name("x", ast.Store, at(1, 7, 1, 8)), Iter: name("y", ast.Load, at(1, 12, 1, 13)), IsAsync: 1},
			`{"_type":"comprehension","target":{"_type":"Name","id":"x","ctx":{"_type":"Store"}` + pos(1, 7, 1, 8) +
				`,"iter":{"_type":"Name","id":"y","ctx":{"_type":"Load"}` + pos(1, 12, 1, 13) + `,"ifs":[],"is_async":1}`},
		{&ast.With{Attrs: at(1, 0, 2, 8), Items: []*ast.WithItem{{ContextExpr: name("m", ast.Load, at(1, 5, 1, 6))}}, Body: []ast.Stmt{pass}},
			`{"_type":"With","items":[{"_type":"withitem","context_expr":{"_type":"Name","id":"m","ctx":{"_type":"Load"}` + pos(1, 5, 1, 6) +
				`,"optional_vars":null}],"body":[` + passJ + `],"type_comment":null` + pos(1, 0, 2, 8)},
		{&ast.Call{Attrs: at(1, 0, 1, 9), Func: name("f", ast.Load, at(1, 0, 1, 1)),
			Keywords: []*ast.Keyword{{Attrs: at(1, 2, 1, 5), Value: name("k", ast.Load, at(1, 4, 1, 5))}, {Attrs: at(1, 7, 1, 8), Arg: strp("z"), Value: name("v", ast.Load, at(1, 8, 1, 9))}}},
			`{"_type":"Call","func":{"_type":"Name","id":"f","ctx":{"_type":"Load"}` + pos(1, 0, 1, 1) + `,"args":[],"keywords":[` +
				`{"_type":"keyword","arg":null,"value":{"_type":"Name","id":"k","ctx":{"_type":"Load"}` + pos(1, 4, 1, 5) + pos(1, 2, 1, 5) + `,` +
				`{"_type":"keyword","arg":"z","value":{"_type":"Name","id":"v","ctx":{"_type":"Load"}` + pos(1, 8, 1, 9) + pos(1, 7, 1, 8) + `]` + pos(1, 0, 1, 9)},
		{&ast.ImportFrom{Attrs: at(1, 0, 1, 20), Names: []*ast.Alias{{Attrs: at(1, 14, 1, 20), Name: "x", Asname: strp("y")}}, Level: 2},
			`{"_type":"ImportFrom","module":null,"names":[{"_type":"alias","name":"x","asname":"y"` + pos(1, 14, 1, 20) + `],"level":2` + pos(1, 0, 1, 20)},
		{&ast.Global{Attrs: at(1, 0, 1, 11), Names: []string{"a", "b"}},
			`{"_type":"Global","names":["a","b"]` + pos(1, 0, 1, 11)},
		{&ast.Dict{Attrs: at(1, 0, 1, 5), Keys: []ast.Expr{nil}, Values: []ast.Expr{name("d", ast.Load, at(1, 3, 1, 4))}},
			`{"_type":"Dict","keys":[null],"values":[{"_type":"Name","id":"d","ctx":{"_type":"Load"}` + pos(1, 3, 1, 4) + `]` + pos(1, 0, 1, 5)},
		{&ast.Match{Attrs: at(1, 0, 2, 8), Subject: name("p", ast.Load, at(1, 6, 1, 7)), Cases: []*ast.MatchCase{{
			Pattern: &ast.MatchAs{Attrs: at(2, 9, 2, 10)}, Body: []ast.Stmt{pass}}}},
			`{"_type":"Match","subject":{"_type":"Name","id":"p","ctx":{"_type":"Load"}` + pos(1, 6, 1, 7) + `,"cases":[` +
				`{"_type":"match_case","pattern":{"_type":"MatchAs","pattern":null,"name":null` + pos(2, 9, 2, 10) + `,"guard":null,"body":[` + passJ + `]}]` + pos(1, 0, 2, 8)},
		{&ast.FormattedValue{Attrs: at(1, 0, 1, 8), Value: name("a", ast.Load, at(1, 3, 1, 4)), Conversion: 'r'},
			`{"_type":"FormattedValue","value":{"_type":"Name","id":"a","ctx":{"_type":"Load"}` + pos(1, 3, 1, 4) + `,"conversion":114,"format_spec":null` + pos(1, 0, 1, 8)},
		{&ast.ClassDef{Attrs: at(1, 0, 2, 8), Name: "C", Body: []ast.Stmt{pass}, TypeParams: []ast.TypeParam{
			&ast.TypeVar{Attrs: at(1, 8, 1, 9), Name: "T"}, &ast.ParamSpec{Attrs: at(1, 11, 1, 14), Name: "P"}}},
			`{"_type":"ClassDef","name":"C","bases":[],"keywords":[],"body":[` + passJ + `],"decorator_list":[],"type_params":[` +
				`{"_type":"TypeVar","name":"T","bound":null` + pos(1, 8, 1, 9) + `,{"_type":"ParamSpec","name":"P"` + pos(1, 11, 1, 14) + `]` + pos(1, 0, 2, 8)},
		{&ast.TypeIgnore{Lineno: 3, Tag: "[x]"}, `{"_type":"TypeIgnore","lineno":3,"tag":"[x]"}`},
	}
	for _, tt := range tests {
		got, err := AppendNode(nil, tt.node)
		if err != nil {
			t.Errorf("%T: %v", tt.node, err)
		}
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("%T (-want +got):\n%s", tt.node, diff)
		}
	}
}

func TestError(t *testing.T) {
	got := string(AppendError(nil, "SyntaxError: invalid syntax \"é\"", 3, 7))
	want := `{"error":{"msg":"SyntaxError: invalid syntax \"\u00e9\"","lineno":3,"offset":7}}`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var buf bytes.Buffer
	if err := WriteError(&buf, "boom", 0, 0); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"error":{"msg":"boom","lineno":null,"offset":null}}`, buf.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// wtf8 encodes r as UTF-8, surrogates included (generalized UTF-8).
func wtf8(b []byte, r rune) []byte {
	switch {
	case r < 0x80:
		return append(b, byte(r))
	case r < 0x800:
		return append(b, 0xC0|byte(r>>6), 0x80|byte(r&0x3F))
	case r < 0x10000:
		return append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
	default:
		return append(b, 0xF0|byte(r>>18), 0x80|byte(r>>12&0x3F), 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
	}
}

// TestAppendStringMatchesPython checks AppendString against CPython's
// json.dumps(ensure_ascii=True) for every code point, lone surrogates
// included (each surrogate is separated by "x" so no pair forms).
func TestAppendStringMatchesPython(t *testing.T) {
	if testing.Short() {
		t.Skip("compares every code point with CPython; skipped with -short")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not on PATH")
	}
	const script = `import json, sys
out = []
for start in range(0, 0x110000, 0x1000):
    out.append(json.dumps("x".join(chr(c) for c in range(start, start + 0x1000)), ensure_ascii=True))
sys.stdout.write("\n".join(out))
`
	want, err := exec.Command(py, "-c", script).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var got, s []byte
	for start := rune(0); start < 0x110000; start += 0x1000 {
		if start > 0 {
			got = append(got, '\n')
		}
		s = s[:0]
		for c := start; c < start+0x1000; c++ {
			if c > start {
				s = append(s, 'x')
			}
			s = wtf8(s, c)
		}
		got = AppendString(got, string(s))
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range gl {
			if i < len(wl) && gl[i] != wl[i] {
				t.Fatalf("block %#x differs:\n%s", i*0x1000, cmp.Diff(wl[i], gl[i]))
			}
		}
		t.Fatalf("output differs in length: got %d lines, want %d", len(gl), len(wl))
	}
}

func TestNonPointerNode(t *testing.T) {
	got := String(ast.Pass{Attrs: at(1, 0, 1, 4)})
	if diff := cmp.Diff(`{"_type":"Pass"`+pos(1, 0, 1, 4), got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// BenchmarkAppend dumps a module of 10,000 statements `x = a + f(b, 'é', 1.5)`.
func BenchmarkAppend(b *testing.B) {
	var body []ast.Stmt
	for i := 0; i < 10000; i++ {
		l := int32(i + 1)
		body = append(body, &ast.Assign{
			Attrs:   at(l, 0, l, 24),
			Targets: []ast.Expr{&ast.Name{Attrs: at(l, 0, l, 1), Id: "x", Ctx: ast.Store}},
			Value: &ast.BinOp{Attrs: at(l, 4, l, 24), Left: &ast.Name{Attrs: at(l, 4, l, 5), Id: "a"}, Op: ast.Add,
				Right: &ast.Call{Attrs: at(l, 8, l, 24), Func: &ast.Name{Attrs: at(l, 8, l, 9), Id: "f"}, Args: []ast.Expr{
					&ast.Name{Attrs: at(l, 10, l, 11), Id: "b"},
					&ast.Constant{Attrs: at(l, 13, l, 17), Value: "é"},
					&ast.Constant{Attrs: at(l, 19, l, 22), Value: 1.5},
				}}},
		})
	}
	f := &ast.File{Module: &ast.Module{Body: body}}
	var buf []byte
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		buf, err = Append(buf[:0], f)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

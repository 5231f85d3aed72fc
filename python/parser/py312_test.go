package parser

import (
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// shape renders a tree compactly (types, names and constants, no positions).
func shape(n any) string {
	var b strings.Builder
	var walk func(n any)
	walk = func(n any) {
		switch v := n.(type) {
		case *ast.Name:
			b.WriteString(v.Id)
		case *ast.Constant:
			switch c := v.Value.(type) {
			case string:
				b.WriteString("'" + c + "'")
			default:
				b.WriteString("C")
			}
		case *ast.JoinedStr:
			b.WriteString("J(")
			for i, x := range v.Values {
				if i > 0 {
					b.WriteString(",")
				}
				walk(x)
			}
			b.WriteString(")")
		case *ast.FormattedValue:
			b.WriteString("F(")
			walk(v.Value)
			if v.FormatSpec != nil {
				b.WriteString(":")
				walk(v.FormatSpec)
			}
			b.WriteString(")")
		case *ast.Subscript:
			walk(v.Value)
			b.WriteString("[")
			walk(v.Slice)
			b.WriteString("]")
		case *ast.BinOp:
			walk(v.Left)
			b.WriteString("+")
			walk(v.Right)
		case *ast.Assign:
			walk(v.Targets[0])
			b.WriteString("=")
			walk(v.Value)
		case *ast.ExprStmt:
			walk(v.Value)
		default:
			b.WriteString("?")
		}
	}
	walk(n)
	return b.String()
}

func TestPython312FStrings(t *testing.T) {
	tests := []struct{ src, want string }{
		{`x = f"{d["k"]}"`, `x=J(F(d['k']))`},
		{`x = f"{f"{f"{y}"}"}"`, `x=J(F(J(F(J(F(y))))))`},
		{`x = f"{y:{"a"}>10}"`, `x=J(F(y:J(F('a'),'>10')))`},
		{`x = f"{'a' + "b"}" "c"`, `x=J(F('a'+'b'),'c')`},
		{`x = f'''{"""z"""}'''`, `x=J(F('z'))`},
		{`x = f"a{b}c"`, `x=J('a',F(b),'c')`},
	}
	for _, tt := range tests {
		f, err := ParseFile("t.py", []byte(tt.src+"\n"))
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if got := shape(f.Module.Body[0]); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.src, got, tt.want)
		}
	}
	for _, src := range []string{`x = f"{d["k"}"`, `x = f"{"`, `x = f"{x:{"}"`} {
		if _, err := ParseFile("t.py", []byte(src+"\n")); err == nil {
			t.Errorf("%s: accepted", src)
		}
	}
}

func TestPython312TypeParams(t *testing.T) {
	f, err := ParseFile("t.py", []byte("type X = int\ntype Y[T] = list[T]\ndef f[T: int, *Ts, **P](x: T) -> T: pass\nclass C[T]: pass\ntype = 1\ntype.x = 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	b := f.Module.Body
	ta := b[0].(*ast.TypeAlias)
	if ta.Name.(*ast.Name).Id != "X" || ta.Name.(*ast.Name).Ctx != ast.Store || len(ta.TypeParams) != 0 {
		t.Errorf("type X: %+v", ta)
	}
	if tp := b[1].(*ast.TypeAlias).TypeParams; len(tp) != 1 || tp[0].(*ast.TypeVar).Name != "T" {
		t.Errorf("type Y: %+v", tp)
	}
	fd := b[2].(*ast.FunctionDef)
	if len(fd.TypeParams) != 3 {
		t.Fatalf("def f: %+v", fd.TypeParams)
	}
	if v := fd.TypeParams[0].(*ast.TypeVar); v.Name != "T" || v.Bound.(*ast.Name).Id != "int" || v.Attributes().ColOffset != 6 || v.Attributes().EndColOffset != 12 {
		t.Errorf("T: %+v", v)
	}
	if v := fd.TypeParams[1].(*ast.TypeVarTuple); v.Name != "Ts" {
		t.Errorf("Ts: %+v", v)
	}
	if v := fd.TypeParams[2].(*ast.ParamSpec); v.Name != "P" {
		t.Errorf("P: %+v", v)
	}
	if cd := b[3].(*ast.ClassDef); len(cd.TypeParams) != 1 {
		t.Errorf("class C: %+v", cd.TypeParams)
	}
	if _, ok := b[4].(*ast.Assign); !ok {
		t.Errorf("type = 1: %T", b[4])
	}
	if _, ok := b[5].(*ast.Assign); !ok {
		t.Errorf("type.x = 2: %T", b[5])
	}
}

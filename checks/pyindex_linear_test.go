package checks

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/source"
)

// testClassFile is a test file with one class of n test methods, each
// calling two helpers through self, and n class attributes derived from
// the backend list.
func testClassFile(n int) *source.File {
	var b strings.Builder
	b.WriteString("import pytest\n\n_backends = [\"cutile\"]\n\n\nclass Test_Op:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "    _b%d = _backends + []\n", i)
	}
	b.WriteString("\n    def setUp(self):\n        pass\n\n    def check(self, x):\n        return x\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\n    @pytest.mark.parametrize(\"backend\", _backends)\n    def test_op_%d(self, backend):\n        self.setUp()\n        self.check(backend)\n", i)
	}
	return source.ParseFile("tests/ops/test_op.py", []byte(b.String()))
}

// A class's methods are looked up in the file's index: a helper call
// through self finds its method with the class body gone, which a scan of
// the body per call (quadratic in a class's methods) could not.
func TestClassMethodLookedUp(t *testing.T) {
	f := testClassFile(50)
	if f.AST == nil {
		t.Fatal(f.Err)
	}
	x := buildPyIndex(f)
	cls := x.Classes[0]
	var tests []*ast.FunctionDef
	want := map[string]*ast.FunctionDef{}
	for _, s := range cls.Body {
		if fd, ok := s.(*ast.FunctionDef); ok {
			want[fd.Name] = classMethodScan(cls, fd.Name)
			if strings.HasPrefix(fd.Name, "test_") {
				tests = append(tests, fd)
			}
		}
	}
	body := cls.Body
	cls.Body = nil
	defer func() { cls.Body = body }()
	for name, fd := range want {
		if got := x.classMethod(cls, name); got != fd {
			t.Errorf("classMethod(%s) = %v, the scan of the body found %v", name, got, fd)
		}
	}
	if got := x.classMethod(cls, "nosuch"); got != nil {
		t.Errorf("classMethod(nosuch) = %v", got)
	}
	for _, fd := range tests {
		if h := x.helpers(funcScope{Def: fd, Class: cls}); len(h) != 2 {
			t.Fatalf("%s: %d helpers, want setUp and check", fd.Name, len(h))
		}
	}
}

// The backend names derived in a class are computed once per class, not
// once per test method (each a walk of the module and class bodies and a
// fixpoint over their assignments): per method, a class of 800 methods
// and attributes allocates about as much as one of 200. No time is
// measured.
func TestBackendDerivedNamesAllocLinear(t *testing.T) {
	perMethod := func(n int) float64 {
		f := testClassFile(n)
		x := buildPyIndex(f)
		cls := x.Classes[0]
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for _, s := range cls.Body {
			if fd, ok := s.(*ast.FunctionDef); ok && strings.HasPrefix(fd.Name, "test_") {
				if names := backendDerivedNames(x, cls, "_backends"); len(names) != n+1 {
					t.Fatalf("%d names derived from _backends, want %d", len(names), n+1)
				}
			}
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
	}
	small, large := perMethod(200), perMethod(800)
	t.Logf("%.0f bytes per method with 200, %.0f with 800", small, large)
	if large > 1.2*small {
		t.Errorf("backendDerivedNames allocates %.0f bytes per method with 800 methods, %.0f with 200", large, small)
	}
}

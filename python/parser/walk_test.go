package parser

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/tilegym/tilegym-lint/python/ast"
)

var nodeType = reflect.TypeOf((*ast.Node)(nil)).Elem()

// countNodes counts the positioned nodes reachable from v by reflection.
func countNodes(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return countNodes(v.Elem())
	case reflect.Pointer:
		if v.IsNil() {
			return 0
		}
		n := 0
		if v.Type().Implements(nodeType) {
			n = 1
		}
		return n + countNodes(v.Elem())
	case reflect.Struct:
		n := 0
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				n += countNodes(v.Field(i))
			}
		}
		return n
	case reflect.Slice:
		n := 0
		for i := 0; i < v.Len(); i++ {
			n += countNodes(v.Index(i))
		}
		return n
	}
	return 0
}

// TestInspectVisitsEverything checks ast.Inspect against a reflection walk
// on every snippet of the golden file: each positioned node exactly once.
func TestInspectVisitsEverything(t *testing.T) {
	f, err := os.Open("testdata/cpython311.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var g golden
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		file, err := ParseFile("<snippet>", []byte(g.Src))
		if err != nil {
			continue
		}
		want := countNodes(reflect.ValueOf(file.Module.Body))
		seen := map[ast.Node]bool{}
		got := 0
		for _, s := range file.Module.Body {
			ast.Inspect(s, func(n ast.Node) bool {
				if seen[n] {
					t.Errorf("%s: %T visited twice", g.Name, n)
				}
				seen[n] = true
				got++
				return true
			})
		}
		if got != want {
			t.Errorf("%s: %q: Inspect visited %d nodes, reflection finds %d", g.Name, g.Src, got, want)
		}
	}
}

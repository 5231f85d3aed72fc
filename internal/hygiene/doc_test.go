package hygiene

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocCommentsNameTheirDeclaration: a doc comment that starts with a
// name and a verb ("fooScan returns ...") is about the declaration under
// it, so the name is that declaration's. One that names another function
// of the module, or a name in Go's mixed case that is not the
// declaration's, sits above the wrong declaration or carries an old name.
func TestDocCommentsNameTheirDeclaration(t *testing.T) {
	root, files := tracked(t)
	type parsed struct {
		path string
		fset *token.FileSet
		file *ast.File
	}
	var all []parsed
	funcs := map[string]bool{}
	for _, f := range files {
		if !strings.HasSuffix(f, ".go") || strings.HasPrefix(f, "fixtures/") {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, filepath.Join(root, f), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				funcs[fd.Name.Name] = true
			}
		}
		if !strings.HasSuffix(f, "_test.go") {
			all = append(all, parsed{f, fset, file})
		}
	}
	for _, p := range all {
		for _, d := range docs(p.file) {
			if word, bad := misnamed(d.doc, d.names, funcs); bad {
				t.Errorf("%s:%d: the doc comment of %s starts with %s: name the declaration it is about, or move it above %s", p.path, p.fset.Position(d.pos).Line, strings.Join(d.names, ", "), word, word)
			}
		}
	}
}

// A documented is a doc comment and the names it documents.
type documented struct {
	doc   string
	names []string
	pos   token.Pos
}

// docs returns the doc comments of the file's top-level declarations (a
// grouped declaration's own and each of its specs').
func docs(file *ast.File) []documented {
	var out []documented
	add := func(doc *ast.CommentGroup, pos token.Pos, names ...string) {
		if doc != nil && len(names) > 0 {
			out = append(out, documented{doc.Text(), names, pos})
		}
	}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			add(d.Doc, d.Pos(), d.Name.Name)
		case *ast.GenDecl:
			var group []string
			for _, s := range d.Specs {
				var names []string
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = []string{s.Name.Name}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				}
				group = append(group, names...)
				if d.Lparen.IsValid() {
					switch s := s.(type) {
					case *ast.TypeSpec:
						add(s.Doc, s.Pos(), names...)
					case *ast.ValueSpec:
						add(s.Doc, s.Pos(), names...)
					}
				}
			}
			if !d.Lparen.IsValid() {
				add(d.Doc, d.Pos(), group...)
			}
		}
	}
	return out
}

var (
	goIdent    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	mixedCase  = regexp.MustCompile(`^[a-z_]+[A-Z0-9]|^[A-Z][a-z0-9]*[A-Z]`)
	docVerbs   = map[string]bool{}
	docVerbSet = "returns reports is are holds computes reads writes runs checks builds parses finds says gives makes applies loads lists counts tells keeps sets adds records marks"
)

func init() {
	for _, v := range strings.Fields(docVerbSet) {
		docVerbs[v] = true
	}
}

// misnamed reports whether doc starts with a name other than names: a
// name of Go's mixed case, or a function of the module or a lower-case
// word followed by a verb. It returns the name.
func misnamed(doc string, names []string, funcs map[string]bool) (string, bool) {
	fields := strings.Fields(doc)
	if len(fields) == 0 {
		return "", false
	}
	w := strings.TrimRight(fields[0], ":,.;")
	if i := strings.LastIndex(w, "."); i >= 0 {
		w = w[i+1:] // T.Method
	}
	w = strings.TrimSuffix(w, "()")
	for _, n := range names {
		if w == n {
			return "", false
		}
	}
	if !goIdent.MatchString(w) {
		return "", false
	}
	verb := len(fields) > 1 && docVerbs[strings.TrimRight(fields[1], ",")]
	lower := w[0] >= 'a' && w[0] <= 'z'
	return w, mixedCase.MatchString(w) || verb && (lower || funcs[w])
}

func TestMisnamed(t *testing.T) {
	funcs := map[string]bool{"Validate": true, "Load": true}
	for _, c := range []struct {
		doc  string
		want bool
	}{
		{"ListNames implements rules.ListUser.", false},
		{"Validate checks the params' shape.", true}, // another function's doc
		{"reachesScan is the reference.", true},      // mixed case, not the name
		{"listNames returns the lists.", true},       // lower case and a verb
		{"Load errors are reported once.", false},    // a word, then no verb
		{"The lists of the subject.", false},
		{"T.ListNames returns the lists.", false},
		{"ListNames: the lists.", false},
	} {
		if _, got := misnamed(c.doc, []string{"ListNames"}, funcs); got != c.want {
			t.Errorf("misnamed(%q) = %v, want %v", c.doc, got, c.want)
		}
	}
}

package change

// A change to a file every op shares -- a dispatch file, a cuTile
// __init__.py -- is checked by ops too when what it changes can be told
// from the two versions of that file: which ops' stubs, which names of an
// __init__. The other ops' findings are then the same in both snapshots,
// so their checks are left out (see sharedChangeOps).

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/directive"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/source"
)

// sharedChangeOps returns the ops whose findings a change to shared files
// (dispatch files and cuTile __init__s, edited, neither new nor deleted)
// may change, and which the change touches: the caller checks them, with
// the ops of the other changed files, in both snapshots. hl and bl are the
// loaders of the head and the base, whose seed (every dispatch file and
// __init__) is parsed here. ok is false when it cannot be told from the
// two versions of each file, and both snapshots must be checked whole:
//
//   - a file does not parse in one of them;
//   - in a dispatch file, a top-level statement other than a stub changed
//     that may do more than bind names (an if, a call, a star import), or
//     the others only moved;
//   - in an __init__, its shape changed: the backend block, whether it
//     imports functions, whether it has __all__; or it has a # noqa
//     comment that may silence a TG rule (it silences the findings on
//     its line, whichever op's).
//
// Otherwise the ops are: those whose stub (with the comment lines right
// above it) differs, or is touched, or names what a changed statement
// binds (an import, a helper); and, for an __init__, the ops
// that an entry added or removed (an import, an __all__ string), an entry
// on a touched line, or its first import out of order can concern: an op
// whose function name is one of the entry's names, or that is registered
// in a module of the __init__'s package whose path has one of them, or
// whose text has one (a registered function's name). A finding of an op
// about an __init__ depends on nothing else of the file.
//
// both runs a function for each snapshot (0 the head, 1 the base), on two
// goroutines; their seeds are parsed.
func sharedChangeOps(ch *Change, hl, bl *load.Loader, files []string, both func(func(k int, l *load.Loader))) (map[string]bool, bool) {
	for _, l := range []*load.Loader{hl, bl} {
		for _, f := range files {
			if file := l.Repo.Files[f]; file == nil || file.AST == nil {
				return nil, false
			}
		}
	}
	ht, bt := hl.OpTable(), bl.OpTable()
	ops := map[string]bool{}
	// The ops the change touches that the seed knows: edited stubs, and
	// __init__ entries naming an op's function.
	for op := range TouchedOps(ht, ch) {
		ops[op] = true
	}
	words := map[string]map[string]bool{} // __init__ dir -> names its change concerns
	for _, f := range files {
		if _, ok := layout.DispatchScope(hl.Layout, f); ok {
			changed, ok := changedStubs(hl.Repo.Files[f], bl.Repo.Files[f], ht, bt)
			if !ok {
				return nil, false
			}
			for op := range changed {
				ops[op] = true
			}
			continue
		}
		w, ok := initChangeWords(ch, f, ht, bt)
		if !ok {
			return nil, false
		}
		words[path.Dir(f)] = w
	}
	if len(words) > 0 {
		found := make([]map[string]bool, 2)
		both(func(k int, l *load.Loader) { found[k] = initChangeOps(l, words) })
		for _, f := range found {
			for op := range f {
				ops[op] = true
			}
		}
	}
	return ops, true
}

// changedStubs compares the two versions of a dispatch file and returns
// the ops whose stub text differs (or is in one version only), and those
// whose unchanged stub names something that a changed top-level statement
// binds (an import, a helper, a constant: how the stub reads may differ).
// ok is false when a changed statement is one whose effect is not only to
// bind names (an if holding a stub, a call, a star import), or the other
// statements only moved.
func changedStubs(hf, bf *source.File, ht, bt *optable.OpTable) (map[string]bool, bool) {
	hs, hrest := stubTexts(hf, ht)
	bs, brest := stubTexts(bf, bt)
	out := map[string]bool{}
	for op, t := range hs {
		if bs[op] != t {
			out[op] = true
		}
	}
	for op := range bs {
		if _, ok := hs[op]; !ok {
			out[op] = true
		}
	}
	if slices.EqualFunc(hrest, brest, func(a, b restStmt) bool { return a.text == b.text }) {
		return out, true
	}
	count := map[string]int{}
	for _, r := range hrest {
		count[r.text]++
	}
	for _, r := range brest {
		count[r.text]--
	}
	bound := map[string]bool{}
	changed := false
	for _, rest := range [][]restStmt{hrest, brest} {
		for _, r := range rest {
			if count[r.text] == 0 {
				continue
			}
			changed = true
			if r.names == nil {
				return nil, false
			}
			for _, n := range r.names {
				bound[n] = true
			}
		}
	}
	if !changed {
		return nil, false // the same statements, moved
	}
	for op, t := range hs {
		if bs[op] == t {
			for n := range bound {
				if load.HasWord([]byte(t), n) {
					out[op] = true
				}
			}
		}
	}
	return out, true
}

// restStmt is a top-level statement of a dispatch file other than a stub:
// its text, and the names it binds (nil when it may do more than bind
// names).
type restStmt struct {
	text  string
	names []string
}

// stubTexts returns, for a dispatch file of a table, the text of each op's
// stubs in it (from the comment lines right above the first decorator to
// the end of the function; see findSkips), and its other top-level
// statements, in order.
func stubTexts(f *source.File, t *optable.OpTable) (map[string]string, []restStmt) {
	stubOf := map[*ast.FunctionDef]*optable.Op{}
	for _, op := range t.Ops {
		for _, st := range op.Stubs {
			if st.File == f {
				stubOf[st.Def] = op
			}
		}
	}
	lines := strings.SplitAfter(string(f.Src), "\n")
	text := func(from, to int) string {
		from, to = max(from, 1), min(to, len(lines))
		if from > to {
			return ""
		}
		return strings.Join(lines[from-1:to], "")
	}
	stubs := map[string]string{}
	var rest []restStmt
	comments := optable.CommentLines(f)
	for _, s := range f.AST.Module.Body {
		if fd, ok := s.(*ast.FunctionDef); ok && stubOf[fd] != nil {
			op := stubOf[fd]
			start := optable.StubStartLine(&optable.Stub{Def: fd})
			for start > 1 && comments[start-1] {
				start--
			}
			stubs[op.Name] += text(start, fd.End().Line)
			continue
		}
		// A stub not at the top level (under an if) is in the text of the
		// statement holding it, which binds more than names.
		names := boundNames(s)
		ast.Inspect(s, func(n ast.Node) bool {
			if fd, ok := n.(*ast.FunctionDef); ok && stubOf[fd] != nil {
				names = nil
			}
			return names != nil
		})
		rest = append(rest, restStmt{text(s.Pos().Line, s.End().Line), names})
	}
	return stubs, rest
}

// boundNames returns the names a top-level statement binds, or nil when it
// may do more: an import (not of *), a definition, an assignment to names,
// a docstring (which binds none: an empty list).
func boundNames(s ast.Stmt) []string {
	out := []string{}
	var target func(e ast.Expr) bool
	target = func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.Name:
			out = append(out, e.Id)
			return true
		case *ast.Tuple:
			for _, x := range e.Elts {
				if !target(x) {
					return false
				}
			}
			return true
		case *ast.List:
			for _, x := range e.Elts {
				if !target(x) {
					return false
				}
			}
			return true
		case *ast.Starred:
			return target(e.Value)
		}
		return false
	}
	switch s := s.(type) {
	case *ast.Import:
		for _, a := range s.Names {
			if a.Asname != nil {
				out = append(out, *a.Asname)
			} else {
				out = append(out, strings.SplitN(a.Name, ".", 2)[0])
			}
		}
	case *ast.ImportFrom:
		for _, a := range s.Names {
			switch {
			case a.Name == "*":
				return nil
			case a.Asname != nil:
				out = append(out, *a.Asname)
			default:
				out = append(out, a.Name)
			}
		}
	case *ast.FunctionDef:
		out = append(out, s.Name)
	case *ast.AsyncFunctionDef:
		out = append(out, s.Name)
	case *ast.ClassDef:
		out = append(out, s.Name)
	case *ast.Assign:
		for _, t := range s.Targets {
			if !target(t) {
				return nil
			}
		}
	case *ast.AnnAssign:
		if !target(s.Target) {
			return nil
		}
	case *ast.AugAssign:
		if !target(s.Target) {
			return nil
		}
	case *ast.ExprStmt:
		c, ok := s.Value.(*ast.Constant)
		if !ok {
			return nil
		}
		if _, str := c.Value.(string); !str {
			return nil
		}
	default:
		return nil
	}
	return out
}

// initChangeWords compares the two versions of a cuTile __init__.py and
// returns the names its change concerns: those of the entries (imported
// modules and names, __all__ strings) in one version only or on a touched
// line, and of the first import out of order in each. ok is false when its
// shape changed or it has a # noqa comment or an ignore directive (see
// sharedChangeOps).
func initChangeWords(ch *Change, file string, ht, bt *optable.OpTable) (map[string]bool, bool) {
	hi, bi := initOf(ht, file), initOf(bt, file)
	if hi == nil || bi == nil || initShape(hi) != initShape(bi) {
		return nil, false
	}
	for _, in := range []*optable.Init{hi, bi} {
		for _, c := range in.File.AST.Comments {
			if directive.MaySilenceOurs(c.Text) {
				return nil, false
			}
		}
	}
	words := map[string]bool{}
	add := func(s string) {
		for _, w := range strings.Split(s, ".") {
			if w != "" {
				words[w] = true
			}
		}
	}
	he, be := initEntries(hi), initEntries(bi)
	for k, n := range he {
		if be[k] != n {
			add(k.module)
			add(k.name)
		}
	}
	for k, n := range be {
		if he[k] != n {
			add(k.module)
			add(k.name)
		}
	}
	// The entries on touched lines (TouchedOps reads them).
	for n := range touchedInitNames(hi, ch) {
		add(n)
	}
	// The order check names the op of the first import out of order.
	for _, in := range []*optable.Init{hi, bi} {
		for _, blocked := range []bool{false, true} {
			imps := checks.PlainModuleImports(in, blocked)
			for i := 1; i < len(imps); i++ {
				if strings.ToLower(imps[i].Name) < strings.ToLower(imps[i-1].Name) {
					add(imps[i].Name)
					add(imps[i-1].Name)
					break
				}
			}
		}
	}
	return words, true
}

func initOf(t *optable.OpTable, file string) *optable.Init {
	for _, in := range t.Inits {
		if in.File.Path == file {
			return in
		}
	}
	return nil
}

// initShape is what of an __init__ decides where its imports belong and
// where its findings point, other than its entries.
func initShape(in *optable.Init) [4]bool {
	return [4]bool{in.Block != nil, len(in.BlockBody) > 0, len(in.FuncImports) > 0, in.AllNode != nil}
}

type initEntry struct {
	kind         byte // 'm' module import, 'f' function import, 'a' __all__ string
	module, name string
	inBlock      bool
}

// initEntries counts the entries of an __init__.
func initEntries(in *optable.Init) map[initEntry]int {
	out := map[initEntry]int{}
	for _, x := range in.ModuleImports {
		out[initEntry{'m', x.Module, x.Name, x.InBlock}]++
	}
	for _, x := range in.FuncImports {
		out[initEntry{'f', x.Module, x.Name, x.InBlock}]++
	}
	for _, c := range in.All {
		out[initEntry{kind: 'a', name: fmt.Sprint(c.Value)}]++
	}
	return out
}

// initChangeOps parses, in a snapshot, the files under the packages of
// changed __init__s that can concern their names (see sharedChangeOps),
// and returns the ops concerned.
func initChangeOps(l *load.Loader, words map[string]map[string]bool) map[string]bool {
	var todo []int
	concerns := make([]bool, len(l.Repo.Paths))
	for i, p := range l.Repo.Paths {
		for dir, ws := range words {
			if !layout.UnderDir(dir, p) {
				continue
			}
			hit := false
			for _, part := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(p, dir+"/"), ".py"), "/") {
				if ws[part] {
					hit = true
				}
			}
			if !hit && l.Registers[i] {
				for w := range ws {
					if hit = load.HasWord(l.Data[i], w); hit {
						break
					}
				}
				// An identifier with non-ASCII letters may normalize to one.
				hit = hit || l.NonASCII[i] && len(load.WordSet(ws).Find(l.Data[i])) > 0
			}
			if hit {
				concerns[i] = true
				if !l.Parsed[i] {
					todo = append(todo, i)
				}
			}
		}
	}
	sort.Ints(todo)
	l.Parse(todo)
	t := l.OpTable()
	out := map[string]bool{}
	for _, op := range t.Ops {
		for _, im := range op.Impls {
			if i, ok := l.Index[im.File.Path]; ok && concerns[i] {
				out[op.Name] = true
			}
		}
		for dir, ws := range words {
			if ws[op.Func] && op.Scope != nil && layout.UnderDir(strings.TrimSuffix(layout.ExpandSuite(op.Scope.CuTile, op.Suite), "/"), dir+"/__init__.py") {
				out[op.Name] = true
			}
		}
	}
	return out
}

package checks

// The constraints of a pattern on its metavariables (where).

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/pattern"
	"github.com/tilegym/tilegym-lint/rules"
)

// Where constrains a metavariable. Numeric constraints hold for an integer
// literal; for a tuple or list, for any of its elements (the finding then
// points at the first such element).
type Where struct {
	Regex      string   `toml:"regex"`        // its text matches
	NotRegex   string   `toml:"not-regex"`    // its text does not match
	In         string   `toml:"in"`           // its text (a name: its qualified name) is in this [lists] list
	NotIn      string   `toml:"not-in"`       // ... is not in it
	Range      []int64  `toml:"range"`        // an integer literal in [lo, hi]
	Outside    []int64  `toml:"outside"`      // an integer literal not in [lo, hi]
	PowerOfTwo *bool    `toml:"power-of-two"` // an integer literal that is (true) or is not (false) a power of two
	DefinedAs  string   `toml:"defined-as"`   // a name of a def of the file in this context ("kernel", "@name")
	Kinds      []string `toml:"kinds"`        // its node type is one of these ("GeneratorExp", "Lambda")
	Decorated  []string `toml:"decorated"`    // a name of a def of the file with a decorator matching one of these patterns
	// A parameter of the enclosing def whose annotation matches none of
	// these patterns (directly, as a string, or through a module-level
	// alias: ConstInt = ct.Constant[int]).
	ParamNotAnnotated []string `toml:"parameter-not-annotated"`
	// The text regex and not-regex test is the binding's whole source
	// followed by the values its function assigns to the names in it (each
	// name's last assignment above, three deep): tl.load(ptrs) is tested
	// with what ptrs was computed from.
	WithLocals bool `toml:"with-locals"`
	paramNot   []*pattern.Pattern
	regex      *regexp.Regexp
	decorated  []*pattern.Pattern
	notRegex   *regexp.Regexp
	definedAs  *context
}

func (w *Where) compile(name string) error {
	var errs []error
	var err error
	if w.Regex != "" {
		if w.regex, err = regexp.Compile(w.Regex); err != nil {
			errs = append(errs, fmt.Errorf("where.%s.regex: %v", name, err))
		}
	}
	if w.NotRegex != "" {
		if w.notRegex, err = regexp.Compile(w.NotRegex); err != nil {
			errs = append(errs, fmt.Errorf("where.%s.not-regex: %v", name, err))
		}
	}
	for _, r := range [][]int64{w.Range, w.Outside} {
		if r != nil && (len(r) != 2 || r[0] > r[1]) {
			errs = append(errs, fmt.Errorf("where.%s: a range is [lo, hi] with lo <= hi", name))
		}
	}
	for _, d := range w.ParamNotAnnotated {
		pt, err := pattern.Parse(d)
		if err != nil {
			errs = append(errs, fmt.Errorf("where.%s.parameter-not-annotated: %v", name, err))
			continue
		}
		w.paramNot = append(w.paramNot, pt)
	}
	for _, d := range w.Decorated {
		pt, err := pattern.Parse(d)
		if err != nil {
			errs = append(errs, fmt.Errorf("where.%s.decorated: %v", name, err))
			continue
		}
		w.decorated = append(w.decorated, pt)
	}
	if w.DefinedAs != "" {
		cs, err := parseContexts([]string{w.DefinedAs})
		errs = append(errs, err)
		if len(cs) == 1 {
			if cs[0].pat != nil || cs[0].name != "kernel" && cs[0].decorator == "" {
				errs = append(errs, fmt.Errorf("where.%s.defined-as: want kernel or @decorator", name))
			}
			w.definedAs = cs[0]
		}
	}
	return errors.Join(errs...)
}

// check returns the test of a metavariable's binding against the
// constraints of where, made as the matcher binds it (nil: none).
func (p *PatternParams) check(fm *fileMatcher) func(string, ast.Node) bool {
	if len(p.Where) == 0 {
		return nil
	}
	return func(name string, x ast.Node) bool {
		w := p.Where[name]
		if w == nil {
			return true
		}
		_, ok := w.holds(fm, p, x)
		return ok
	}
}

// holds returns the node a match with bindings b is reported at, if not
// the match's own: the element of a tuple a numeric constraint held for,
// or the name a parameter-not-annotated constraint found. The matcher
// checked every constraint as it bound (check), so only the constraints
// that may give such a node (atWhere) are run again.
func (p *PatternParams) holds(fm *fileMatcher, b pattern.Bindings) (at ast.Node, ok bool) {
	for _, name := range p.atWhere {
		w := p.Where[name]
		n := b[name]
		if n == nil {
			continue
		}
		elt, ok := w.holds(fm, p, n)
		if !ok {
			return nil, false
		}
		if elt != nil && (p.Report == "" || p.Report == name) {
			at = elt
		}
	}
	return at, true
}

// givesAt reports whether holds may return a node other than the
// binding: with a numeric or a parameter-not-annotated constraint.
func (w *Where) givesAt() bool {
	return w.Range != nil || w.Outside != nil || w.PowerOfTwo != nil || len(w.ParamNotAnnotated) > 0
}

func (w *Where) holds(fm *fileMatcher, p *PatternParams, n ast.Node) (ast.Node, bool) {
	if len(w.Kinds) > 0 && !slices.Contains(w.Kinds, nodeKind(n)) {
		return nil, false
	}
	if w.regex != nil || w.notRegex != nil || w.In != "" || w.NotIn != "" {
		txt := bindingText(fm, n)
		if w.WithLocals {
			txt = fm.withLocals(n, 3)
		}
		if w.regex != nil && !w.regex.MatchString(txt) {
			return nil, false
		}
		if w.notRegex != nil && w.notRegex.MatchString(txt) {
			return nil, false
		}
		// A value a gated item may or may not make a member (the repository
		// admits versions on both sides of the gate, or declares none) meets
		// neither constraint: a finding must hold for every admitted version.
		if w.In != "" && p.lists[w.In].Member(txt, fm.admitted) != rules.Member {
			return nil, false
		}
		if w.NotIn != "" && p.lists[w.NotIn].Member(txt, fm.admitted) != rules.NotMember {
			return nil, false
		}
	}
	if w.definedAs != nil {
		// A name, or a def's own name (def $K(...)).
		var id string
		switch x := n.(type) {
		case *ast.Name:
			id = x.Id
		case *pattern.Ident:
			id = x.Id
		}
		def := fm.defs[id]
		if def == nil {
			return nil, false
		}
		dec := w.definedAs.decorator
		if w.definedAs.name == "kernel" {
			dec = kernelDecorator
		}
		if !fm.decorated(def, dec) {
			return nil, false
		}
	}
	if len(w.decorated) > 0 && !fm.decoratedLike(n, w.decorated) {
		return nil, false
	}
	if len(w.paramNot) > 0 {
		e, ok := fm.paramNotAnnotated(n, w.paramNot)
		if !ok {
			return nil, false
		}
		if e != n {
			return e, true
		}
	}
	if w.Range == nil && w.Outside == nil && w.PowerOfTwo == nil {
		return nil, true
	}
	var elts []ast.Expr
	switch v := n.(type) {
	case *ast.Tuple:
		elts = v.Elts
	case *ast.List:
		elts = v.Elts
	case ast.Expr:
		elts = []ast.Expr{v}
	}
	for _, e := range elts {
		if w.intHolds(e) {
			if _, one := n.(ast.Expr); len(elts) == 1 && one && ast.Node(e) == n {
				return nil, true
			}
			return e, true
		}
	}
	return nil, false
}

// intHolds checks the numeric constraints on an integer literal.
func (w *Where) intHolds(e ast.Expr) bool {
	c, ok := e.(*ast.Constant)
	if !ok {
		return false
	}
	v, ok := c.Value.(*big.Int)
	if !ok || !v.IsInt64() {
		return false
	}
	x := v.Int64()
	if w.Range != nil && (x < w.Range[0] || x > w.Range[1]) {
		return false
	}
	if w.Outside != nil && x >= w.Outside[0] && x <= w.Outside[1] {
		return false
	}
	if w.PowerOfTwo != nil && (x > 0 && x&(x-1) == 0) != *w.PowerOfTwo {
		return false
	}
	return true
}

// bindingText is what constraints test of a binding: a name's qualified
// name, a string's value, else its source text.
func bindingText(fm *fileMatcher, n ast.Node) string {
	switch v := n.(type) {
	case *pattern.Ident:
		return v.Id
	case *ast.Name:
		return fm.resolve(v)
	case *ast.Attribute:
		return fm.resolve(v)
	case *ast.Alias:
		return fm.resolve(v)
	case *ast.Constant:
		if s, ok := v.Value.(string); ok {
			return s
		}
	}
	return nodeLine(fm.f, n)
}

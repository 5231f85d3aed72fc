package requires

import (
	"fmt"
	"strings"
)

// A Bound is one end of a Range: a version, included or not.
type Bound struct {
	V    Version
	Incl bool
}

// A Range is an interval of versions: those at or above Lo (none: no
// lower bound) and at or below Hi (none: no upper bound). The versions a
// specifier set admits are such an interval, but for the holes "!="
// makes, which a Range leaves out (it is then a little larger than the
// set: see ParseSpecifiers).
type Range struct {
	Lo, Hi *Bound
}

// All is the range of every version: what a dependency declared with no
// version admits.
var All = Range{}

func (r Range) String() string {
	var parts []string
	if r.Lo != nil {
		op := ">"
		if r.Lo.Incl {
			op = ">="
		}
		parts = append(parts, op+r.Lo.V.String())
	}
	if r.Hi != nil {
		op := "<"
		if r.Hi.Incl {
			op = "<="
		}
		parts = append(parts, op+r.Hi.V.String())
	}
	if len(parts) == 0 {
		return "any version"
	}
	if r.Lo != nil && r.Hi != nil && r.Lo.Incl && r.Hi.Incl && Compare(r.Lo.V, r.Hi.V) == 0 {
		return "==" + r.Lo.V.String()
	}
	return strings.Join(parts, ",")
}

// Empty reports whether no version is in the range.
func (r Range) Empty() bool {
	if r.Lo == nil || r.Hi == nil {
		return false
	}
	c := Compare(r.Lo.V, r.Hi.V)
	return c > 0 || c == 0 && !(r.Lo.Incl && r.Hi.Incl)
}

// Intersect returns the versions in both ranges.
func (r Range) Intersect(o Range) Range {
	return Range{Lo: higherLo(r.Lo, o.Lo), Hi: lowerHi(r.Hi, o.Hi)}
}

// Hull returns the smallest range holding both (their union, and the
// versions between them).
func (r Range) Hull(o Range) Range {
	out := Range{}
	if r.Lo != nil && o.Lo != nil {
		out.Lo = r.Lo
		if higherLo(r.Lo, o.Lo) == r.Lo {
			out.Lo = o.Lo
		}
	}
	if r.Hi != nil && o.Hi != nil {
		out.Hi = r.Hi
		if lowerHi(r.Hi, o.Hi) == r.Hi {
			out.Hi = o.Hi
		}
	}
	return out
}

// Within reports whether every version of r is in o.
func (r Range) Within(o Range) bool {
	if r.Empty() {
		return true
	}
	if o.Lo != nil && (r.Lo == nil || !sameBound(higherLo(r.Lo, o.Lo), r.Lo)) {
		return false
	}
	if o.Hi != nil && (r.Hi == nil || !sameBound(lowerHi(r.Hi, o.Hi), r.Hi)) {
		return false
	}
	return true
}

// Disjoint reports whether no version is in both ranges.
func (r Range) Disjoint(o Range) bool { return r.Intersect(o).Empty() }

func sameBound(a, b *Bound) bool {
	return a == b || a != nil && b != nil && a.Incl == b.Incl && Compare(a.V, b.V) == 0
}

// higherLo returns the stricter of two lower bounds (nil: none).
func higherLo(a, b *Bound) *Bound {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	switch c := Compare(a.V, b.V); {
	case c > 0:
		return a
	case c < 0:
		return b
	}
	if !a.Incl {
		return a
	}
	return b
}

// lowerHi returns the stricter of two upper bounds (nil: none).
func lowerHi(a, b *Bound) *Bound {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	switch c := Compare(a.V, b.V); {
	case c < 0:
		return a
	case c > 0:
		return b
	}
	if !a.Incl {
		return a
	}
	return b
}

// ParseSpecifiers parses a PEP 440 specifier set (">=1.3.0", ">=1.2,<2",
// "~=1.4.2", "==1.5.*"; "" is any version) into the range of versions it
// admits. The subset a range can hold: "!=" excludes nothing (the range
// is then larger than the set, which callers that must not overstate what
// a project admits can live with); "===" is "==" when its operand is a
// version; "<V" and ">V" are the plain intervals (PEP 440 also excludes
// V's pre-releases and post-releases from them: the range is again a
// little larger). An unknown operator or a malformed version is an error.
func ParseSpecifiers(s string) (Range, error) {
	r := All
	s = strings.TrimSpace(s)
	if s == "" {
		return r, nil
	}
	for _, part := range strings.Split(s, ",") {
		p, err := parseSpecifier(strings.TrimSpace(part))
		if err != nil {
			return Range{}, err
		}
		r = r.Intersect(p)
	}
	return r, nil
}

var operators = []string{"===", "~=", "==", "!=", "<=", ">=", "<", ">"}

func parseSpecifier(s string) (Range, error) {
	op := ""
	for _, o := range operators {
		if strings.HasPrefix(s, o) {
			op = o
			break
		}
	}
	if op == "" {
		if s == "" {
			return Range{}, fmt.Errorf("empty version specifier (a stray comma?)")
		}
		return Range{}, fmt.Errorf("version specifier %q: want an operator (>=, <=, >, <, ==, !=, ~=, ===) and a version", s)
	}
	arg := strings.TrimSpace(s[len(op):])
	wild := false
	if op == "==" || op == "!=" {
		if a, ok := strings.CutSuffix(arg, ".*"); ok {
			arg, wild = a, true
		}
	}
	v, err := ParseVersion(arg)
	if err != nil {
		return Range{}, fmt.Errorf("version specifier %q: %v", s, err)
	}
	switch op {
	case "!=":
		return All, nil
	case ">=":
		return Range{Lo: &Bound{v, true}}, nil
	case ">":
		return Range{Lo: &Bound{v, false}}, nil
	case "<=":
		return Range{Hi: &Bound{v, true}}, nil
	case "<":
		return Range{Hi: &Bound{v, false}}, nil
	case "===", "==":
		if wild {
			if v.Pre != "" || v.Post >= 0 || v.Dev >= 0 || v.Local != "" {
				return Range{}, fmt.Errorf("version specifier %q: a prefix match (.*) takes a release such as 1.5", s)
			}
			return Range{Lo: &Bound{v, true}, Hi: &Bound{nextRelease(v, len(v.Release)), false}}, nil
		}
		return Range{Lo: &Bound{v, true}, Hi: &Bound{v, true}}, nil
	case "~=":
		if len(v.Release) < 2 {
			return Range{}, fmt.Errorf("version specifier %q: ~= needs a release of two numbers or more (~=1.4)", s)
		}
		return Range{Lo: &Bound{v, true}, Hi: &Bound{nextRelease(v, len(v.Release)-1), false}}, nil
	}
	return Range{}, fmt.Errorf("version specifier %q: unsupported operator %s", s, op)
}

// nextRelease returns the first development release after every version
// whose release starts with the first n numbers of v's: 1.5 (n=2) gives
// 1.6.dev0.
func nextRelease(v Version, n int) Version {
	rel := append([]int(nil), v.Release[:n]...)
	rel[n-1]++
	parts := make([]string, len(rel))
	for i, x := range rel {
		parts[i] = fmt.Sprint(x)
	}
	text := strings.Join(parts, ".") + ".dev0"
	if v.Epoch != 0 {
		text = fmt.Sprintf("%d!%s", v.Epoch, text)
	}
	return Version{Epoch: v.Epoch, Release: rel, Post: -1, Dev: 0, text: text}
}

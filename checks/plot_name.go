package checks

import (
	"errors"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// PlotNameAnalyzer implements kind "plot-name".
var PlotNameAnalyzer = &Analyzer{
	Name:         "plot-name",
	Placeholders: []string{"op", "file", "func", "plot_name", "suffix", "ylabel"},
	Doc: `Reports a plot name without the metric suffix of its y label.

For every call of the config constructor (triton.testing.Benchmark), the
plot name keyword must end in the suffix that the labels table pairs with the
ylabel keyword ("GB/s" -> "-GBps", "TFLOPS" -> "-TFLOPS"). Values are read
through string literals, f-strings (their last literal part), concatenations,
local and module variables and the parameters of the enclosing function,
resolved at each call of that function in the file. An f-string ending in a
replacement field is judged by what the field resolves to the same way; a
field whose value is unknown (a dtype name, a number) cannot end in the
suffix and is reported. A value that is not a string at all is not judged.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(plotNameParams) },
	Run:      runPlotName,
}

type plotNameParams struct {
	Calls   []string          `toml:"calls"`    // qualified names of the config constructor
	PlotKw  string            `toml:"plot_kw"`  // "plot_name"
	LabelKw string            `toml:"label_kw"` // "ylabel"
	Labels  map[string]string `toml:"labels"`   // ylabel -> plot name suffix
}

func runPlotName(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*plotNameParams)
		if p == nil || len(p.Calls) == 0 {
			continue
		}
		var suffixes []string
		for _, s := range p.Labels {
			suffixes = append(suffixes, s)
		}
		sort.Strings(suffixes)
		for _, sf := range stepFiles(pass, tab, 5, rule) {
			x := sf.Index
			for _, s := range x.Body() {
				var enclosing *ast.FunctionDef
				if fd, ok := s.(*ast.FunctionDef); ok {
					enclosing = fd
				}
				for _, c := range x.CallsTo(s, p.Calls) {
					plotExpr := astutil.CallArg(c, -1, p.PlotKw)
					if plotExpr == nil {
						continue
					}
					plots := x.ResolveStrings(enclosing, plotExpr, 0)
					labels := x.ResolveStrings(enclosing, astutil.CallArg(c, -1, p.LabelKw), 0)
					for _, pv := range x.resolveTrailingFields(plots) {
						want := suffixes
						label := ""
						if len(labels) == 1 {
							label = labels[0].Value
							if sfx, ok := p.Labels[label]; ok {
								want = []string{sfx}
							}
						}
						ok := false
						for _, w := range want {
							if strings.HasSuffix(pv.Value, w) {
								ok = true
							}
						}
						if ok {
							continue
						}
						expected := strings.Join(want, " or ")
						reportAt(pass, rule, sf.Primary.Name, sf.File, pv.Node, map[string]string{
							"func": sf.Primary.Func, "plot_name": `"` + pv.Value + `"`, "ylabel": `"` + label + `"`, "suffix": expected}, nil, nil)
					}
				}
			}
		}
	}
	return nil, nil
}

// resolvedString is a statically known string (replacement fields of
// f-strings shown as "{}") and the node that spells it.
type resolvedString struct {
	Value string
	Node  ast.Node
	Fn    *ast.FunctionDef // the function the string is spelled in (nil: module level)
}

// resolveTrailingFields replaces a trailing replacement field of each
// f-string value by the values its expression resolves to (a name bound to
// a string in scope, a parameter resolved at its calls). A field that does
// not resolve stays "{}": its value is unknown (a dtype name, a number), so
// it cannot be shown to end in a metric suffix.
func (x *pyIndex) resolveTrailingFields(vals []resolvedString) []resolvedString {
	var out []resolvedString
	for _, v := range vals {
		js, ok := v.Node.(*ast.JoinedStr)
		if !ok || !strings.HasSuffix(v.Value, "{}") || len(js.Values) == 0 {
			out = append(out, v)
			continue
		}
		fv, ok := js.Values[len(js.Values)-1].(*ast.FormattedValue)
		if !ok {
			out = append(out, v)
			continue
		}
		head := strings.TrimSuffix(v.Value, "{}")
		subs := x.ResolveStrings(v.Fn, fv.Value, 1)
		if len(subs) == 0 {
			out = append(out, v)
			continue
		}
		for _, r := range subs {
			out = append(out, resolvedString{Value: head + r.Value, Node: v.Node, Fn: v.Fn})
		}
	}
	return out
}

// ResolveStrings returns the string values e can take: a literal, an
// f-string or a concatenation; a name assigned in fn (the last assignment)
// or at module level; a parameter of fn, resolved at each call of fn in the
// file (by position or keyword, else its default). depth bounds the
// parameter chain.
func (x *pyIndex) ResolveStrings(fn *ast.FunctionDef, e ast.Expr, depth int) []resolvedString {
	if e == nil || depth > 3 {
		return nil
	}
	if s, _, ok := astutil.StringTemplate(e); ok {
		return []resolvedString{{Value: s, Node: e, Fn: fn}}
	}
	if b, ok := e.(*ast.BinOp); ok && b.Op == ast.Add {
		// "prefix-" + str(dtype) + "-GBps": only the end matters.
		var out []resolvedString
		for _, r := range x.ResolveStrings(fn, b.Right, depth+1) {
			out = append(out, resolvedString{Value: "{}" + r.Value, Node: r.Node, Fn: r.Fn})
		}
		return out
	}
	name, ok := e.(*ast.Name)
	if !ok {
		return nil
	}
	if fn != nil {
		var last ast.Expr
		for _, s := range fn.Body {
			ast.Inspect(s, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FunctionDef, *ast.Lambda:
					return false
				case *ast.Assign:
					if len(n.Targets) == 1 {
						if t, ok := n.Targets[0].(*ast.Name); ok && t.Id == name.Id && n.Pos().Before(e.Pos()) {
							last = n.Value
						}
					}
				}
				return true
			})
		}
		if last != nil {
			return x.ResolveStrings(fn, last, depth+1)
		}
		for _, prm := range astutil.Params(fn.Args) {
			if prm.Name != name.Id {
				continue
			}
			var out []resolvedString
			callers := x.callersOf(fn.Name)
			for _, cs := range callers {
				arg := astutil.CallArg(cs.Call, prm.Index, prm.Name)
				if arg == nil {
					arg = prm.Default
					out = append(out, x.ResolveStrings(nil, arg, depth+1)...)
					continue
				}
				out = append(out, x.ResolveStrings(cs.In, arg, depth+1)...)
			}
			if len(callers) == 0 && prm.Default != nil {
				out = append(out, x.ResolveStrings(nil, prm.Default, depth+1)...)
			}
			return out
		}
	}
	for _, s := range listAssigns(x.Body(), []string{name.Id}) {
		if a, ok := s.(*ast.Assign); ok {
			return x.ResolveStrings(nil, a.Value, depth+1)
		}
	}
	return nil
}

// callSite is a call and the module-level function it is in (nil at
// module level).
type callSite struct {
	Call *ast.Call
	In   *ast.FunctionDef
}

// callersOf returns the calls of a module-level function by name.
func (x *pyIndex) callersOf(name string) []callSite {
	var out []callSite
	for _, s := range x.Body() {
		var in *ast.FunctionDef
		if fd, ok := s.(*ast.FunctionDef); ok {
			in = fd
		}
		for _, c := range x.File.CallsIn(s) {
			if n, ok := c.Func.(*ast.Name); ok && n.Id == name {
				out = append(out, callSite{Call: c, In: in})
			}
		}
	}
	return out
}

func (p *plotNameParams) Validate() error {
	var err error
	if p.PlotKw == "" || p.LabelKw == "" {
		err = errors.New("plot_kw and label_kw: want the keyword names")
	}
	if len(p.Labels) == 0 {
		err = errors.Join(err, errors.New("labels: want at least one ylabel -> suffix pair"))
	}
	return errors.Join(needList("calls", p.Calls), err)
}

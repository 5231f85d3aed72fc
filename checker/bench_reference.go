package checker

import (
	"errors"
)

// BenchReferenceAnalyzer implements kind "bench-reference".
var BenchReferenceAnalyzer = &Analyzer{
	Name: "bench-reference",
	Doc: `Reports a benchmark that does not register the op's reference implementation.

The benchmark compares against a plain PyTorch reference run through the same
dispatcher, so the file must register one for every op it benchmarks:
register_impl("<op>", "torch")(reference_<func>) or the decorator form
@register_impl("<op>", backend="torch"). The backend is the second positional
argument or the backend keyword.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(benchReferenceParams) },
	Run:      runBenchReference,
}

type benchReferenceParams struct {
	Register []string `toml:"register"` // qualified names of register_impl
	Backend  string   `toml:"backend"`  // the reference backend: "torch"
	Name     string   `toml:"name"`     // the reference function's name template, for messages
}

func init() { Register(BenchReferenceAnalyzer) }

func runBenchReference(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*benchReferenceParams)
		if p == nil {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 5, rule) {
			x := sf.Index
			registered := map[string]bool{}
			for _, s := range x.body() {
				for _, c := range x.callsTo(s, p.Register) {
					name, ok1 := StringValue(CallArg(c, 0, "name"))
					be, ok2 := StringValue(CallArg(c, 1, "backend"))
					if ok1 && ok2 && be == p.Backend {
						registered[name] = true
					}
				}
			}
			for _, op := range sf.Ops {
				if registered[op.Name] || !tab.IsAbout(sf.File, op) || !x.reaches(op, p.Register) {
					continue
				}
				// Anchor on the reference function when it exists (defined
				// but not registered), else at the top of the file.
				anchor := x.anchorStmt()
				if fd := x.Funcs[fill(p.Name, op)]; fd != nil {
					anchor = defNode(fd)
				}
				pass.Reportf(rule, op.Name, sf.File, anchor, map[string]string{
					"func": op.Func, "name": fill(p.Name, op), "backend": p.Backend})
			}
		}
	}
	return nil, nil
}

func (p *benchReferenceParams) Validate() error {
	var err error
	if p.Backend == "" {
		err = errors.New("backend: want the reference backend")
	}
	return errors.Join(err, needList("register", p.Register))
}

package checks

import (
	"errors"
	"slices"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// ConfigKeysAnalyzer implements kind "config-keys".
var ConfigKeysAnalyzer = &Analyzer{
	Name:         "config-keys",
	Placeholders: []string{"op", "file", "subject", "kernel", "keyword", "configs"},
	Doc: `Reports the keywords of a launch of an autotuned kernel that its configs set too.

A kernel is autotuned when a decorator of its def is a call of "decorator"
(qualified: triton.autotune); its configs are the decorator's argument
"configs" (a keyword, else the first argument): a literal list, a list
comprehension, a name the module assigned one, or a call of a config
generator of the file or of the module it is imported from (as the
config-count kind follows them). The keys the configs set are the string
keys of the dict each call of "config" (triton.Config) in them is given --
a {...} literal or dict(K=...), at its first argument or as "kwargs". Each
launch kernel[grid](...) of such a kernel (the kernel a def of the file or
imported from one) that passes one of those keys as a keyword is reported at
the keyword. Keys computed at run time are not known, so a finding is never
a guess. This is a computation over two places, hence a kind of its own.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(ConfigKeysParams) },
	Run:      runConfigKeys,
}

// ConfigKeysParams are the params of kind "config-keys".
type ConfigKeysParams struct {
	Decorator string   `toml:"decorator"` // the autotuning decorator, qualified
	Configs   string   `toml:"configs"`   // its keyword holding the configs (else its first argument)
	Config    string   `toml:"config"`    // the config constructor, qualified
	Exclude   []string `toml:"exclude"`   // globs of files the rule does not look at
	_         struct{}
}

// Validate checks the params.
func (p *ConfigKeysParams) Validate() error {
	var errs []error
	if p.Decorator == "" {
		errs = append(errs, errors.New("give decorator, the qualified name of the autotuning decorator"))
	}
	if p.Config == "" {
		errs = append(errs, errors.New("give config, the qualified name of the config constructor"))
	}
	return errors.Join(errs...)
}

// tunedKeys are the keys a kernel's configs set, and the configs' name
// for a message.
type tunedKeys struct {
	keys    []string
	configs string
}

// keysOf returns the keys the configs of an autotuned kernel def set (nil
// when the def is not autotuned or no key is known).
func (p *ConfigKeysParams) keysOf(c *spaceCounter, f *source.File, def *ast.FunctionDef) *tunedKeys {
	im := f.Imports()
	for _, d := range def.DecoratorList {
		call, ok := d.(*ast.Call)
		if !ok || !im.Is(call.Func, []string{p.Decorator}) {
			continue
		}
		arg := astutil.CallArg(call, 0, p.Configs)
		s := c.space(f, nil, arg, 0)
		if s == nil {
			return nil
		}
		// Named for a message: the generator (block_configs()), the
		// module's name (_CONFIGS), else the literal, shortened.
		name := "[...]"
		switch v := arg.(type) {
		case *ast.Name:
			name = v.Id
		case *ast.Call:
			name = s.name + "()"
		}
		cim := s.file.Imports()
		var keys []string
		ast.Inspect(s.at, func(n ast.Node) bool {
			call, ok := n.(*ast.Call)
			if ok && cim.Is(call.Func, []string{p.Config}) {
				for _, k := range dictKeys(astutil.CallArg(call, 0, "kwargs")) {
					if !slices.Contains(keys, k) {
						keys = append(keys, k)
					}
				}
			}
			return true
		})
		if len(keys) == 0 {
			return nil
		}
		return &tunedKeys{keys: keys, configs: name}
	}
	return nil
}

// dictKeys returns the string keys of a dict display ({"A": 1}) or of a
// dict(A=1) call; keys that are not literal are left out.
func dictKeys(e ast.Expr) []string {
	var out []string
	switch v := e.(type) {
	case *ast.Dict:
		for _, k := range v.Keys {
			if k == nil {
				continue // a **mapping entry
			}
			if s, ok := astutil.StringValue(k); ok {
				out = append(out, s)
			}
		}
	case *ast.Call:
		if n, ok := v.Func.(*ast.Name); ok && n.Id == "dict" {
			for _, k := range v.Keywords {
				if k != nil && k.Arg != nil {
					out = append(out, *k.Arg)
				}
			}
		}
	}
	return out
}

func runConfigKeys(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	c := &spaceCounter{repo: pass.Repo}
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*ConfigKeysParams)
		if p == nil {
			continue
		}
		known := map[*ast.FunctionDef]*tunedKeys{}
		for _, f := range ruleFiles(pass, rule.Files, p.Exclude) {
			fileNodesOf(f).walk(func(path []ast.Node) {
				call, ok := path[len(path)-1].(*ast.Call)
				if !ok || len(call.Keywords) == 0 {
					return
				}
				sub, ok := call.Func.(*ast.Subscript)
				if !ok {
					return
				}
				// The kernel: a def of the file or of the module it is
				// imported from (found as a config generator is).
				def, df := c.generator(f, sub.Value)
				if def == nil {
					return
				}
				tk, seen := known[def]
				if !seen {
					tk = p.keysOf(c, df, def)
					known[def] = tk
				}
				if tk == nil {
					return
				}
				for _, k := range call.Keywords {
					if k != nil && k.Arg != nil && slices.Contains(tk.keys, *k.Arg) {
						reportFamily(pass, tab, rule, f, k, map[string]string{
							"kernel": def.Name, "keyword": *k.Arg, "configs": tk.configs,
						})
					}
				}
			})
		}
	}
	return nil, nil
}

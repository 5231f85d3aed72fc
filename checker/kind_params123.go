package checker

// Validation of the parameters of the Step 1-3 and cross-step kinds: the
// catalog loader calls Validate after decoding a rule's params, so a typo
// in rules.toml (check = "kwarg") is an error, not a rule that never fires.

import (
	"fmt"
	"strings"
)

func oneOf(field, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return fmt.Errorf("%s = %q: want one of %s", field, v, strings.Join(allowed, ", "))
}

func (p *dispatchStubParams) Validate() error {
	if err := oneOf("check", p.Check, "unique", "name", "body", "kwargs", "param", "docstring"); err != nil {
		return err
	}
	switch {
	case p.Check == "body" && p.Exception == "":
		return fmt.Errorf(`check = "body" needs exception`)
	case p.Check == "param" && p.Param == "":
		return fmt.Errorf(`check = "param" needs param`)
	}
	return nil
}

func (p *implModuleParams) Validate() error {
	if err := oneOf("check", p.Check, "exists", "imports", "kernel", "launch", "constant", "out"); err != nil {
		return err
	}
	switch {
	case p.Check == "imports" && len(p.Modules) == 0 && len(p.RegisterImpl) == 0:
		return fmt.Errorf(`check = "imports" needs modules or register_impl`)
	case (p.Check == "kernel" || p.Check == "constant") && len(p.Kernel) == 0:
		return fmt.Errorf(`check = %q needs kernel`, p.Check)
	case p.Check == "launch" && len(p.Launch) == 0:
		return fmt.Errorf(`check = "launch" needs launch`)
	case p.Check == "constant" && (len(p.Constant) == 0 || p.TileModule == ""):
		return fmt.Errorf(`check = "constant" needs constant and tile_module`)
	case p.Check == "out" && p.Param == "":
		return fmt.Errorf(`check = "out" needs param`)
	}
	for _, a := range p.ConstArgs {
		fn, spec, ok := strings.Cut(a, ":")
		if !ok || fn == "" || spec == "" {
			return fmt.Errorf("const_args entry %q: want \"function:position-or-keyword[,...]\"", a)
		}
	}
	return nil
}

func (p *cutileInitParams) Validate() error {
	return oneOf("check", p.Check, "module", "order", "function", "all")
}

func (p *opNamesParams) Validate() error {
	if err := oneOf("check", p.Check, "module", "test", "benchmark", "bench-function"); err != nil {
		return err
	}
	if p.Check == "bench-function" && len(p.Decorator) == 0 {
		return fmt.Errorf(`check = "bench-function" needs decorator`)
	}
	if p.Check != "module" && len(p.Names) == 0 {
		return fmt.Errorf("check = %q needs names", p.Check)
	}
	return nil
}

func (p *stepSkipParams) Validate() error {
	if len(p.Steps) == 0 {
		return fmt.Errorf("steps must list the steps that can be skipped")
	}
	for _, s := range p.Steps {
		if s < 2 || s > 6 {
			return fmt.Errorf("steps: %d cannot be skipped (2-6)", s)
		}
	}
	return nil
}

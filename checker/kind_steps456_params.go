package checker

// Validation of the parameters of the Steps 4-6 kinds: the catalog loader
// calls Validate after decoding a rule's params table, so that a catalog or
// configuration that would silently check nothing is an error instead.

import (
	"errors"
	"fmt"
	"strings"
)

func validStep(step int) error {
	if step != 4 && step != 5 {
		return fmt.Errorf("step = %d: want 4 (tests) or 5 (benchmarks)", step)
	}
	return nil
}

func needList(name string, xs []string) error {
	if len(xs) == 0 {
		return fmt.Errorf("%s: want at least one entry", name)
	}
	for _, x := range xs {
		if strings.TrimSpace(x) == "" {
			return fmt.Errorf("%s: empty entry", name)
		}
	}
	return nil
}

func (p *stepFileParams) Validate() error {
	if err := validStep(p.Step); err != nil {
		return err
	}
	if len(p.Expected) == 0 {
		return errors.New("expected: want a path template per layout scope")
	}
	return nil
}

func (p *forbiddenImportParams) Validate() error {
	return errors.Join(validStep(p.Step), needList("modules", p.Modules))
}

func (p *backendListParams) Validate() error {
	return errors.Join(validStep(p.Step), needList("vars", p.Vars), needList("required", p.Required))
}

func (p *testParametrizeParams) Validate() error {
	var err error
	if p.BackendsVar == "" {
		err = errors.New("backends_var: want the backend list variable")
	}
	return errors.Join(needList("methods", p.Methods), needList("decorator", p.Decorator), needList("arg_names", p.ArgNames), err)
}

func (p *backendSelectParams) Validate() error {
	return errors.Join(needList("methods", p.Methods), needList("select", p.Select), needList("available", p.Available),
		needList("skip", p.Skip), needList("setup", p.Setup))
}

func (p *testComparesParams) Validate() error {
	return errors.Join(needList("methods", p.Methods), needList("compare", p.Compare))
}

func (p *benchFuncParams) Validate() error {
	var err error
	if !strings.Contains(p.Name, "{func}") {
		err = fmt.Errorf("name = %q: want a template with {func}", p.Name)
	}
	return errors.Join(err, needList("decorator", p.Decorator))
}

func (p *checkBeforeTimingParams) Validate() error {
	return errors.Join(p.benchFuncParams.Validate(), needList("check", p.Check), needList("timers", p.Timers))
}

func (p *benchTimingParams) Validate() error {
	return errors.Join(p.benchFuncParams.Validate(), needList("timers", p.Timers))
}

func (p *benchOpCallParams) Validate() error {
	if p.Keyword == "" {
		return errors.New("keyword: want the backend keyword")
	}
	return nil
}

func (p *benchFilterParams) Validate() error {
	return errors.Join(needList("filters", p.Filters), needList("vars", p.Vars), needList("config", p.Config))
}

func (p *benchReferenceParams) Validate() error {
	var err error
	if p.Backend == "" {
		err = errors.New("backend: want the reference backend")
	}
	return errors.Join(err, needList("register", p.Register))
}

func (p *callKeywordParams) Validate() error {
	var err error
	if len(p.Keywords) == 0 {
		err = errors.New("keywords: want at least one keyword")
	}
	for k, vs := range p.Keywords {
		if len(vs) == 0 {
			err = errors.Join(err, fmt.Errorf("keywords.%s: want at least one accepted value", k))
		}
	}
	return errors.Join(validStep(p.Step), needList("calls", p.Calls), err)
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

func (p *mainGuardParams) Validate() error {
	if p.Method == "" {
		return errors.New("method: want the run method's name")
	}
	return nil
}

func (p *verifyParams) Validate() error {
	if len(p.Commands) == 0 {
		return errors.New("commands: want at least one command")
	}
	for i, c := range p.Commands {
		if strings.TrimSpace(c.Run) == "" {
			return fmt.Errorf("commands[%d]: empty run", i)
		}
	}
	return nil
}

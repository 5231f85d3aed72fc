package config

import (
	"fmt"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// CheckOps reports the ops the configuration names that the checkout does
// not have, in exclude-ops and in [skip.<op>]: each would silently do
// nothing (an op renamed, a typo). Each error names the closest op when
// there is a plausible one. t is the op table of a whole check.
func (c *Config) CheckOps(t *optable.OpTable) error {
	if c == nil || t == nil {
		return nil
	}
	var names []string
	for _, op := range t.Ops {
		names = append(names, op.Name)
	}
	suggest := optable.NewSuggester()
	unknown := func(key, op string) string {
		msg := fmt.Sprintf("%s: no op named %q in this checkout", key, op)
		if c := suggest.Closest(op, names); c != "" {
			msg += fmt.Sprintf("; did you mean %q?", c)
		} else {
			msg += "; write an op's dispatch name (as in @dispatch(\"...\")) or remove it"
		}
		return msg
	}
	var errs rules.ErrorList
	for _, op := range c.ExcludeOps {
		if t.ByName[op] == nil {
			line := c.lines.Line(append(append([]string(nil), c.prefix...), "exclude-ops")...)
			errs = append(errs, &rules.LoadError{File: c.File, Line: line, Msg: unknown("exclude-ops", op)})
		}
	}
	for op, skips := range c.Skips {
		if t.ByName[op] != nil || len(skips) == 0 {
			continue
		}
		errs = append(errs, &rules.LoadError{File: skips[0].File, Line: skips[0].Pos.Line, Msg: unknown("skip."+op, op)})
	}
	if len(errs) > 0 {
		errs.Sort()
		return errs
	}
	return nil
}

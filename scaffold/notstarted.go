package scaffold

import (
	"strings"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/report"
	"github.com/tilegym/tilegym-lint/rules"
)

// NotStarted returns the ops --op names that the checkout does not have
// yet, where each is a valid op name: the checklist is written before any
// code (the workflow's first rule), so --format checklist prints their six
// unchecked steps rather than refusing them. A name that is close to an
// existing op carries it, in case it is a typo.
func NotStarted(t *optable.OpTable, names []string) []report.NewOp {
	if t == nil {
		return nil
	}
	var out []report.NewOp
	for _, n := range names {
		if len(t.Lookup(n)) > 0 {
			continue
		}
		suite, op, dotted := strings.Cut(n, ".")
		if !dotted {
			suite, op = "", n
		}
		if ValidName(op) != "" || suite != "" && ValidName(suite) != "" {
			continue // not an op name: checker.CheckOpNames refuses it
		}
		out = append(out, report.NewOp{Name: n, Suite: suite, Func: op, Similar: rules.Closest(n, checker.OpNames(t))})
	}
	return out
}

// CheckNames checks the op names of a check's result res: each name --op
// gives must name an op of the checkout (checker.CheckOpNames), but for
// the checklist (checklist), which returns the ops not started yet
// (NotStarted) instead; each op the configuration names must exist
// (config.Config.CheckOps).
func CheckNames(res *checker.Result, s *config.Setup, names []string, checklist bool) ([]report.NewOp, error) {
	var notStarted []report.NewOp
	if checklist {
		notStarted = NotStarted(res.Table, names)
	}
	if err := checker.CheckOpNames(res.Table, withoutNew(names, notStarted)); err != nil {
		return nil, err
	}
	if err := s.Config.CheckOps(res.Table); err != nil {
		return nil, err
	}
	return notStarted, nil
}

// withoutNew returns names less the ops not started yet.
func withoutNew(names []string, notStarted []report.NewOp) []string {
	if len(notStarted) == 0 {
		return names
	}
	skip := map[string]bool{}
	for _, n := range notStarted {
		skip[n.Name] = true
	}
	var out []string
	for _, n := range names {
		if !skip[n] {
			out = append(out, n)
		}
	}
	return out
}

package checker

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

type opSelection struct {
	ops   map[string]bool
	files map[string]bool // files of the kept ops, for findings with no op
}

// selected returns the ops a check of some ops selects, as given (the names
// of ops, or the function names of unnamespaced ops; see optable.Op.SelectedBy), or
// nil: for all ops, or for those owning some files (which the findings
// decide, see selectOps).
func (o Options) selected() map[string]bool {
	if len(o.Ops) == 0 || o.Files != nil {
		return nil
	}
	m := map[string]bool{}
	for _, n := range o.Ops {
		m[n] = true
	}
	return m
}

// selectOps returns the ops a check reports on, or nil for all of them.
// With Files, an op is kept when it owns one of them or has a finding in
// one of them (a shared file such as cutile/__init__.py).
func selectOps(t *optable.OpTable, opts Options, diags []analysis.Diagnostic) *opSelection {
	if len(opts.Ops) == 0 && opts.Files == nil {
		return nil
	}
	sel := &opSelection{ops: map[string]bool{}, files: map[string]bool{}}
	want := map[string]bool{}
	for _, o := range opts.Ops {
		want[o] = true
	}
	changed := map[string]bool{}
	for _, f := range opts.Files {
		changed[f] = true
		sel.files[f] = true
	}
	for _, op := range t.Ops {
		if len(want) > 0 && !op.SelectedBy(want) {
			continue
		}
		files := OpFiles(t, op)
		if opts.Files != nil {
			owns := false
			for f := range files {
				if changed[f] {
					owns = true
				}
			}
			for _, d := range diags {
				if d.Op == op.Name && changed[d.File] {
					owns = true
				}
			}
			if !owns {
				continue
			}
		}
		sel.ops[op.Name] = true
		for f := range files {
			sel.files[f] = true
		}
	}
	return sel
}

// OpFiles returns the files that make up an op: its dispatch file, its
// implementations' modules, its tests and benchmarks.
func OpFiles(t *optable.OpTable, op *optable.Op) map[string]bool {
	out := map[string]bool{}
	for _, s := range op.Stubs {
		if s.File != nil {
			out[s.File.Path] = true
		}
	}
	for _, im := range op.Impls {
		if im.File != nil {
			out[im.File.Path] = true
		}
	}
	for _, f := range op.Tests {
		out[f.Path] = true
	}
	for _, f := range op.Benchmarks {
		out[f.Path] = true
	}
	return out
}

// CheckOpNames reports the names (--op) that name no op of the table, with
// the closest op name when one is close.
func CheckOpNames(t *optable.OpTable, names []string) error {
	if t == nil {
		return nil
	}
	var unknown []string
	for _, n := range names {
		if len(t.Lookup(n)) == 0 {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		names := OpNames(t)
		var b strings.Builder
		for i, n := range unknown {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n)
			if c := rules.Closest(n, names); c != "" {
				fmt.Fprintf(&b, " (did you mean %s?)", c)
			}
		}
		return fmt.Errorf("--op: no op named %s in this checkout", b.String())
	}
	return nil
}

// OpNames returns the names --op accepts: every op's dispatch name, and
// the function name of an unnamespaced op.
func OpNames(t *optable.OpTable) []string {
	seen := map[string]bool{}
	var names []string
	for _, op := range t.Ops {
		for _, n := range []string{op.Name, op.Func} {
			if n != "" && !seen[n] && (n == op.Name || op.Suite == "") {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	return names
}

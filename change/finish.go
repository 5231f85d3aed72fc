package change

// The report of a change: the ops it touches and those with a new finding
// in a changed file, each finding the base already had marked pre-existing.

import (
	"sort"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/optable"
)

// vanishedOps returns the verdicts of the ops the change touches whose
// dispatch stub went with a deleted file while the head still registers
// them: Step 1 fails, the findings of their registrations without a stub
// (TG206, of no op until now) become theirs, and Steps 3 to 5, which start
// from the stub, are not checked. An op whose registrations went too was
// removed, not broken: it has none.
func vanishedOps(ch *Change, res, baseRes *checker.Result, touched map[string]bool) []checker.OpResult {
	var out []checker.OpResult
	for _, op := range baseRes.Table.Ops {
		if !touched[op.Name] || res.Table.ByName[op.Name] != nil {
			continue
		}
		var stubFile string
		for _, s := range op.Stubs {
			if s.File != nil && ch.Deleted[s.File.Path] {
				stubFile = s.File.Path
			}
		}
		if stubFile == "" {
			continue
		}
		var impls []*optable.Impl
		for _, im := range res.Table.Impls {
			if im.Op == op.Name && im.File != nil {
				impls = append(impls, im)
			}
		}
		if len(impls) == 0 {
			continue
		}
		for i := range res.Diagnostics {
			d := &res.Diagnostics[i]
			if d.Op != "" || !checker.KindOf(*d).Undeclared {
				continue
			}
			for _, im := range impls {
				if d.File == im.File.Path && im.Pos.Line <= d.Pos.Line && d.Pos.Line <= im.End.Line {
					d.Op = op.Name
				}
			}
		}
		r := checker.StepVerdicts(op, res.Diagnostics, nil, nil)
		r.Steps[0].Status = checker.StatusFail
		r.Steps[0].Reason = "its dispatch stub was in " + stubFile + ", which the change deletes, and the op is still registered: restore the stub, or remove the op with its registrations, tests and benchmark"
		for step := 3; step <= 5; step++ {
			if r.Steps[step-1].Status == checker.StatusPass {
				r.Steps[step-1].Status = checker.StatusFail
				r.Steps[step-1].Reason = "not checked: the op has no dispatch stub (Step 1)"
			}
		}
		out = append(out, r)
	}
	return out
}

// finishChange marks the findings of a change's snapshot that its base
// had, and keeps the ops the change touches and their findings.
func finishChange(ch *Change, res, baseRes *checker.Result, opts checker.Options) *checker.Result {
	ch.waitRenames()
	// A finding is pre-existing when the base had it: the same identity
	// (a moved file's findings under its new path), or, for what is left,
	// the same rule, op and file (see analysis.Known).
	before := analysis.NewKnown()
	for i := range baseRes.Diagnostics {
		d := &baseRes.Diagnostics[i]
		file := d.File
		if to, ok := ch.Renames[file]; ok {
			file = to
		}
		before.Add(analysis.IdentityOf(d, file), 1)
	}
	ids := make([]analysis.Identity, len(res.Diagnostics))
	for i := range res.Diagnostics {
		ids[i] = analysis.IdentityOf(&res.Diagnostics[i], res.Diagnostics[i].File)
	}
	for i, pre := range before.Match(ids) {
		res.Diagnostics[i].PreExisting = pre
	}

	touched := TouchedOps(res.Table, ch)
	removedInitOps(ch, res.Table, baseRes.Table, touched)
	// An op that loses a file is touched too, as the base knew it: a
	// deleted test, module or benchmark of it, its dispatch file (its
	// stub), or a cuTile __init__ naming its module or function (every
	// line of a deleted file is changed).
	var vanished []checker.OpResult
	if len(ch.Deleted) > 0 && baseRes.Table != nil {
		gone := &Change{Root: ch.Root, Lines: map[string][]LineRange{}, Whole: ch.Deleted, Deleted: ch.Deleted}
		for op := range TouchedOps(baseRes.Table, gone) {
			touched[op] = true
		}
		if res.Table != nil {
			vanished = vanishedOps(ch, res, baseRes, touched)
		}
	}
	// An op whose stub the change removes is touched: its callers are
	// judged (TG108) although their files did not change.
	if baseRes.Table != nil {
		for name := range removedStubs(res.Table, baseRes.Table) {
			touched[name] = true
		}
	}
	// The ops the change broke: a new finding in a changed file.
	for _, d := range res.Diagnostics {
		if d.Op != "" && ch.HasFile(d.File) && !d.PreExisting {
			touched[d.Op] = true
		}
	}
	want := map[string]bool{}
	for _, o := range opts.Ops {
		want[o] = true
	}
	keepOp := func(name string) bool {
		if !touched[name] {
			return false
		}
		if len(want) == 0 {
			return true
		}
		if want[name] {
			return true
		}
		op := res.Table.ByName[name]
		return op != nil && op.SelectedBy(want)
	}
	var ops []checker.OpResult
	for _, o := range append(res.Ops, vanished...) {
		if keepOp(o.Name) {
			ops = append(ops, o)
		}
	}
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].Name < ops[j].Name })
	res.Ops = ops
	var diags []analysis.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Op != "" && keepOp(d.Op) || d.Op == "" && ch.HasFile(d.File) && len(want) == 0 {
			diags = append(diags, d)
		}
	}
	res.Diagnostics = diags
	res.Errors = append(res.Errors, baseRes.Errors...)
	return res
}

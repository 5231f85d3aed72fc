package checker

import (
	"sort"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// applyPolicy sets severities, drops findings in excluded paths or of
// excluded ops, honours suppressions (# noqa and ignore directives, noting
// in sups which ones silenced something), removes duplicates and sorts.
//
// It also returns, per op, the steps whose findings were dropped because a
// file they concern does not parse: those steps could not be checked.
//
// The findings are filtered in diags' own array, which the caller must no
// longer use: a whole check has every tree live at this point, and a copy
// of the findings per filter made the peak of the run higher.
func applyPolicy(repo *optable.Repo, diags []analysis.Diagnostic, cfg *config.Config, sups *suppressions) ([]analysis.Diagnostic, map[string]map[int]bool) {
	excludedOps := map[string]bool{}
	var excludePaths []string
	var sev map[string]rules.Severity
	if cfg != nil {
		for _, o := range cfg.ExcludeOps {
			excludedOps[o] = true
		}
		excludePaths = cfg.Exclude
		sev = cfg.Severity
	}
	// Every finding a comment silences marks it used, also one that is
	// dropped below for another reason (excluded, or blamed on a file that
	// does not parse): the comment is not stale.
	suppressed := make([]bool, len(diags))
	for i := range diags {
		normalizeSpan(&diags[i])
		suppressed[i] = sups.mark(diags[i])
	}
	keep := diags[:0]
	for i, d := range diags {
		if !suppressed[i] {
			keep = append(keep, d)
		}
	}
	clear(diags[len(keep):])
	diags, unchecked := blameParseErrors(repo, keep)
	out := diags[:0]
	lines := map[string]*analysis.Lines{}
	for _, d := range diags {
		if excludedOps[d.Op] && d.Op != "" {
			continue
		}
		if _, ok := layout.MatchAny(excludePaths, d.File); ok {
			continue
		}
		d.Severity = d.Rule.Severity
		if s, ok := sev[d.Rule.ID]; ok {
			d.Severity = s
		}
		normalizeSpan(&d) // also the findings blameParseErrors gave
		if f := repo.Files[d.File]; f != nil {
			l, ok := lines[d.File]
			if !ok {
				l = analysis.NewLines(f.Text())
				lines[d.File] = l
			}
			d.Fingerprint = analysis.Fingerprint(l.Line(d.Pos.Line))
		} else {
			d.Fingerprint = analysis.Fingerprint("")
		}
		out = append(out, d)
	}
	clear(diags[len(out):])
	// Duplicates (same rule, op, file, position and message) are adjacent
	// once sorted, the first reported first (the sort is stable): the
	// first of each run is kept.
	SortDiagnostics(out)
	k := 0
	for i, d := range out {
		if i > 0 && sameFinding(out[k-1], d) {
			continue
		}
		out[k] = d
		k++
	}
	clear(out[k:])
	if k == 0 {
		return nil, unchecked // as when the list was built by appends
	}
	return out[:k], unchecked
}

// sameFinding reports whether two findings are the same for the report:
// the fields SortDiagnostics orders by.
func sameFinding(a, b analysis.Diagnostic) bool {
	return a.Rule.ID == b.Rule.ID && a.Op == b.Op && a.File == b.File && a.Message == b.Message && a.Pos.Line == b.Pos.Line && a.Pos.Col == b.Pos.Col
}

// normalizeSpan makes a finding's span well formed: it starts on line 1 or
// later and does not end before it starts.
func normalizeSpan(d *analysis.Diagnostic) {
	if d.End.Line < d.Pos.Line || d.End.Line == d.Pos.Line && d.End.Col < d.Pos.Col {
		d.End = d.Pos
	}
	if d.Pos.Line < 1 {
		d.Pos.Line = 1
		if d.End.Line < 1 {
			d.End = d.Pos
		}
	}
}

// blameParseErrors avoids cascades from a file that does not parse: a
// finding located in such a file, or whose related positions name it (the
// file an absence expects, e.g. the op's cuTile module), is dropped -- the
// checks could not see the file -- and the parse-error finding is given to
// each op whose finding was dropped, so that the op's report shows why
// (one parse-error finding per such op; none keeps the finding op-less).
func blameParseErrors(repo *optable.Repo, diags []analysis.Diagnostic) ([]analysis.Diagnostic, map[string]map[int]bool) {
	broken := map[string]bool{}
	for _, f := range repo.Files {
		if f.Err != nil {
			broken[f.Path] = true
		}
	}
	if len(broken) == 0 {
		return diags, nil
	}
	unchecked := map[string]map[int]bool{}
	blame := map[string]map[string]bool{} // broken file -> ops
	blamed := func(file string, d analysis.Diagnostic) {
		if blame[file] == nil {
			blame[file] = map[string]bool{}
		}
		if d.Op != "" {
			blame[file][d.Op] = true
			if unchecked[d.Op] == nil {
				unchecked[d.Op] = map[int]bool{}
			}
			unchecked[d.Op][d.Rule.Step] = true
		}
	}
	var kept, parseErrs []analysis.Diagnostic
	for _, d := range diags {
		if KindOf(d).ParseErrors {
			parseErrs = append(parseErrs, d)
			continue
		}
		drop := false
		if broken[d.File] {
			drop = true
			blamed(d.File, d)
		}
		for _, r := range d.Related {
			if broken[r.File] {
				drop = true
				blamed(r.File, d)
			}
		}
		if !drop {
			kept = append(kept, d)
		}
	}
	for _, d := range parseErrs {
		ops := blame[d.File]
		if d.Op != "" || len(ops) == 0 {
			kept = append(kept, d)
			continue
		}
		names := make([]string, 0, len(ops))
		for op := range ops {
			names = append(names, op)
		}
		sort.Strings(names)
		for _, op := range names {
			c := d
			c.Op = op
			kept = append(kept, c)
		}
	}
	return kept, unchecked
}

// SortDiagnostics sorts by file, line, column, rule, then message.
func SortDiagnostics(ds []analysis.Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		if a.Rule.ID != b.Rule.ID {
			return a.Rule.ID < b.Rule.ID
		}
		if a.Op != b.Op {
			return a.Op < b.Op
		}
		return a.Message < b.Message
	})
}

package checks

import (
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// stepFile is one test or benchmark file with the ops it serves.
type stepFile struct {
	File *source.File
	Ops  []*optable.Op // the ops associated with the file, not skipping the step
	// Primary is the op file-level findings belong to: among the ops the
	// file is about (OpTable.IsAbout), the one whose function name the file
	// is named after, else the first one.
	Primary *optable.Op
	Index   *pyIndex
}

// stepFiles returns the parsed files of a step (4: tests, 5: benchmarks)
// that rule applies to, each once, with the ops that use them. Ops that
// skip the step in writing are left out; a file no remaining op uses is
// not checked, nor one none of whose ops the pass wants (the findings of
// a file are those of its ops).
func stepFiles(pass *Pass, tab *optable.OpTable, step int, rule *rules.Rule) []*stepFile {
	if tab == nil {
		return nil
	}
	byPath := map[string]*stepFile{}
	var order []*stepFile
	for _, op := range tab.Ops {
		if op == nil || op.Skipped(step) != nil {
			continue
		}
		files := op.Tests
		if step == 5 {
			files = op.Benchmarks
		}
		for _, f := range files {
			if f == nil || f.AST == nil || f.AST.Module == nil || !ruleFileMatch(rule, f.Path) {
				continue
			}
			sf := byPath[f.Path]
			if sf == nil {
				sf = &stepFile{File: f}
				byPath[f.Path] = sf
				order = append(order, sf)
			}
			sf.Ops = append(sf.Ops, op)
		}
	}
	wanted := order[:0]
	for _, sf := range order {
		for _, op := range sf.Ops {
			if pass.Wants(op.Name) {
				wanted = append(wanted, sf)
				break
			}
		}
	}
	order = wanted
	for _, sf := range order {
		stem := strings.TrimSuffix(path.Base(sf.File.Path), ".py")
		for _, op := range sf.Ops {
			if !tab.IsAbout(sf.File, op) {
				continue
			}
			if strings.HasSuffix(stem, "_"+op.Func) || stem == op.Func {
				if sf.Primary == nil || len(op.Func) > len(sf.Primary.Func) {
					sf.Primary = op
				}
			}
		}
		for _, op := range sf.Ops {
			if sf.Primary == nil && tab.IsAbout(sf.File, op) {
				sf.Primary = op
			}
		}
		if sf.Primary == nil {
			sf.Primary = sf.Ops[0]
		}
		sf.Index = newPyIndex(sf.File)
	}
	return order
}

// ruleFileMatch reports whether a rule's `files` patterns (none = all)
// match a slash path.
func ruleFileMatch(rule *rules.Rule, p string) bool {
	if rule == nil || len(rule.Files) == 0 {
		return true
	}
	_, ok := layout.MatchAny(rule.Files, p)
	return ok
}

func globSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if globSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// dottedUnder reports whether a qualified dotted name is one of the
// patterns or inside one of them ("tilegym.ops.cutile.softmax" is under
// "tilegym.ops.cutile"); "*" matches one dotted segment.
func dottedUnder(name string, patterns []string) (string, bool) {
	var segs []string
	for _, p := range patterns {
		if !strings.ContainsAny(p, `*?[\`) {
			// A literal pattern: its segments are the name's first ones.
			if name == p || strings.HasPrefix(name, p) && len(name) > len(p) && name[len(p)] == '.' {
				return p, true
			}
			continue
		}
		if segs == nil {
			segs = strings.Split(name, ".")
		}
		ps := strings.Split(p, ".")
		if len(ps) > len(segs) {
			continue
		}
		if globSegs(ps, segs[:len(ps)]) {
			return p, true
		}
	}
	return "", false
}

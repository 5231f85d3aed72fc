package checks

import (
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
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
	// About are the ops of Ops the file is about (OpTable.IsAbout).
	About []*optable.Op
	Index *pyIndex
}

// opOf returns the op the findings of a test method (or of its class)
// belong to. In a file about several ops (a suite file with one test class
// per op) that is the op its class is named after, else the one its
// method's name names, else the one op the class's methods use; else,
// and in a file about one op, Primary.
func (sf *stepFile) opOf(m funcScope) *optable.Op {
	if len(sf.About) < 2 {
		return sf.Primary
	}
	if m.Class != nil {
		if ops := optable.NamedBy(sf.About, m.Class.Name); len(ops) == 1 {
			return ops[0]
		}
	}
	if m.Def != nil {
		if ops := optable.NamedBy(sf.About, m.Def.Name); len(ops) == 1 {
			return ops[0]
		}
	}
	var n ast.Node
	switch {
	case m.Class != nil:
		n = m.Class
	case m.Def != nil:
		n = m.Def
	default:
		return sf.Primary
	}
	var used *optable.Op
	for _, op := range sf.About {
		if sf.Index.mentions(n, opUseNames(op)) {
			if used != nil {
				return sf.Primary
			}
			used = op
		}
	}
	if used != nil {
		return used
	}
	return sf.Primary
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
			if tab.IsAbout(sf.File, op) {
				sf.About = append(sf.About, op)
				if sf.Primary == nil {
					sf.Primary = op
				}
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

// ruleFiles returns the parsed files a rule of a family without steps
// looks at: those its files globs match (default: every Python file under
// src/), sorted.
func ruleFiles(pass *Pass, globs, exclude []string) []*source.File {
	if len(globs) == 0 {
		globs = []string{"src/**/*.py"}
	}
	var out []*source.File
	for _, p := range pass.Repo.Paths {
		f := pass.Repo.Files[p]
		if f == nil || f.AST == nil || f.AST.Module == nil {
			continue
		}
		if _, ok := layout.MatchAny(globs, p); ok {
			if _, no := layout.MatchAny(exclude, p); !no {
				out = append(out, f)
			}
		}
	}
	return out
}

package checks

// How the kinds report a finding: of an op, at a node or on a line several
// ops share, or, for a family without steps, of a subject.

import (
	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// dispatchAnchor returns the node a finding about an op's absence is
// anchored on: the dispatch decorator's callee (one line even when the
// decorator spans several), else the stub's def.
func dispatchAnchor(op *optable.Op) (*source.File, ast.Node) {
	if op == nil || op.Stub == nil {
		return nil, nil
	}
	if op.Stub.Decorator != nil && op.Stub.Decorator.Func != nil {
		return op.Stub.File, op.Stub.Decorator.Func
	}
	return op.Stub.File, op.Stub.Def
}

// reportAt reports a finding of rule for op at node n of file f, with
// optional related positions and fixes.
func reportAt(pass *Pass, rule *rules.Rule, op string, f *source.File, n ast.Node, vars map[string]string, related []analysis.Related, fixes []analysis.SuggestedFix) {
	if f != nil {
		pass.Report(diagAt(rule, op, f, n, vars, related, fixes))
	}
}

// reportShared is reportAt for a finding anchored on a line that several
// ops' findings share (Diagnostic.Shared).
func reportShared(pass *Pass, rule *rules.Rule, op string, f *source.File, n ast.Node, vars map[string]string, fixes []analysis.SuggestedFix) {
	if f != nil {
		d := diagAt(rule, op, f, n, vars, nil, fixes)
		d.Shared = true
		pass.Report(d)
	}
}

func diagAt(rule *rules.Rule, op string, f *source.File, n ast.Node, vars map[string]string, related []analysis.Related, fixes []analysis.SuggestedFix) analysis.Diagnostic {
	d := analysis.Diagnostic{Rule: rule, Op: op, File: f.Path, Message: analysis.Render(rule.Message, op, withFile(vars, f.Path)), Related: related, Fixes: fixes}
	if n != nil {
		d.Pos, d.End = n.Pos(), n.End()
	} else {
		d.Pos, d.End = ast.Pos{Line: 1}, ast.Pos{Line: 1}
	}
	return d
}

func withFile(vars map[string]string, file string) map[string]string {
	out := map[string]string{"file": file}
	for k, v := range vars {
		out[k] = v
	}
	return out
}

// subjectOf names what a finding is about: the op a file registers when
// it registers one, else the enclosing top-level def or class, else the
// file. The file is the table's by its path: the relation kind parses
// the files the driver did not, and a check in batches gives it a table
// of every batch's registrations (Analyzer.Whole).
func subjectOf(tab *optable.OpTable, f *source.File, n ast.Node) string {
	if tab != nil {
		ops := map[string]bool{}
		for _, im := range tab.Impls {
			if im.File != nil && im.File.Path == f.Path {
				ops[im.Op] = true
			}
		}
		if len(ops) == 1 {
			for op := range ops {
				return op
			}
		}
	}
	if n != nil {
		for _, s := range f.AST.Module.Body {
			if s.Pos().Line <= n.Pos().Line && n.Pos().Line <= s.End().Line {
				switch d := s.(type) {
				case *ast.FunctionDef:
					return d.Name
				case *ast.AsyncFunctionDef:
					return d.Name
				case *ast.ClassDef:
					return d.Name
				}
			}
		}
	}
	return f.Path
}

// reportFamily reports a finding of a family without steps: of no op,
// with its subject.
func reportFamily(pass *Pass, tab *optable.OpTable, rule *rules.Rule, f *source.File, n ast.Node, vars map[string]string) {
	subject := subjectOf(tab, f, n)
	v := map[string]string{"file": f.Path, "subject": subject}
	for k, x := range vars {
		v[k] = x
	}
	d := analysis.Diagnostic{Rule: rule, File: f.Path, Subject: subject, Message: analysis.Render(rule.Message, "", v)}
	if n != nil {
		d.Pos, d.End = n.Pos(), n.End()
	} else {
		d.Pos, d.End = ast.Pos{Line: 1}, ast.Pos{Line: 1}
	}
	pass.Report(d)
}

// Package scaffold writes Steps 1-5 of the workflow "Adding a cuTile kernel
// to TileGym" for a new op, from the workflow's templates, adapted to the
// repository: the dispatch stub after the last stub of the dispatch file,
// the cuTile module, its entries in the cuTile package's __init__.py (in
// alphabetical place), a test and a benchmark. What a person must still
// write -- the kernel, the PyTorch references -- raises NotImplementedError
// with a message starting with Marker.
//
// Edits of existing files go through package fix (one fix: all or none,
// refused if a file would not parse, written only if unchanged since read);
// new files are created exclusively and never overwrite anything.
package scaffold

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/fix"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/parser"
	"github.com/tilegym/tilegym-lint/source"
	"github.com/tilegym/tilegym-lint/source/regfile"
)

// Marker starts the message of every placeholder the scaffold writes:
// raise NotImplementedError("tilegym-lint new: write ...").
const Marker = "tilegym-lint new:"

// Options say what to scaffold.
type Options struct {
	Root   string        // the repository root
	Setup  *config.Setup // the checkout's catalog, configuration and layout (config.Open)
	Op     string        // the op's function name (a Python identifier)
	Suite  string        // the suite, for a suite op "<suite>.<op>"; "" for a core op
	DryRun bool          // compute everything, write nothing
	// Year is the copyright year of the SPDX header the new files start
	// with when the dispatch file has none to copy (0: the current year).
	Year int
}

// NewFile is a file the scaffold creates.
type NewFile struct {
	Path    string // slash path relative to the root
	Content string
}

// Result says what New did (or, in a dry run, would do).
type Result struct {
	Dispatch  string           // the dispatch name: "op" or "suite.op"
	Created   []NewFile        // the new files
	Edited    []fix.FileChange // the edited files with their diffs
	NextSteps []string         // what a person must do next
}

// Paths are where a scope keeps an op's parts (the defaults of rules.toml's
// layout).
type Paths struct {
	Dispatch string // the dispatch file
	CuTile   string // the cuTile package directory
	Test     string
	Bench    string
	API      string // the module tests import the op from
	Blocked  bool   // the cuTile __init__'s entries sit in if is_backend_available("cutile"):
}

// PathsFor returns the paths of op in the core scope (suite "") or a suite.
func PathsFor(op, suite string) Paths {
	if suite == "" {
		return Paths{
			Dispatch: "src/tilegym/ops/ops.py",
			CuTile:   "src/tilegym/ops/cutile",
			Test:     "tests/ops/test_" + op + ".py",
			Bench:    "tests/benchmark/bench_" + op + ".py",
			API:      "tilegym.ops",
			Blocked:  true,
		}
	}
	return Paths{
		Dispatch: "src/tilegym/suites/" + suite + "/ops.py",
		CuTile:   "src/tilegym/suites/" + suite + "/cutile",
		Test:     "tests/suites/" + suite + "/test_" + op + ".py",
		Bench:    "tests/benchmark/suites/" + suite + "/bench_" + op + ".py",
		API:      "tilegym.suites." + suite + ".ops",
	}
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ValidName reports why name cannot be an op or suite name ("" if it can):
// it must be an ASCII Python identifier and not a keyword.
func ValidName(name string) string {
	switch {
	case name == "":
		return "the name is empty"
	case !identRE.MatchString(name):
		return fmt.Sprintf("%q is not a Python identifier (letters, digits and _, not starting with a digit)", name)
	case !ast.IsIdentifier(name):
		return fmt.Sprintf("%q is a Python keyword", name)
	}
	return ""
}

// templateImports are the names the scaffolded files import at module
// level (ct, torch, triton, pytest, register_impl, ...): an op of one of
// these names would shadow the import in its own module ("new ct" made
// ct the op's function, and "@ct.kernel" fail at import).
var templateImports = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range []string{moduleTemplate, testTemplate, benchTemplate, coreTestImports, coreBenchImports, suiteTestImports} {
		for _, line := range strings.Split(t, "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) == 2 && f[0] == "import":
				first, _, _ := strings.Cut(f[1], ".")
				m[first] = true
			case len(f) == 4 && f[0] == "import" && f[2] == "as":
				m[f[3]] = true
			case len(f) >= 4 && f[0] == "from" && f[2] == "import":
				for _, n := range f[3:] {
					m[strings.TrimSuffix(n, ",")] = true
				}
			}
		}
	}
	return m
}()

// validOpName is ValidName for an op: also not a name the scaffolded
// files import.
func validOpName(name string) string {
	if r := ValidName(name); r != "" {
		return r
	}
	if templateImports[name] {
		return fmt.Sprintf("%q is a name the new files import (%s); an op of that name would shadow it: choose another name", name, strings.Join(slices.Sorted(maps.Keys(templateImports)), ", "))
	}
	return ""
}

// New scaffolds the op. It refuses, with an error and writing nothing, an
// invalid name, an op the dispatch file or the cuTile package already has,
// and any file that already exists.
func New(opt Options) (*Result, error) {
	if r := validOpName(opt.Op); r != "" {
		return nil, fmt.Errorf("op name: %s", r)
	}
	if opt.Suite != "" {
		if r := ValidName(opt.Suite); r != "" {
			return nil, fmt.Errorf("suite name: %s", r)
		}
	}
	p := PathsFor(opt.Op, opt.Suite)
	dispatchName := opt.Op
	if opt.Suite != "" {
		dispatchName = opt.Suite + "." + opt.Op
	}
	res := &Result{Dispatch: dispatchName}
	abs := func(rel string) string { return filepath.Join(opt.Root, filepath.FromSlash(rel)) }

	// The dispatch file.
	dsrc, err := regfile.Read(abs(p.Dispatch))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) && opt.Suite != "" {
			return nil, fmt.Errorf("no suite %q: %s does not exist", opt.Suite, p.Dispatch)
		}
		return nil, err
	}
	dfile, err := parser.ParseFile(p.Dispatch, dsrc)
	if err != nil {
		return nil, fmt.Errorf("%s does not parse (%v); fix it first", p.Dispatch, err)
	}
	stubEdits, err := stubEdits(p.Dispatch, dsrc, dfile, opt.Op, dispatchName)
	if err != nil {
		return nil, err
	}

	// The cuTile __init__.py: the Step 3 fixes of --fix.
	initPath := p.CuTile + "/__init__.py"
	initEdits, err := initEdits(opt, initPath, p.Blocked)
	if err != nil {
		return nil, err
	}

	// The new files.
	modulePath := p.CuTile + "/" + opt.Op + ".py"
	// The templates' {{field}}s, old and new (analysis.Expand).
	fields := []string{
		"{{op}}", opt.Op,
		"{{OP}}", strings.ToUpper(opt.Op),
		"{{dispatch}}", dispatchName,
		"{{marker}}", Marker,
		"{{api}}", p.API,
		"{{plot}}", strings.ReplaceAll(strings.ReplaceAll(dispatchName, ".", "-"), "_", "-"),
		"{{header}}", spdxHeader(dsrc, opt.Year),
	}
	if opt.Suite == "" {
		fields = append(fields, "{{testimports}}", coreTestImports, "{{benchimports}}", coreBenchImports, "{{call}}", "tilegym.ops."+opt.Op)
	} else {
		fields = append(fields, "{{testimports}}", suiteTestImports,
			"{{benchimports}}", analysis.Expand(suiteBenchImports, "{{suite}}", opt.Suite), "{{call}}", opt.Suite+"_ops."+opt.Op)
	}
	res.Created = []NewFile{
		{modulePath, analysis.Expand(moduleTemplate, fields...)},
		{p.Test, analysis.Expand(testTemplate, fields...)},
		{p.Bench, analysis.Expand(benchTemplate, fields...)},
	}
	for _, f := range res.Created {
		if _, err := os.Lstat(abs(f.Path)); err == nil {
			return nil, fmt.Errorf("%s already exists; tilegym-lint new never overwrites a file", f.Path)
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		if _, err := parser.ParseFile(f.Path, []byte(f.Content)); err != nil {
			return nil, fmt.Errorf("internal error: the template of %s does not parse: %v", f.Path, err)
		}
	}

	edit := analysis.SuggestedFix{Message: "tilegym-lint new " + dispatchName, Edits: append(stubEdits, initEdits...)}
	res.NextSteps = nextSteps(opt.Op, dispatchName, modulePath, p)

	if opt.DryRun {
		r, err := fix.Apply(opt.Root, []analysis.SuggestedFix{edit}, fix.Options{Preview: true})
		if err != nil {
			return nil, err
		}
		if err := refusal(r); err != nil {
			return nil, err
		}
		res.Edited = r.Files
		return res, nil
	}

	// Create the new files (exclusively), then edit; undo the creations if
	// the edit is refused.
	var created []string
	undo := func() {
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i])
		}
	}
	for _, f := range res.Created {
		path := abs(f.Path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			undo()
			return nil, err
		}
		w, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			undo()
			return nil, err
		}
		created = append(created, path)
		if _, err := w.WriteString(f.Content); err != nil {
			w.Close()
			undo()
			return nil, err
		}
		if err := w.Close(); err != nil {
			undo()
			return nil, err
		}
	}
	r, err := fix.Apply(opt.Root, []analysis.SuggestedFix{edit}, fix.Options{})
	if err == nil {
		err = refusal(r)
	}
	if err != nil {
		undo()
		return nil, err
	}
	res.Edited = r.Files
	return res, nil
}

func refusal(r fix.Result) error {
	for _, s := range append(r.Refused, r.Deferred...) {
		return fmt.Errorf("cannot edit the existing files: %s", s.Reason)
	}
	return nil
}

// spdxHeader returns the header the new files start with: the dispatch file's leading comment block when it holds an
// SPDX-License-Identifier (the repository's own header, as TileGym's
// files all carry one), else TileGym's header for year (0: this year).
func spdxHeader(dispatch []byte, year int) string {
	var block []string
	for _, line := range strings.SplitAfter(string(dispatch), "\n") {
		t := strings.TrimRight(line, "\r\n")
		if !strings.HasPrefix(t, "#") {
			break
		}
		block = append(block, t+"\n")
	}
	for _, l := range block {
		if strings.Contains(l, "SPDX-License-Identifier:") {
			return strings.Join(block, "")
		}
	}
	if year == 0 {
		year = time.Now().Year()
	}
	return fmt.Sprintf("# SPDX-FileCopyrightText: Copyright (c) %d NVIDIA CORPORATION & AFFILIATES. All rights reserved.\n#\n# SPDX-License-Identifier: MIT\n", year)
}

func nextSteps(op, dispatch, module string, p Paths) []string {
	return []string{
		fmt.Sprintf("Step 1: describe %s in the docstring of its dispatch stub in %s (and adapt its parameters)", dispatch, p.Dispatch),
		fmt.Sprintf("Step 2: write the kernel %s_kernel_ct in %s (delete its raise NotImplementedError) and adapt the launch", op, module),
		fmt.Sprintf("Step 4: write Test_%s.reference in %s and adapt the shapes", strings.ToUpper(op), p.Test),
		fmt.Sprintf("Step 5: write reference_%s in %s and the metric (GB/s or TFLOPS)", op, p.Bench),
		fmt.Sprintf("Step 6: pytest %s -v; python %s; pre-commit run -a", p.Test, p.Bench),
		fmt.Sprintf("then: tilegym-lint --op %s", dispatch),
	}
}

// ---- positions ----

// lineCount returns the number of lines of src as the parser counts them (a
// last line without a line end counts; an empty remainder after the last
// line end is line count+1, the end of the file).
func lineCount(src []byte) int {
	n := 1
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			n++
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			n++
		}
	}
	return n
}

// lineLen returns the byte length of line l's text (1-based, without its
// line end), after a BOM on line 1.
func lineLen(src []byte, l int) int {
	if len(src) >= 3 && string(src[:3]) == "\xef\xbb\xbf" {
		src = src[3:]
	}
	line := 1
	start := 0
	for i := 0; i <= len(src); i++ {
		if i == len(src) || src[i] == '\n' || src[i] == '\r' {
			if line == l {
				return i - start
			}
			if i < len(src) && src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			line++
			start = i + 1
		}
	}
	return 0
}

// insertAfterLine returns an edit inserting text (whole lines, each ending
// in "\n") after line l.
func insertAfterLine(file string, src []byte, l int, text string) analysis.TextEdit {
	if l+1 <= lineCount(src) {
		at := ast.Pos{Line: l + 1, Col: 0}
		return analysis.TextEdit{File: file, Start: at, End: at, NewText: text}
	}
	// Line l is the last and has no line end.
	at := ast.Pos{Line: l, Col: lineLen(src, l)}
	return analysis.TextEdit{File: file, Start: at, End: at, NewText: "\n" + strings.TrimSuffix(text, "\n")}
}

func insertBeforeLine(file string, l int, text string) analysis.TextEdit {
	at := ast.Pos{Line: l, Col: 0}
	return analysis.TextEdit{File: file, Start: at, End: at, NewText: text}
}

// ---- Step 1: the dispatch stub ----

// dispatchArg returns the name given to a @dispatch decorator, or "".
func dispatchArg(dec ast.Expr) string {
	call, ok := dec.(*ast.Call)
	if !ok || lastName(call.Func) != "dispatch" || len(call.Args) == 0 {
		return ""
	}
	if c, ok := call.Args[0].(*ast.Constant); ok {
		if s, ok := c.Value.(string); ok {
			return s
		}
	}
	return ""
}

func lastName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Name:
		return e.Id
	case *ast.Attribute:
		return e.Attr
	}
	return ""
}

// importedNames returns the names bound by the top-level imports of a file.
func importedNames(f *ast.File) map[string]*ast.ImportFrom {
	out := map[string]*ast.ImportFrom{}
	for _, s := range f.Module.Body {
		switch s := s.(type) {
		case *ast.ImportFrom:
			for _, a := range s.Names {
				name := a.Name
				if a.Asname != nil {
					name = *a.Asname
				}
				out[name] = s
			}
		case *ast.Import:
			for _, a := range s.Names {
				name := strings.Split(a.Name, ".")[0]
				if a.Asname != nil {
					name = *a.Asname
				}
				out[name] = nil
			}
		}
	}
	return out
}

func stubEdits(path string, src []byte, f *ast.File, op, dispatchName string) ([]analysis.TextEdit, error) {
	var last *ast.FunctionDef
	for _, s := range f.Module.Body {
		fd, ok := s.(*ast.FunctionDef)
		if !ok {
			continue
		}
		isStub := false
		for _, d := range fd.DecoratorList {
			if name := dispatchArg(d); name != "" {
				isStub = true
				if name == dispatchName {
					return nil, fmt.Errorf("%s already dispatches %q (line %d); choose another name", path, dispatchName, fd.Lineno)
				}
			}
		}
		if fd.Name == op {
			return nil, fmt.Errorf("%s already defines %s (line %d); choose another name", path, op, fd.Lineno)
		}
		if isStub {
			last = fd
		}
	}
	names := importedNames(f)
	if _, ok := names["dispatch"]; !ok {
		return nil, fmt.Errorf("%s does not import dispatch (from tilegym.backend import dispatch); is it a dispatch file?", path)
	}
	if _, ok := names[op]; ok {
		return nil, fmt.Errorf("%s already imports a name %s; choose another name", path, op)
	}
	notimpl := fmt.Sprintf(`f"%s is not implemented for {get_current_backend()}"`, dispatchName)
	if _, ok := names["get_current_backend"]; !ok {
		notimpl = fmt.Sprintf(`"%s is not implemented for this backend"`, dispatchName)
	}
	stub := analysis.Expand(stubTemplate, "{{op}}", op, "{{dispatch}}", dispatchName, "{{notimpl}}", notimpl)

	var edits []analysis.TextEdit
	// The names the stub needs: Any and Optional from typing, torch.
	var need []string
	for _, n := range []string{"Any", "Optional"} {
		if _, ok := names[n]; !ok {
			need = append(need, n)
		}
	}
	if len(need) > 0 {
		edits = append(edits, typingImports(path, src, f, need)...)
	}
	if _, ok := names["torch"]; !ok {
		return nil, fmt.Errorf("%s does not import torch; the stub's annotations need it", path)
	}
	if last == nil {
		// No stub yet: after the last top-level statement.
		body := f.Module.Body
		end := body[len(body)-1].End().Line
		edits = append(edits, insertAfterLine(path, src, end, "\n\n"+stub))
		return edits, nil
	}
	edits = append(edits, insertAfterLine(path, src, last.End().Line, "\n\n"+stub))
	return edits, nil
}

// typingImports adds "from typing import X" lines in sorted place among the
// file's one-name typing imports, or after its last top-level import.
func typingImports(path string, src []byte, f *ast.File, need []string) []analysis.TextEdit {
	var typing []*ast.ImportFrom
	var lastImport ast.Stmt
	for _, s := range f.Module.Body {
		switch s := s.(type) {
		case *ast.ImportFrom:
			lastImport = s
			if s.Module != nil && *s.Module == "typing" && s.Level == 0 && len(s.Names) == 1 {
				typing = append(typing, s)
			}
		case *ast.Import:
			lastImport = s
		}
	}
	var edits []analysis.TextEdit
	if len(typing) == 0 {
		var text string
		for _, n := range need {
			text += "from typing import " + n + "\n"
		}
		if lastImport == nil {
			return []analysis.TextEdit{insertBeforeLine(path, 1, text+"\n")}
		}
		return []analysis.TextEdit{insertAfterLine(path, src, lastImport.End().Line, text)}
	}
	for _, n := range need {
		line := "from typing import " + n + "\n"
		placed := false
		for _, t := range typing {
			if t.Names[0].Name > n {
				edits = append(edits, insertBeforeLine(path, t.Pos().Line, line))
				placed = true
				break
			}
		}
		if !placed {
			edits = append(edits, insertAfterLine(path, src, typing[len(typing)-1].End().Line, line))
		}
	}
	// Two names inserted at the same place: one edit.
	return mergeSamePlace(edits)
}

func mergeSamePlace(edits []analysis.TextEdit) []analysis.TextEdit {
	var out []analysis.TextEdit
	for _, e := range edits {
		merged := false
		for i := range out {
			if out[i].File == e.File && out[i].Start == e.Start && out[i].End == e.End && e.Start == e.End {
				out[i].NewText += e.NewText
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, e)
		}
	}
	return out
}

// ---- Step 3: the cuTile __init__.py ----

// initEdits returns the edits that add the op's entries to the cuTile
// __init__.py at path: the fixes of TG301, TG303 and TG304
// (checks.InitEntryEdits) on the __init__ as the checker reads it. It
// refuses an op the __init__ already names, and an __init__ where an entry
// cannot be added mechanically.
func initEdits(opt Options, path string, blocked bool) ([]analysis.TextEdit, error) {
	repo, err := load.Load(&source.DiskSource{Dir: opt.Root}, opt.Setup)
	if err != nil {
		return nil, err
	}
	var in *optable.Init
	for _, x := range optable.BuildOpTable(repo).Inits {
		if x.File.Path == path {
			in = x
		}
	}
	switch {
	case in == nil:
		return nil, fmt.Errorf("%s is not a cuTile package __init__.py of this checkout", path)
	case in.File.AST == nil:
		return nil, fmt.Errorf("%s does not parse; fix it first", path)
	case blocked && in.Block == nil:
		return nil, fmt.Errorf(`%s has no if is_backend_available("cutile"): block to register the op in`, path)
	}
	op := opt.Op
	for _, x := range append(append([]*optable.InitImport(nil), in.ModuleImports...), in.FuncImports...) {
		if x.Module == op {
			what := "imports from ." + op
			if x.Stmt.Module == nil {
				what = "already imports the module " + op
			}
			return nil, fmt.Errorf("%s %s (line %d)", path, what, x.Stmt.Lineno)
		}
	}
	for _, c := range in.All {
		if s, _ := c.Value.(string); s == op {
			return nil, fmt.Errorf("%s already lists %q in __all__ (line %d)", path, op, c.Lineno)
		}
	}
	edits, ok := checks.InitEntryEdits(in, blocked, op, op)
	if !ok {
		return nil, fmt.Errorf("%s is laid out so that the entries of %s cannot be added mechanically; add them by hand (`from . import %s`, `from .%s import %s`, and %q in __all__ if it has one)",
			path, op, op, op, op, op)
	}
	return edits, nil
}

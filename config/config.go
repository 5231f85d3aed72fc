// Package config reads a project's configuration of tilegym-lint
// (pyproject.toml's [tool.tilegym-lint], or tilegym-lint.toml): rules
// disabled or re-graded, paths and ops excluded, written skips, and
// overrides of the catalog's layout.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source/regfile"
)

// Config is a project's configuration of tilegym-lint: the
// [tool.tilegym-lint] table of its pyproject.toml, or a tilegym-lint.toml.
//
//	disable = ["TG104"]
//	exclude = ["src/tilegym/ops/cutile/experimental/**"]
//	exclude-ops = ["moe"]
//	baseline = ".tilegym-lint-baseline"
//	[severity]
//	TG105 = "error"
//	[skip.softmax]
//	"5" = "no benchmark harness for this op yet"
//	[layout]            # overrides of rules.toml's [layout], same shape
type Config struct {
	File       string // where it was read; "" for the defaults
	Disable    []string
	Severity   map[string]rules.Severity
	Exclude    []string
	ExcludeOps []string
	// Baseline is the baseline file's path as written (relative to the
	// configuration file's directory); see BaselinePath.
	Baseline string
	// Skips are the written skips of [skip.<op>], by op.
	Skips  map[string][]optable.Skip
	Layout *layout.Layout // nil when the configuration has no [layout]

	lines  rules.KeyLines
	prefix []string // the key path of the configuration table in File
}

// FileNames are the files Find looks for in each directory, in
// order of preference; pyproject.toml counts only with a [tool.tilegym-lint]
// table.
var FileNames = []string{"tilegym-lint.toml", ".tilegym-lint.toml", "pyproject.toml"}

const pyprojectTable = "tilegym-lint"

// Find looks for a configuration file in dir and its parents up to the
// top of the git work tree dir is in (a directory holding .git), or in dir
// alone outside one -- never above the repository: a checkout is
// configured by its own files only. It returns the path or "" when there
// is none. A configuration file that is a symbolic link is read only when
// its target is inside that top directory: a pull request linking
// tilegym-lint.toml to /proc/self/environ or ~/.ssh must not have the
// tool read it.
func Find(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		abs = filepath.Dir(abs)
	}
	top := workTreeTop(abs)
	for {
		for _, name := range FileNames {
			p := filepath.Join(abs, name)
			fi, err := os.Lstat(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return "", err
			}
			if fi.Mode()&fs.ModeSymlink != 0 {
				if err := insideTop(p, top); err != nil {
					return "", err
				}
			}
			data, err := regfile.Read(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return "", err
			}
			if name == "pyproject.toml" && !HasToolTable(data) {
				continue
			}
			return p, nil
		}
		if abs == top {
			return "", nil
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", nil
		}
		abs = parent
	}
}

// workTreeTop returns the nearest of dir and its parents that holds .git
// (a directory, or a file in a linked worktree or submodule), or dir when
// none does.
func workTreeTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// insideTop reports an error when the symbolic link p does not resolve to
// a file inside top.
func insideTop(p, top string) error {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return fmt.Errorf("%s: a symbolic link that does not resolve (%v); make it a file or remove it", p, err)
	}
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(realTop, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("%s: a symbolic link to a file outside the repository (%s); not read: make it a file in the repository or remove it", p, realTop)
	}
	return nil
}

// HasToolTable reports whether a pyproject.toml configures tilegym-lint.
// A file that does not parse counts, so that its error is reported.
func HasToolTable(data []byte) bool {
	m, _, err := rules.ParseTOML(data, "pyproject.toml")
	if err != nil {
		return strings.Contains(string(data), "tool.tilegym-lint")
	}
	tool, _ := m["tool"].(map[string]any)
	_, ok := tool[pyprojectTable]
	return ok
}

// Load reads a configuration file.
func Load(path string) (*Config, error) {
	data, err := regfile.Read(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse decodes a configuration; a file named pyproject.toml is read
// from its [tool.tilegym-lint] table. Unknown keys and invalid values are
// errors that name the file and line.
func Parse(data []byte, filename string) (*Config, error) {
	m, kl, err := rules.ParseTOML(data, filename)
	if err != nil {
		return nil, err
	}
	cfg := &Config{File: filename, lines: kl}
	if filepath.Base(filename) == "pyproject.toml" {
		cfg.prefix = []string{"tool", pyprojectTable}
		tool, _ := m["tool"].(map[string]any)
		t, ok := tool[pyprojectTable].(map[string]any)
		if !ok {
			if _, present := tool[pyprojectTable]; present {
				return nil, &rules.LoadError{File: filename, Line: kl.Line(cfg.prefix...), Msg: "tool.tilegym-lint: want a table"}
			}
			return cfg, nil
		}
		m = t
	}
	var errs rules.ErrorList
	key := func(k ...string) []string { return append(append([]string(nil), cfg.prefix...), k...) }
	add := func(k []string, format string, args ...any) {
		errs = append(errs, &rules.LoadError{File: filename, Line: kl.Line(k...), Msg: fmt.Sprintf(format, args...)})
	}
	var plain struct {
		Disable    []string          `toml:"disable"`
		Severity   map[string]string `toml:"severity"`
		Exclude    []string          `toml:"exclude"`
		ExcludeOps []string          `toml:"exclude-ops"`
		Baseline   string            `toml:"baseline"`
	}
	rest := map[string]any{}
	for k, v := range m {
		if k != "layout" && k != "skip" {
			rest[k] = v
		}
	}
	rules.DecodeTable(rest, &plain, cfg.prefix, kl, filename, &errs, "layout", "skip")
	cfg.Disable, cfg.Exclude, cfg.ExcludeOps = plain.Disable, plain.Exclude, plain.ExcludeOps
	if _, ok := m["baseline"]; ok {
		if plain.Baseline == "" {
			add(key("baseline"), "baseline: want the path of a baseline file (write one with tilegym-lint --write-baseline FILE)")
		}
		cfg.Baseline = plain.Baseline
	}
	for id, sev := range plain.Severity {
		switch rules.Severity(sev) {
		case rules.Error, rules.Warning:
		default:
			add(key("severity", id), "severity.%s: invalid severity %q: want error or warning", id, sev)
		}
		if cfg.Severity == nil {
			cfg.Severity = map[string]rules.Severity{}
		}
		cfg.Severity[id] = rules.Severity(sev)
	}
	for _, g := range cfg.Exclude {
		if err := rules.CheckGlob(g); err != nil {
			add(key("exclude"), "exclude: %v", err)
		}
	}
	if lt, ok := m["layout"]; ok {
		t, ok := lt.(map[string]any)
		if !ok {
			add(key("layout"), "layout: want a table")
		} else {
			cfg.Layout = &layout.Layout{}
			rules.DecodeLayout(t, cfg.Layout, key("layout"), kl, filename, &errs)
		}
	}
	if st, ok := m["skip"]; ok {
		t, ok := st.(map[string]any)
		if !ok {
			add(key("skip"), "skip: want a table of ops")
		}
		ops := make([]string, 0, len(t))
		for op := range t {
			ops = append(ops, op)
		}
		sort.Strings(ops)
		for _, op := range ops {
			steps, ok := t[op].(map[string]any)
			if !ok {
				add(key("skip", op), "skip.%s: want a table of step = \"reason\"", op)
				continue
			}
			for s, r := range steps {
				k := key("skip", op, s)
				n, err := strconv.Atoi(s)
				if err != nil || n < 1 || n > 6 {
					add(k, "skip.%s: step %q: want a step number 1..6", op, s)
					continue
				}
				reason, ok := r.(string)
				if !ok || strings.TrimSpace(reason) == "" {
					add(k, "skip.%s.%s: want the written reason for skipping step %d", op, s, n)
					continue
				}
				if cfg.Skips == nil {
					cfg.Skips = map[string][]optable.Skip{}
				}
				cfg.Skips[op] = append(cfg.Skips[op], optable.Skip{Step: n, Reason: reason, File: filename, Pos: PosLine(kl.Line(k...))})
			}
			sort.Slice(cfg.Skips[op], func(i, j int) bool { return cfg.Skips[op][i].Step < cfg.Skips[op][j].Step })
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return cfg, nil
}

// Validate checks the configuration against a catalog: the rules it
// disables or re-grades exist.
func (c *Config) Validate(cat *rules.Catalog) error {
	if c == nil {
		return nil
	}
	var errs rules.ErrorList
	for _, id := range c.Disable {
		if cat.Rule(id) == nil && cat.Family(id) == nil {
			errs = append(errs, &rules.LoadError{File: c.File, Line: c.lines.Line(append(c.prefix, "disable")...), Msg: fmt.Sprintf("disable: unknown rule %q (give a rule id or a family prefix)", id)})
		}
	}
	ids := make([]string, 0, len(c.Severity))
	for id := range c.Severity {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if cat.Rule(id) == nil {
			errs = append(errs, &rules.LoadError{File: c.File, Line: c.lines.Line(append(c.prefix, "severity", id)...), Msg: fmt.Sprintf("severity: unknown rule %q", id)})
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return errs
	}
	return nil
}

func PosLine(l int) (p ast.Pos) {
	p.Line = l
	return p
}

// GetSeverity is the severity the configuration gives a rule, if any.
func (c *Config) GetSeverity(id string) (rules.Severity, bool) {
	if c == nil {
		return "", false
	}
	s, ok := c.Severity[id]
	return s, ok
}

// BaselinePath is the path of the configured baseline file, relative to
// the configuration file's directory when not absolute; "" when none is
// configured.
func (c *Config) BaselinePath() string {
	if c == nil || c.Baseline == "" {
		return ""
	}
	p := filepath.FromSlash(c.Baseline)
	if filepath.IsAbs(p) || c.File == "" {
		return p
	}
	return filepath.Join(filepath.Dir(c.File), p)
}

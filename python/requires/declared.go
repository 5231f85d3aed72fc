package requires

import (
	"bytes"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// A Declaration is one requirement a packaging file makes of a dependency.
type Declaration struct {
	Requirement
	File     string // slash path of the file, relative to the repository root
	Line     int    // 1-based; 0 when unknown
	Optional bool   // in an extra or a dependency group, not installed by default
	Err      error  // the requirement has a name but does not parse: it constrains nothing
}

func (d Declaration) String() string {
	return fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Text)
}

// Admitted returns the range of versions of a dependency that a project's
// declarations admit, and the declarations it comes from (none: the
// project declares no version of it, and the range is All).
//
// The range is never narrower than what the project can run with: the
// required declarations (dependencies, install_requires,
// requirements.txt) are all installed, so their ranges intersect; when
// none names the dependency, an optional one (an extra) may be what
// installs it, any one of them, so their ranges join. A declaration that
// does not parse constrains nothing, nor does a set of declarations that
// contradict each other (their intersection is empty): the range is then
// All, as for an undeclared dependency.
func Admitted(decls []Declaration, dep string) (Range, []Declaration) {
	dep = NormalizeName(dep)
	var req, opt []Declaration
	for _, d := range decls {
		if d.Name != dep || d.Err != nil {
			continue
		}
		if d.Optional {
			opt = append(opt, d)
		} else {
			req = append(req, d)
		}
	}
	if len(req) > 0 {
		r := All
		var from []Declaration
		for _, d := range req {
			if d.Range != All {
				r = r.Intersect(d.Range)
				from = append(from, d)
			}
		}
		if r.Empty() {
			return All, nil
		}
		return r, from
	}
	if len(opt) == 0 {
		return All, nil
	}
	r := opt[0].Range
	for _, d := range opt[1:] {
		r = r.Hull(d.Range)
	}
	if r == All {
		return All, nil
	}
	return r, opt
}

// declare parses one requirement string of a file; "" when it names no
// project (a blank, a path, an option).
func declare(file string, line int, s string, optional bool) (Declaration, bool) {
	req, err := ParseRequirement(s)
	if req.Name == "" {
		return Declaration{}, false
	}
	return Declaration{Requirement: req, File: file, Line: line, Optional: optional, Err: err}, true
}

// lineOf returns the line of the first occurrence of s in data (0: none).
func lineOf(data []byte, s string) int {
	i := bytes.Index(data, []byte(s))
	if i < 0 {
		return 0
	}
	return 1 + bytes.Count(data[:i], []byte("\n"))
}

// Pyproject reads the requirements of a pyproject.toml: [project]
// dependencies and optional-dependencies, and [dependency-groups]
// (optional). A file that is not valid TOML is an error.
func Pyproject(file string, data []byte) ([]Declaration, error) {
	var doc struct {
		Project struct {
			Dependencies         []any            `toml:"dependencies"`
			OptionalDependencies map[string][]any `toml:"optional-dependencies"`
		} `toml:"project"`
		DependencyGroups map[string][]any `toml:"dependency-groups"`
	}
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	var out []Declaration
	add := func(list []any, optional bool) {
		for _, it := range list {
			s, ok := it.(string) // a dependency group may hold {include-group = ...}
			if !ok {
				continue
			}
			if d, ok := declare(file, lineOf(data, s), s, optional); ok {
				out = append(out, d)
			}
		}
	}
	add(doc.Project.Dependencies, false)
	for _, k := range sortedKeys(doc.Project.OptionalDependencies) {
		add(doc.Project.OptionalDependencies[k], true)
	}
	for _, k := range sortedKeys(doc.DependencyGroups) {
		add(doc.DependencyGroups[k], true)
	}
	return out, nil
}

func sortedKeys(m map[string][]any) []string { return slices.Sorted(maps.Keys(m)) }

// RequirementsTxt reads a pip requirements file: one requirement a line
// (a "\" at the end continues it; "#" after a blank or at the start begins
// a comment), options skipped but for the files that "-r" / "--requirement"
// and "-c" / "--constraint" name, which are returned (slash paths
// relative to the repository root, resolved from file's directory) for
// the caller to read as part of it. Paths, URLs and editable installs name
// no version.
func RequirementsTxt(file string, data []byte) (decls []Declaration, includes []string) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		n := i + 1
		l := lines[i]
		for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
			i++
			l = l[:len(l)-1] + lines[i]
		}
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if j := strings.Index(l, " #"); j >= 0 {
			l = l[:j]
		}
		if j := strings.Index(l, "\t#"); j >= 0 {
			l = l[:j]
		}
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "-") {
			f := strings.Fields(strings.Replace(l, "=", " ", 1))
			if len(f) >= 2 && (f[0] == "-r" || f[0] == "--requirement" || f[0] == "-c" || f[0] == "--constraint") {
				p := path.Join(path.Dir(file), f[1])
				if !strings.HasPrefix(p, "../") && p != ".." && !path.IsAbs(f[1]) && !strings.Contains(f[1], "://") {
					includes = append(includes, p)
				}
			}
			continue
		}
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "/") || strings.Contains(l, "://") && !strings.Contains(l, "@") {
			continue
		}
		if d, ok := declare(file, n, l, false); ok {
			decls = append(decls, d)
		}
	}
	return decls, includes
}

// SetupCfg reads the requirements of a setup.cfg: install_requires of
// [options] and the extras of [options.extras_require] (optional). A value
// is the text after "=" and its indented continuation lines, one
// requirement a line; "file:" and "attr:" values are not followed.
func SetupCfg(file string, data []byte) []Declaration {
	var out []Declaration
	section, key := "", ""
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i, raw := range lines {
		n := i + 1
		trimmed := strings.TrimSpace(raw)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, ";") {
			continue
		}
		indented := raw[0] == ' ' || raw[0] == '\t'
		var value string
		switch {
		case !indented && strings.HasPrefix(trimmed, "["):
			section, key = strings.ToLower(strings.Trim(trimmed, "[] ")), ""
			continue
		case !indented:
			k, v, ok := strings.Cut(trimmed, "=")
			if !ok {
				k, v, ok = strings.Cut(trimmed, ":")
			}
			if !ok {
				key = ""
				continue
			}
			key, value = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		default:
			value = trimmed
		}
		var optional bool
		switch {
		case section == "options" && key == "install_requires":
		case section == "options.extras_require" && key != "":
			optional = true
		default:
			continue
		}
		if j := strings.Index(value, " #"); j >= 0 {
			value = value[:j]
		}
		if value == "" || strings.HasPrefix(value, "file:") || strings.HasPrefix(value, "attr:") {
			continue
		}
		if d, ok := declare(file, n, value, optional); ok {
			out = append(out, d)
		}
	}
	return out
}

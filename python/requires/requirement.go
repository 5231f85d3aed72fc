package requires

import (
	"fmt"
	"regexp"
	"strings"
)

// A Requirement is a PEP 508 requirement string, as far as a version
// range needs it: "cuda-tile[tileiras]>=1.5.0; sys_platform == 'linux'".
type Requirement struct {
	Name  string // normalized (NormalizeName)
	Range Range  // All when it names no version (or a URL)
	Text  string // as written
}

var (
	nameRE  = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?`)
	sepRE   = regexp.MustCompile(`[-_.]+`)
	extraRE = regexp.MustCompile(`^\[[^\]]*\]`)
)

// NormalizeName returns a project name as PEP 503 compares them: lower
// case, each run of "-", "_" and "." one "-" (cuda_tile is cuda-tile).
func NormalizeName(name string) string {
	return sepRE.ReplaceAllString(strings.ToLower(strings.TrimSpace(name)), "-")
}

// ParseRequirement parses a requirement string: a name, optional extras,
// then a specifier set (bare or in parentheses) or "@ URL", then an
// optional "; marker". The marker is not evaluated: the code that uses a
// dependency runs where it is installed, so a requirement counts whatever
// its marker says. A URL admits any version.
func ParseRequirement(s string) (Requirement, error) {
	text := strings.TrimSpace(s)
	req := Requirement{Text: text}
	rest := text
	if i := strings.IndexByte(rest, ';'); i >= 0 {
		rest = rest[:i]
	}
	name := nameRE.FindString(rest)
	if name == "" {
		return req, fmt.Errorf("requirement %q: want a project name first", text)
	}
	req.Name = NormalizeName(name)
	rest = strings.TrimSpace(rest[len(name):])
	if e := extraRE.FindString(rest); e != "" {
		rest = strings.TrimSpace(rest[len(e):])
	}
	if strings.HasPrefix(rest, "@") {
		return req, nil
	}
	if strings.HasPrefix(rest, "(") {
		if !strings.HasSuffix(rest, ")") {
			return req, fmt.Errorf("requirement %q: unclosed (", text)
		}
		rest = rest[1 : len(rest)-1]
	}
	r, err := ParseSpecifiers(rest)
	if err != nil {
		return req, fmt.Errorf("requirement %q: %v", text, err)
	}
	req.Range = r
	return req, nil
}

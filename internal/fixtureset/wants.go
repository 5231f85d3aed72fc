package fixtureset

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Want is one expected finding, from a comment
//
//	# want: TG104 "accept \*\*kwargs" TG106 "no docstring"
//
// on the line the finding is at: one or more pairs of a rule ID and a
// regular expression, between double quotes, that the message must match
// (unanchored; a double quote inside is written \", which the regexp reads
// as a quote). A rule without a regexp is an error: the wording is always
// tested.
type Want struct {
	File    string // slash path in the fixture
	Line    int
	Rule    string
	Pattern string
	Re      *regexp.Regexp
}

func (w Want) String() string {
	return fmt.Sprintf("%s:%d: %s %q", w.File, w.Line, w.Rule, w.Pattern)
}

const wantMarker = "# want:"

// WantsFile is the file of a fixture whose lines give the wants of files
// that cannot hold a comment (JSON): "PATH:LINE # want: ...".
const WantsFile = ".wants"

// ParseWants reads the "# want:" comments of one file (of WantsFile: the
// wants of the file and line each of its lines names).
func ParseWants(file string, data []byte) ([]Want, error) {
	var out []Want
	for i, line := range strings.Split(string(data), "\n") {
		before, rest, ok := strings.Cut(line, wantMarker)
		if !ok {
			continue
		}
		at, n := file, i+1
		if file == WantsFile {
			p, l, ok := strings.Cut(strings.TrimSpace(before), ":")
			var err error
			if n, err = strconv.Atoi(l); !ok || err != nil || p == "" {
				return nil, fmt.Errorf("%s:%d: want PATH:LINE before %q", file, i+1, wantMarker)
			}
			at = p
		}
		ws, err := parseWantLine(rest)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, i+1, err)
		}
		for _, w := range ws {
			w.File, w.Line = at, n
			out = append(out, w)
		}
	}
	return out, nil
}

// ParseAllWants reads the "# want:" comments of every file, sorted by
// file and line.
func ParseAllWants(files map[string][]byte) ([]Want, error) {
	var out []Want
	for p, data := range files {
		ws, err := ParseWants(p, data)
		if err != nil {
			return nil, err
		}
		out = append(out, ws...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, nil
}

func parseWantLine(s string) ([]Want, error) {
	var out []Want
	for {
		s = strings.TrimLeft(s, " \t\r")
		if s == "" {
			break
		}
		id, rest, _ := strings.Cut(s, " ")
		if !IsRuleID(id) {
			return nil, fmt.Errorf("want: %q is not a rule ID", id)
		}
		rest = strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(rest, `"`) {
			return nil, fmt.Errorf(`want: %s has no message regexp: write %s "part of the message"`, id, id)
		}
		end := -1
		for i := 1; i < len(rest); i++ {
			if rest[i] == '\\' {
				i++
				continue
			}
			if rest[i] == '"' {
				end = i
				break
			}
		}
		if end < 0 {
			return nil, fmt.Errorf("want: %s: unterminated regexp", id)
		}
		pat := rest[1:end]
		if pat == "" {
			return nil, fmt.Errorf("want: %s: empty regexp", id)
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return nil, fmt.Errorf("want: %s: %v", id, err)
		}
		out = append(out, Want{Rule: id, Pattern: pat, Re: re})
		s = rest[end+1:]
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("want: names no rule")
	}
	return out, nil
}

// IsRuleID reports whether s is a rule ID: a family prefix (1 to 3 capital
// letters: TG, K, A) and two or three digits.
func IsRuleID(s string) bool {
	i := 0
	for i < len(s) && i < 3 && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	digits := len(s) - i
	if i == 0 || digits < 2 || digits > 3 {
		return false
	}
	for _, c := range s[i:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

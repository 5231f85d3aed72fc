package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Family is a family of rules: the rules of one TileGym skill ([[family]]
// in rules.toml). Its rules' ids are its prefix and digits; the family TG
// ("adding a cuTile kernel") has steps, and its rules' ids carry the step
// digit (TG301); the other families have none (K01, A02).
type Family struct {
	Prefix string // the id prefix: "TG", "K", "A"
	Name   string // what the skill is about, for people
	Skill  string // the skill's directory in a TileGym checkout
	// Steps says that the family's rules belong to the steps of the
	// workflow (only TG): its findings are reported per op and per step.
	Steps bool
	// Requirements are the numbers of the rules the family's specification
	// gives (K1, K2, ...); a rule's requirement must be one of them. Empty
	// for a family with steps, whose requirements are those of
	// docs/requirements.md.
	Requirements []string
	Line         int
}

// TG is the prefix of the family of the workflow "adding a cuTile kernel".
const TG = "TG"

// defaultFamily is the family of a catalog that declares none: TG.
func defaultFamily() *Family {
	return &Family{Prefix: TG, Name: "adding a cuTile kernel", Skill: "skills/tilegym-adding-cutile-kernel", Steps: true}
}

type rawFamily struct {
	Prefix       string   `toml:"prefix"`
	Name         string   `toml:"name"`
	Skill        string   `toml:"skill"`
	Steps        bool     `toml:"steps"`
	Requirements []string `toml:"requirements"`
}

var (
	prefixRE      = regexp.MustCompile(`^[A-Z]{1,3}$`)
	requirementRE = regexp.MustCompile(`^[A-Z]+[0-9]+$`)
)

// loadFamilies decodes the [[family]] tables.
func loadFamilies(val any, kl KeyLines, filename string, errs *ErrorList) []*Family {
	list, ok := val.([]map[string]any)
	if !ok {
		*errs = append(*errs, &LoadError{File: filename, Line: kl.Line("family"), Msg: "family: want an array of tables ([[family]])"})
		return nil
	}
	var out []*Family
	seen := map[string]int{}
	for i, t := range list {
		prefix := []string{"family", strconv.Itoa(i)}
		line := kl.Line(prefix...)
		var raw rawFamily
		if !DecodeTable(t, &raw, prefix, kl, filename, errs) {
			continue
		}
		add := func(format string, args ...any) {
			*errs = append(*errs, &LoadError{File: filename, Line: line, Msg: fmt.Sprintf(format, args...)})
		}
		switch {
		case !prefixRE.MatchString(raw.Prefix):
			add("family %q: prefix must be 1 to 3 capital letters", raw.Prefix)
			continue
		case strings.TrimSpace(raw.Name) == "":
			add("family %s: missing name", raw.Prefix)
		case raw.Skill == "" || strings.HasPrefix(raw.Skill, "/") || strings.Contains(raw.Skill, "\\"):
			add("family %s: skill must be the skill's directory, a slash path relative to the root", raw.Prefix)
		}
		if l, ok := seen[raw.Prefix]; ok {
			add("family %s defined twice (first on line %d)", raw.Prefix, l)
			continue
		}
		seen[raw.Prefix] = line
		if raw.Steps && raw.Prefix != TG {
			add("family %s: only the family TG has steps", raw.Prefix)
		}
		if !raw.Steps && len(raw.Requirements) == 0 {
			add("family %s: list the numbers of its specification's rules in requirements", raw.Prefix)
		}
		for _, r := range raw.Requirements {
			if !requirementRE.MatchString(r) {
				add("family %s: requirement %q: want capital letters and a number, e.g. K1", raw.Prefix, r)
			}
		}
		out = append(out, &Family{Prefix: raw.Prefix, Name: raw.Name, Skill: raw.Skill, Steps: raw.Steps, Requirements: raw.Requirements, Line: line})
	}
	// No prefix may be a prefix of another: an id names one family.
	for _, a := range out {
		for _, b := range out {
			if a != b && strings.HasPrefix(b.Prefix, a.Prefix) {
				*errs = append(*errs, &LoadError{File: filename, Line: b.Line,
					Msg: fmt.Sprintf("family %s: its prefix starts with the prefix of family %s; an id must name one family", b.Prefix, a.Prefix)})
			}
		}
	}
	return out
}

// FamilyOf returns the family whose prefix an id starts with, or nil.
func (c *Catalog) FamilyOf(id string) *Family {
	for _, f := range c.Families {
		if strings.HasPrefix(id, f.Prefix) {
			return f
		}
	}
	return nil
}

// Family returns the family with the given prefix, or nil.
func (c *Catalog) Family(prefix string) *Family {
	for _, f := range c.Families {
		if f.Prefix == prefix {
			return f
		}
	}
	return nil
}

// Match returns the ids of the rules a selector names (--select,
// --ignore): an id, or a prefix of ids ("TG1" is every TG1xx rule); case
// is ignored. A family's prefix selects its rules only (T is not TG's).
func (c *Catalog) Match(sel string) []string {
	sel = strings.ToUpper(sel)
	var ids []string
	fam := c.Family(sel)
	for _, r := range c.Rules {
		if fam != nil && r.Family == fam.Prefix || fam == nil && strings.HasPrefix(r.ID, sel) {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// familyID reports whether id is a valid id of family f: TG, the step digit
// and two digits for the family with steps; the prefix and two digits for
// the others.
func familyID(f *Family, id string) bool {
	if f.Steps {
		return validID(id)
	}
	rest, ok := strings.CutPrefix(id, f.Prefix)
	return ok && len(rest) == 2 && rest[0] >= '0' && rest[0] <= '9' && rest[1] >= '0' && rest[1] <= '9'
}

// checkFamilyRule validates a rule against its family: its id, its step
// (only in a family with steps) and its requirement.
func checkFamilyRule(c *Catalog, r *Rule, hasStep bool, add func(line int, format string, args ...any)) {
	f := c.FamilyOf(r.ID)
	if f == nil && len(c.Families) == 1 {
		return // the id is not TG's: loadRule said so
	}
	if f == nil {
		prefixes := make([]string, len(c.Families))
		for i, f := range c.Families {
			prefixes[i] = f.Prefix
		}
		add(r.Line, "rule %s: its id starts with no family's prefix (%s)", r.ID, strings.Join(prefixes, ", "))
		return
	}
	r.Family = f.Prefix
	if f.Steps {
		return // checked by loadRule
	}
	if !familyID(f, r.ID) {
		add(r.Line, "rule %s: invalid id: want %s and two digits, e.g. %s01", r.ID, f.Prefix, f.Prefix)
	}
	if hasStep {
		add(r.Line, "rule %s: family %s has no steps; remove step", r.ID, f.Prefix)
	}
	if r.Requirement != "" && !slices.Contains(f.Requirements, r.Requirement) {
		add(r.Line, "rule %s: unknown requirement %q: family %s's specification numbers its rules %s", r.ID, r.Requirement, f.Prefix, strings.Join(f.Requirements, ", "))
	}
}

// ListUser is implemented by a kind's params that name lists of the
// catalog's [lists]: Load checks that each exists and gives it its values.
type ListUser interface {
	// ListNames returns the names of the lists the params use.
	ListNames() []string
	// BindLists gives the params the catalog's lists.
	BindLists(lists map[string]*List)
}

// Package rules holds the rule catalog of tilegym-lint: the declarative
// description, read from rules.toml, of every workflow requirement the
// checker enforces.
package rules

// Severity is how much a finding of a rule matters.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Rule is one entry of the catalog ([[rule]] in rules.toml).
type Rule struct {
	ID          string   // "TG301": TG + step digit (0 for cross-step) + two digits; "K01": another family's prefix + two digits
	Family      string   // the prefix of its family: "TG", "K", ...
	Step        int      // 1..6, or 0 for a cross-step rule (and for every rule of a family without steps)
	Requirement string   // the requirement it encodes, e.g. "S3.1" (see docs/requirements.md), or "K1" (its family's specification)
	Severity    Severity // default severity; configuration may override it
	Title       string   // one line: what the rule wants
	Message     string   // message template; {op}, {file} and kind-specific {placeholders}
	Docs        Docs
	Files       []string // file patterns (slash globs, ** allowed) the rule looks at; empty = the kind's default
	Kind        string   // the check kind that implements the rule
	// Fixable says that the rule's findings carry a suggested fix that
	// --fix applies when it is mechanical and unambiguous (not every
	// finding has one: see the rule's docs).
	Fixable bool
	// Params holds the kind's parameters, decoded into the struct the kind
	// declares (a pointer), or nil when the kind takes none.
	Params any
	// Texts are the named parts of messages ([rule.texts]) that the kind
	// chooses between and renders into a placeholder of Message: the
	// rule's words stay in rules.toml. Each is a template like Message.
	Texts map[string]string
	// Line is where the rule starts in rules.toml, for error messages.
	Line int
}

// Docs is the documentation of a rule, in ruff's shape.
type Docs struct {
	What    string // what it checks
	Why     string // why it matters
	Fix     string // how to fix it
	Example string // an example of a fix (code)
}

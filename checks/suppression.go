package checks

import (
	"errors"
)

// SuppressionAnalyzer implements kind "suppression".
var SuppressionAnalyzer = &Analyzer{
	Name:         "suppression",
	Placeholders: []string{"op", "file", "code", "comment", "why"},
	Doc: `Reports suppression comments that are not what they should be.

The kind only declares the rules: the driver computes these findings after
the kinds ran (it alone knows which findings a comment silenced; the
Suppressions property tells it so). A finding on a line is suppressed by
"# noqa: TG301" (or a bare "# noqa") or by the directive
"# tilegym-lint: ignore=TG301,TG302 reason=\"...\"" on that line. The
rule's params select the check (check = ...):
  "unused"  a TG code of a "# noqa:" or an ignore directive that silenced no
            finding of a check that ran over the line (a bare "# noqa" is
            never reported: other tools read it too). Placeholders: {code},
            {comment}, {why}.
  "reason"  an ignore directive without a reason="..." (it suppresses
            nothing until it has one). Placeholder: {comment}.`,
	Params:       func() any { return new(SuppressionParams) },
	Run:          func(*Pass) (any, error) { return nil, nil },
	Suppressions: true,
}

type SuppressionParams struct {
	Check string `toml:"check"` // "unused" or "reason"
}

func (p *SuppressionParams) Validate() error {
	if p.Check != "unused" && p.Check != "reason" {
		return errors.New(`check: want "unused" or "reason"`)
	}
	return nil
}

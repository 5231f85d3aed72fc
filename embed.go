// Package tilegymlint carries the data files tilegym-lint needs at run time,
// so that the binary works from any directory: the rule catalog and the list
// of requirement IDs of the workflow.
package tilegymlint

import _ "embed"

// RulesTOML is the rule catalog, rules.toml.
//
//go:embed rules.toml
var RulesTOML []byte

// RequirementsTXT is docs/requirements.txt: one requirement ID per line
// (W1, S1.1, ..., X.2), every one of which some rule must cite.
//
//go:embed docs/requirements.txt
var RequirementsTXT []byte

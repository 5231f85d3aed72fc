// Package tilegymlint carries the source of the built-in rule catalog,
// rules.toml, for tests that load it through the TOML path (rules.Load).
// The binary does not use it: it loads the catalog pre-decoded at build
// time (rules.LoadBuiltin, from rules/catalog_gen.go).
package tilegymlint

import _ "embed"

// RulesTOML is the rule catalog, rules.toml.
//
//go:embed rules.toml
var RulesTOML []byte

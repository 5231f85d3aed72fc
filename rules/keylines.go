package rules

import (
	"strings"

	"github.com/tilegym/tilegym-lint/rules/internal/srcscan"
)

// KeyLines maps the keys of a TOML document to the lines (1-based) where
// they are defined, for error messages: BurntSushi/toml reports the line of
// syntax errors but keeps no positions for keys. A key is written as its
// dotted path with the index of each array-of-tables element as a segment:
// "version", "rule.3", "rule.3.params.suffixes", "layout.scope.0.tests".
// Keys inside inline tables are not listed: Line falls back to the nearest
// listed ancestor.
type KeyLines map[string]int

// Line returns the line of key, or of its nearest ancestor that has one, or 0.
func (kl KeyLines) Line(key ...string) int {
	for n := len(key); n > 0; n-- {
		if l, ok := kl[strings.Join(key[:n], ".")]; ok {
			return l
		}
	}
	return 0
}

// ScanKeyLines scans a TOML document for the lines of its keys and table
// headers. It never fails: on text it does not understand it records less.
func ScanKeyLines(src []byte) KeyLines {
	return srcscan.KeyLines(src)
}

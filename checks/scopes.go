package checks

// What the kinds read of a layout scope: whether a rule applies to it, its
// dispatch file.

import (
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
)

// inScopes reports whether the op's scope is listed (an empty list means
// every scope).
func inScopes(scopes []string, sc *layout.Scope) bool {
	if len(scopes) == 0 {
		return true
	}
	for _, s := range scopes {
		if sc != nil && s == sc.Name {
			return true
		}
	}
	return false
}

// firstDispatchFile names the dispatch file of a scope binding: its first
// literal dispatch pattern; "" when it has none (the rule's text
// "no-dispatch-file" then names it).
func firstDispatchFile(sc *layout.Scope, suite string) string {
	for _, d := range sc.Dispatch {
		if !strings.ContainsAny(d, "*?[") {
			return layout.ExpandSuite(d, suite)
		}
	}
	return ""
}

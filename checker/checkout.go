package checker

import (
	"fmt"
	"strings"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/layout"
)

// NotACheckout returns the error of a whole check (or a check of named
// ops) that found no op at all: the directory is not a TileGym checkout,
// or the configuration's exclude or [layout] leaves none of its dispatch
// files in scope. A CI job pointed at the wrong directory must fail, not
// pass with "0 ops". It returns nil when the result has an op. A change
// that touches no op, or files that belong to none, legitimately report
// none: the caller asks only for whole checks.
func NotACheckout(root string, l *layout.Layout, cfg *config.Config, res *Result) error {
	// Ops, or findings (a dispatch file that does not parse, registrations
	// of no op): a checkout, reported as it is.
	if res != nil && (res.Table != nil && len(res.Table.Ops) > 0 || len(res.Diagnostics) > 0) {
		return nil
	}
	var dispatch []string
	if l != nil {
		for _, s := range l.Scopes {
			dispatch = append(dispatch, s.Dispatch...)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: no op found, so nothing was checked: no @dispatch stub in the layout's dispatch files", root)
	if len(dispatch) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(dispatch, ", "))
	}
	b.WriteString(". Is it a TileGym checkout? Point tilegym-lint at the root of one (the directory holding src/tilegym)")
	if cfg != nil && len(cfg.Exclude) > 0 {
		fmt.Fprintf(&b, "; check that exclude in %s (%s) does not leave out the dispatch files", cfg.File, strings.Join(cfg.Exclude, ", "))
	}
	b.WriteString("; if its ops live elsewhere, say where in [layout] of the configuration")
	return fmt.Errorf("%s", b.String())
}

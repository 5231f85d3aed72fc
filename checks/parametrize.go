package checks

// What the kinds read of a pytest parametrize decorator.

import (
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// parametrizedArg returns the first of names among the argument names of a
// parametrize call ("backend", "dtype, backend", ["dtype", "backend"]).
func parametrizedArg(c *ast.Call, names []string) string {
	e := astutil.CallArg(c, 0, "argnames")
	var list []string
	if s, ok := astutil.StringValue(e); ok {
		for _, part := range strings.Split(s, ",") {
			list = append(list, strings.TrimSpace(part))
		}
	} else if cs, ok := astutil.StringList(e); ok {
		for _, k := range cs {
			list = append(list, strings.TrimSpace(k.Value.(string)))
		}
	}
	for _, l := range list {
		for _, n := range names {
			if l == n {
				return l
			}
		}
	}
	return ""
}

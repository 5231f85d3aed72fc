package checker

import (
	"fmt"
	"strings"
)

func validStep(step int) error {
	if step != 4 && step != 5 {
		return fmt.Errorf("step = %d: want 4 (tests) or 5 (benchmarks)", step)
	}
	return nil
}

func needList(name string, xs []string) error {
	if len(xs) == 0 {
		return fmt.Errorf("%s: want at least one entry", name)
	}
	for _, x := range xs {
		if strings.TrimSpace(x) == "" {
			return fmt.Errorf("%s: empty entry", name)
		}
	}
	return nil
}

func oneOf(field, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return fmt.Errorf("%s = %q: want one of %s", field, v, strings.Join(allowed, ", "))
}

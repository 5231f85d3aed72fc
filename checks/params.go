package checks

// What the kinds' params share: their validation, and reading a position
// written in an entry.

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
	if err := needEntries(name, xs); err != nil {
		return err
	}
	for _, x := range xs {
		if strings.TrimSpace(x) == "" {
			return fmt.Errorf("%s: empty entry", name)
		}
	}
	return nil
}

// needEntries rejects an empty list (its entries are checked where they are
// parsed).
func needEntries(name string, xs []string) error {
	if len(xs) == 0 {
		return fmt.Errorf("%s: want at least one entry", name)
	}
	return nil
}

// needValue rejects an empty string.
func needValue(name, v string) error {
	if v == "" {
		return fmt.Errorf("%s: want a value", name)
	}
	return nil
}

// atoiStrict reads a position written in a params entry ("2"): decimal
// digits only, no sign (strconv.Atoi takes "+2").
func atoiStrict(s string) (int, error) {
	if s == "" {
		return 0, errNotNumber
	}
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, errNotNumber
		}
		n = n*10 + int(r-'0')
	}
	return n, nil
}

type notNumber struct{}

func (notNumber) Error() string { return "not a number" }

var errNotNumber error = notNumber{}

package parser

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// maxIntDigits is CPython's default sys.int_info.default_max_str_digits.
const maxIntDigits = 4300

// number converts the NUMBER token i into its constant value.
func (p *parser) number(i int) any {
	t := &p.toks[i]
	s := p.srcStr[t.start:t.end]
	if len(s) <= 18 {
		// Fast path: plain decimal digits.
		var n int64
		j := 0
		for ; j < len(s); j++ {
			c := s[j]
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int64(c-'0')
		}
		if j == len(s) && (s[0] != '0' || n == 0) {
			return p.newInt(n)
		}
	}
	if strings.IndexByte(s, '_') >= 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	if len(s) > 1 && s[0] == '0' {
		base := 0
		switch s[1] | 0x20 {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
		if base != 0 {
			v, ok := new(big.Int).SetString(s[2:], base)
			if !ok {
				p.errorAt(i, "invalid number literal")
			}
			return v
		}
	}
	last := s[len(s)-1] | 0x20
	if last == 'j' {
		f := parseFloat(s[:len(s)-1])
		return complex(0, f)
	}
	if strings.ContainsAny(s, ".eE") {
		return parseFloat(s)
	}
	if len(s) <= 18 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err == nil {
			return p.newInt(n)
		}
	}
	if len(s) > maxIntDigits {
		// CPython's int max str digits limit applies to decimal literals.
		p.errorAt(i, "Exceeds the limit (4300 digits) for integer string conversion")
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		p.errorAt(i, "invalid number literal")
	}
	return v
}

// smallInts holds the shared values of the int constants 0 to 1023 (see the
// package documentation: trees are read-only).
var smallInts = func() *[1024]big.Int {
	var ints [1024]big.Int
	var words [1024]big.Word
	for i := range ints {
		words[i] = big.Word(i)
		ints[i].SetBits(words[i : i+1 : i+1])
	}
	return &ints
}()

func parseFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			if f == 0 {
				return 0
			}
			return math.Inf(1)
		}
	}
	return f
}

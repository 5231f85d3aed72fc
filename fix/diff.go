package fix

import (
	"bytes"
	"fmt"
	"strings"
)

// DiffContext is the number of unchanged lines shown around a change, as
// diff -u shows them.
const DiffContext = 3

// UnifiedDiff returns the unified diff (diff -u format, DiffContext lines of
// context) that turns before into after, with the headers "--- a/NAME" and
// "+++ b/NAME", or "" when the two are equal. Lines are split after each
// '\n' and compared with their line ends, so a CR of a CRLF file is part of
// its line and a changed line end is a changed line; a last line without
// '\n' is followed by "\ No newline at end of file", as diff and git print
// it. A file that does not exist on one side is given as nil, and its header
// is /dev/null. The edit script is a shortest one (Myers' algorithm).
func UnifiedDiff(name string, before, after []byte) string {
	if bytes.Equal(before, after) && (before == nil) == (after == nil) {
		return ""
	}
	a, b := splitLines(before), splitLines(after)
	ops := editScript(a, b)
	var sb strings.Builder
	from, to := "a/"+name, "b/"+name
	if before == nil {
		from = "/dev/null"
	}
	if after == nil {
		to = "/dev/null"
	}
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", from, to)
	for _, h := range hunks(ops, DiffContext) {
		writeHunk(&sb, h, a, b)
	}
	return sb.String()
}

// splitLines splits after every '\n'; the last line may lack one.
func splitLines(s []byte) []string {
	var lines []string
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, string(s))
			break
		}
		lines = append(lines, string(s[:i+1]))
		s = s[i+1:]
	}
	return lines
}

// opKind is one step of an edit script.
type opKind byte

const (
	opEqual opKind = ' '
	opDel   opKind = '-'
	opIns   opKind = '+'
)

// diffOp is one line of an edit script: an equal line (A and B both set),
// a deleted line of a (A) or an inserted line of b (B).
type diffOp struct {
	kind opKind
	a, b int // indexes into a and b; the index the line would have on the other side for del/ins
}

// editScript computes a shortest edit script from a to b with Myers'
// O((N+M)D) algorithm, deletions before insertions within a change.
func editScript(a, b []string) []diffOp {
	n, m := len(a), len(b)
	max := n + m
	off := max + 1
	v := make([]int, 2*max+3)
	var trace [][]int
	d := 0
found:
	for ; d <= max; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: insertion
			} else {
				x = v[off+k-1] + 1 // right: deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				trace = append(trace, append([]int(nil), v...))
				break found
			}
		}
		trace = append(trace, append([]int(nil), v...))
	}
	// Walk back through the trace.
	var rev []diffOp
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		k := x - y
		if d == 0 {
			for x > 0 && y > 0 {
				x--
				y--
				rev = append(rev, diffOp{opEqual, x, y})
			}
			break
		}
		pv := trace[d-1]
		var prevK int
		if k == -d || k != d && pv[off+k-1] < pv[off+k+1] {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := pv[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, diffOp{opEqual, x, y})
		}
		if prevK == k+1 {
			y--
			rev = append(rev, diffOp{opIns, x, y})
		} else {
			x--
			rev = append(rev, diffOp{opDel, x, y})
		}
		x, y = prevX, prevY
	}
	ops := make([]diffOp, len(rev))
	for i := range rev {
		ops[i] = rev[len(rev)-1-i]
	}
	// Within each run of changes, put the deletions first (diff -u order).
	for i := 0; i < len(ops); {
		if ops[i].kind == opEqual {
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != opEqual {
			j++
		}
		run := ops[i:j]
		var dels, ins []diffOp
		for _, o := range run {
			if o.kind == opDel {
				dels = append(dels, o)
			} else {
				ins = append(ins, o)
			}
		}
		copy(run, append(dels, ins...))
		i = j
	}
	return ops
}

// hunk is a slice of the edit script shown together.
type hunk []diffOp

// hunks groups the changes with ctx lines of context; changes separated by
// at most 2*ctx equal lines share a hunk.
func hunks(ops []diffOp, ctx int) []hunk {
	var out []hunk
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].kind == opEqual {
			i++
		}
		if i == len(ops) {
			break
		}
		start := i - ctx
		if start < 0 {
			start = 0
		}
		end := i // one past the last change included
		for {
			for end < len(ops) && ops[end].kind != opEqual {
				end++
			}
			j := end
			for j < len(ops) && ops[j].kind == opEqual {
				j++
			}
			if j < len(ops) && j-end <= 2*ctx {
				end = j
				continue
			}
			break
		}
		stop := end + ctx
		if stop > len(ops) {
			stop = len(ops)
		}
		out = append(out, hunk(ops[start:stop]))
		i = end
	}
	return out
}

func writeHunk(sb *strings.Builder, h hunk, a, b []string) {
	aStart, bStart := h[0].a, h[0].b
	aLen, bLen := 0, 0
	for _, o := range h {
		switch o.kind {
		case opEqual:
			aLen++
			bLen++
		case opDel:
			aLen++
		case opIns:
			bLen++
		}
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, o := range h {
		var line string
		switch o.kind {
		case opEqual, opDel:
			line = a[o.a]
		case opIns:
			line = b[o.b]
		}
		sb.WriteByte(byte(o.kind))
		sb.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange formats a range as diff -u does: "l,n" with a 1-based start,
// "l" when n is 1, and for an empty range the line before it.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

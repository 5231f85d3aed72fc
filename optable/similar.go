package optable

// Closest returns the candidate nearest to s by edit distance, if it is
// near enough to be a plausible typo. Only candidates within that distance
// are measured to the end, in one table allocated once: it is called per name
// that matches nothing, against every name of the repository.
func Closest(s string, candidates []string) string {
	limit := max(2, len(s)/5)
	best, bestD := "", limit+1
	rows := make([]int, 2*(len(s)+limit+1)) // the longest candidate measured
	for _, c := range candidates {
		if len(c) > len(s)+limit || len(s) > len(c)+limit {
			continue // the distance is at least the difference of the lengths
		}
		var d int
		d, rows = editDistanceWithin(s, c, limit, rows)
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance of two strings (bytes).
func EditDistance(a, b string) int {
	d, _ := editDistanceWithin(a, b, len(a)+len(b), nil)
	return d
}

// editDistanceWithin returns the Levenshtein distance of a and b when it is
// at most limit, else limit+1 (as soon as a row of the table shows it). It
// uses rows for the table when it is long enough, and returns the table's
// storage for the next call.
func editDistanceWithin(a, b string, limit int, rows []int) (int, []int) {
	if cap(rows) < 2*(len(b)+1) {
		rows = make([]int, 2*(len(b)+1))
	}
	prev, cur := rows[:len(b)+1], rows[len(b)+1:2*(len(b)+1)]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1, rows // a row's minimum never decreases below
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit+1), rows
}

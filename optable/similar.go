package optable

// MaxSuggestLen is the longest name, in bytes, that gets a "did you mean"
// suggestion or is suggested: TileGym's op names are a few dozen bytes, and
// a typo in a longer name is not worth measuring (the edit distance of two
// names costs their lengths' product without a bound).
const MaxSuggestLen = 64

// suggesterBudget bounds the cells of edit-distance tables all the calls
// of one Suggester measure (a check asks once per name that matches
// nothing, against every name of the repository: a repository of many such
// names must not make that quadratic). A repository's ordinary names take
// a small fraction of it.
const suggesterBudget = 1 << 24

// A Suggester answers Closest for many names, sharing one table and one
// budget of work: once the budget is spent, it suggests nothing more.
type Suggester struct {
	rows  []int
	spent int // cells of the table measured
	limit int // budget of cells
}

// NewSuggester returns a Suggester for the names of one check.
func NewSuggester() *Suggester {
	return &Suggester{limit: suggesterBudget}
}

// Closest returns the candidate nearest to s by edit distance, if it is
// near enough to be a plausible typo: at most max(2, len(s)/5) edits, ties
// to the smallest name. Names longer than MaxSuggestLen are neither
// answered nor suggested. Within the Suggester's budget: when the budget
// runs out, it answers the best candidate measured so far ("" when none),
// and "" for every later call.
func (sg *Suggester) Closest(s string, candidates []string) string {
	if len(s) > MaxSuggestLen {
		return ""
	}
	limit := max(2, len(s)/5)
	best, bestD := "", limit+1
	if sg.rows == nil {
		sg.rows = make([]int, 2*(MaxSuggestLen+1))
	}
	for _, c := range candidates {
		if len(c) > MaxSuggestLen || len(c) > len(s)+limit || len(s) > len(c)+limit {
			continue // the distance is at least the difference of the lengths
		}
		// The most cells the banded table of s and c can take.
		if sg.spent+(len(s)+1)*(2*limit+1) > sg.limit {
			sg.spent = sg.limit
			break
		}
		d, cells := editDistanceWithin(s, c, limit, sg.rows)
		sg.spent += cells
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	return best
}

// editDistanceWithin returns the Levenshtein distance of a and b when it is
// at most limit, else limit+1, and the number of cells of the table it
// computed. Only the band of cells within limit of the diagonal is
// computed (a cell outside it is more than limit), and it stops at the
// first row whose cells all exceed limit (a row's minimum never decreases
// below): the work is at most len(a)·(2·limit+1). rows is the table's
// storage when it is long enough.
func editDistanceWithin(a, b string, limit int, rows []int) (int, int) {
	if cap(rows) < 2*(len(b)+1) {
		rows = make([]int, 2*(len(b)+1))
	}
	out := limit + 1 // any value above limit
	if len(a)-len(b) > limit || len(b)-len(a) > limit {
		return out, 0 // the distance is at least the difference of the lengths
	}
	prev, cur := rows[:len(b)+1], rows[len(b)+1:2*(len(b)+1)]
	for j := range prev {
		prev[j] = min(j, out)
	}
	cells := 0
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-limit), min(len(b), i+limit)
		if lo == 1 {
			cur[0] = min(i, out)
		} else {
			cur[lo-1] = out
		}
		rowMin := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost, out)
			rowMin = min(rowMin, cur[j])
		}
		cells += hi - lo + 1
		if hi+1 <= len(b) {
			cur[hi+1] = out // the next row's band reads it
		}
		if rowMin > limit {
			return out, cells
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], out), cells
}

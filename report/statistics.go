package report

import (
	"fmt"
	"io"
	"sort"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
)

// WriteStatistics writes how many findings each rule has, with its
// severity and title, most frequent first (then by rule id), as ruff's
// --statistics does; then the summary line.
func WriteStatistics(w io.Writer, res *checker.Result, opt TextOptions) error {
	opt.Color = false
	t := newTextWriter(w, opt)
	type row struct {
		d *analysis.Diagnostic
		n int
	}
	byID := map[string]*row{}
	var rows []*row
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		r := byID[d.Rule.ID]
		if r == nil {
			r = &row{d: d}
			byID[d.Rule.ID] = r
			rows = append(rows, r)
		}
		r.n++
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].n != rows[j].n {
			return rows[i].n > rows[j].n
		}
		return rows[i].d.Rule.ID < rows[j].d.Rule.ID
	})
	width := 1
	if len(rows) > 0 {
		width = len(fmt.Sprint(rows[0].n))
	}
	for _, r := range rows {
		t.printf("%*d  %s  %-7s  %s\n", width, r.n, r.d.Rule.ID, severity(r.d), r.d.Rule.Title)
	}
	ops, _ := views(res, t.v)
	failed := 0
	for _, o := range ops {
		if o.fail {
			failed++
		}
	}
	t.summary(res, failed)
	return t.done()
}

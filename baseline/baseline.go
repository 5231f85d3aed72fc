// Package baseline reads, writes and applies a baseline: the findings a
// repository had when it adopted tilegym-lint, which are then reported as
// baselined and do not fail the run, while new ones do.
//
// The file is text, one entry a line, sorted (by file, rule, op,
// fingerprint) so that it diffs and merges well: a header line starting
// with "#", then per identity (analysis.Identity) the tab-separated fields
//
//	rule  op  file  fingerprint  count
//
// op "-" for a finding of no op; count, how many findings have the
// identity (lines repeated add up). An op or file holding a tab, a control character or a
// leading quote (or an op named "-") is written Go-quoted.
package baseline

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/rules"
)

// Header is the first line of a baseline file.
const Header = "# tilegym-lint baseline v1: rule, op, file, fingerprint of the finding's line, count (tab-separated); write it again with tilegym-lint --write-baseline FILE"

// Entry is one line of a baseline: an identity and how many findings have it.
type Entry struct {
	analysis.Identity
	Count int
	Line  int    // the line in the file (1-based)
	Text  string // the line as read
}

// Baseline is a baseline file read.
type Baseline struct {
	Path    string // as the caller names it (messages say it)
	Entries []Entry
}

// Write writes the findings of a result as a baseline.
func Write(w io.Writer, res *checker.Result) error {
	counts := map[analysis.Identity]int{}
	var ids []analysis.Identity
	for i := range res.Diagnostics {
		id := analysis.IdentityOf(&res.Diagnostics[i], res.Diagnostics[i].File)
		if counts[id] == 0 {
			ids = append(ids, id)
		}
		counts[id]++
	}
	analysis.SortIdentities(ids)
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, Header)
	for _, id := range ids {
		op := id.Op
		if op == "" {
			op = "-"
		} else if op == "-" {
			op = strconv.Quote(op)
		} else {
			op = field(op)
		}
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\t%d\n", id.Rule, op, field(id.File), id.Fingerprint, counts[id])
	}
	return bw.Flush()
}

// field quotes a field that would not read back as itself.
func field(s string) string {
	if strings.HasPrefix(s, `"`) || s == "" {
		return strconv.Quote(s)
	}
	for _, c := range s {
		if c < 0x20 || c == 0x7f {
			return strconv.Quote(s)
		}
	}
	return s
}

func unfield(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		return strconv.Unquote(s)
	}
	return s, nil
}

// Read parses a baseline file's content; name is how errors name it.
func Read(data []byte, name string) (*Baseline, error) {
	b := &Baseline{Path: name}
	var errs rules.ErrorList
	seen := map[analysis.Identity]int{}
	bad := func(line int, format string, args ...any) {
		errs = append(errs, &rules.LoadError{File: name, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	for n, line := range bytes.Split(data, []byte("\n")) {
		text := strings.TrimSuffix(string(line), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != 5 {
			bad(n+1, "want 5 tab-separated fields (rule, op, file, fingerprint, count), have %d; write the baseline again with tilegym-lint --write-baseline %s", len(f), name)
			continue
		}
		e := Entry{Line: n + 1, Text: text}
		e.Rule = f[0]
		if e.Rule == "" {
			bad(n+1, "no rule")
			continue
		}
		var err error
		if f[1] != "-" {
			if e.Op, err = unfield(f[1]); err != nil {
				bad(n+1, "op %s: %v", f[1], err)
				continue
			}
		}
		if e.File, err = unfield(f[2]); err != nil || e.File == "" {
			bad(n+1, "file %s: not a path", f[2])
			continue
		}
		e.Fingerprint = f[3]
		if !isHex(e.Fingerprint) {
			bad(n+1, "fingerprint %q: want 16 hexadecimal digits", f[3])
			continue
		}
		if e.Count, err = strconv.Atoi(f[4]); err != nil || e.Count < 1 {
			bad(n+1, "count %q: want a positive number", f[4])
			continue
		}
		if i, ok := seen[e.Identity]; ok {
			// A repeated line counts too (as a merge may leave it).
			b.Entries[i].Count += e.Count
			continue
		}
		seen[e.Identity] = len(b.Entries)
		b.Entries = append(b.Entries, e)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return b, nil
}

func isHex(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Scope says which entries a check can judge stale: those of an enabled
// rule and, unless Whole, of an op it reported.
type Scope struct {
	Whole    bool                // a whole check: every op and file
	Ops      map[string]bool     // the ops checked (when not Whole)
	Disabled map[string]bool     // rules not run
	Rule     *rules.Rule         // TG009, nil when disabled
	Severity rules.Severity      // its effective severity
	File     string              // the baseline's path from the checked root, slash separated
	Judge    func(e *Entry) bool // optional: further says whether an entry is judged
}

// Apply marks the findings of res the baseline records as Baseline and,
// when sc.Rule is set, adds a finding of it for each entry within sc that
// matched no finding (or fewer than its count). It returns how many
// findings it marked. Findings are matched as change mode matches them
// (analysis.Known): the same identity, then the same rule, op and file.
func (b *Baseline) Apply(res *checker.Result, sc Scope) int {
	known := analysis.NewKnown()
	lines := map[analysis.Identity]*Entry{}
	for i := range b.Entries {
		e := &b.Entries[i]
		known.Add(e.Identity, e.Count)
		lines[e.Identity] = e
	}
	ids := make([]analysis.Identity, len(res.Diagnostics))
	for i := range res.Diagnostics {
		ids[i] = analysis.IdentityOf(&res.Diagnostics[i], res.Diagnostics[i].File)
	}
	marked := 0
	for i, ok := range known.Match(ids) {
		if ok {
			res.Diagnostics[i].Baseline = true
			marked++
		}
	}
	if sc.Rule == nil {
		return marked
	}
	left, counts := known.Left()
	var stale []analysis.Diagnostic
	for i, id := range left {
		e := lines[id]
		if sc.Disabled[id.Rule] || !sc.Whole && (id.Op == "" || !sc.Ops[id.Op]) || sc.Judge != nil && !sc.Judge(e) {
			continue
		}
		entry := id.Rule + " " + id.File
		if id.Op != "" {
			entry = id.Rule + " " + id.Op + " " + id.File
		}
		problem := "matches no finding any more"
		if counts[i] < e.Count {
			left := e.Count - counts[i]
			problem = fmt.Sprintf("counts %d findings, of which %d %s left: set its count to %d", e.Count, left, map[bool]string{true: "is", false: "are"}[left == 1], left)
		}
		d := analysis.Diagnostic{
			Rule:        sc.Rule,
			File:        sc.File,
			Message:     analysis.Render(sc.Rule.Message, "", map[string]string{"entry": entry, "problem": problem, "baseline": sc.File, "file": sc.File}),
			Severity:    sc.Severity,
			Fingerprint: analysis.Fingerprint(e.Text),
		}
		d.Pos.Line, d.End.Line, d.End.Col = e.Line, e.Line, len(e.Text)
		stale = append(stale, d)
	}
	if len(stale) > 0 {
		res.Diagnostics = append(res.Diagnostics, stale...)
		checker.SortDiagnostics(res.Diagnostics)
	}
	return marked
}

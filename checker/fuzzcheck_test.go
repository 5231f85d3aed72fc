package checker_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	tilegymlint "github.com/tilegym/tilegym-lint"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/report"
	"github.com/tilegym/tilegym-lint/rules"
)

// fuzzBases are the repositories FuzzCheck mutates: fixtures/good and a
// few overlays (one op only, broken shared files, skips in writing).
var fuzzBases = []string{"good", "softmax-only", "parse-error-cutile-init", "tg101-duplicate-stub",
	"tg206-orphan-impl", "tg302-module-import-order", "skip-step2-in-writing", "variations-steps123"}

// fuzzLines are lines a mutation inserts: TileGym's decorators, calls,
// imports and directives, whole and broken, and odd bytes.
var fuzzLines = []string{
	`@dispatch("softmax")`,
	`@dispatch("demo.scale", backend="cutile")`,
	`@register_impl("softmax", backend="cutile")`,
	`@register_impl("nope", backend="cutile")`,
	`@ct.kernel`,
	`def softmax(x, **kwargs):`,
	`def softmax(x, out=None, *args, **kwargs):`,
	`    raise NotImplementedError`,
	`    ...`,
	`    return ct.launch(stream, grid, kernel, (x,))`,
	`from tilegym.backend import dispatch, register_impl`,
	`from . import softmax`,
	`from .softmax import softmax`,
	`from .. import *`,
	`import tilegym.ops as ops`,
	`__all__ = ["softmax", "relu"]`,
	`__all__ += ["x"]`,
	`@pytest.mark.parametrize("backend", ["cutile", "torch"])`,
	`@pytest.mark.skipif(not is_backend_available("cutile"), reason="x")`,
	`    torch.testing.assert_close(y, ref)`,
	`@triton.testing.perf_report(configs)`,
	`if __name__ == "__main__":`,
	`# tilegym-lint: skip-step=5 reason="no harness`,
	`# tilegym-lint: skip-step=4 reason="covered elsewhere"`,
	`# tilegym-lint: skip-step=`,
	`x = 1  # noqa: TG101`,
	`x = f"{a!r:>{w}} {b=}"`,
	`def f(:`,
	`class C(`,
	`"""unterminated`,
	"\tx = 1",
	"\x00\xff\xfe",
	"\xef\xbb\xbfx = 1",
	"x = 1\r",
	"<<<<<<< HEAD",
}

// fuzzCatalog is the built-in catalog, loaded once.
var fuzzCatalog = sync.OnceValues(func() (*rules.Catalog, error) {
	return checks.LoadCatalog(tilegymlint.RulesTOML, "rules.toml")
})

// fuzzBaseFiles returns the files of every base of fuzzBases, loaded once.
var fuzzBaseFiles = sync.OnceValues(func() ([]map[string][]byte, error) {
	var out []map[string][]byte
	for _, name := range fuzzBases {
		fx, err := fixtureset.Lookup(name)
		if err != nil {
			return nil, err
		}
		files, err := fx.Files()
		if err != nil {
			return nil, err
		}
		out = append(out, files)
	}
	return out, nil
})

// mutate applies the mutations the fuzz input describes to a copy of
// files: each takes an opcode byte and operand bytes (a file, a line, a
// token, an offset, a line to insert), and at most 24 are applied.
func mutate(files map[string][]byte, data []byte) map[string][]byte {
	out := make(map[string][]byte, len(files))
	for p, b := range files {
		out[p] = b
	}
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	paths := func() []string {
		var ps []string
		for p := range out {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		return ps
	}
	for n := 0; n < 24 && len(data) > 0; n++ {
		op := next() % 13
		ps := paths()
		if len(ps) == 0 {
			return out
		}
		p := ps[next()%len(ps)]
		lines := strings.SplitAfter(string(out[p]), "\n")
		li := next() % len(lines)
		set := func() { out[p] = []byte(strings.Join(lines, "")) }
		switch op {
		case 0: // delete a line
			lines = append(lines[:li], lines[li+1:]...)
			set()
		case 1: // duplicate a line
			lines = append(lines[:li+1], lines[li:]...)
			set()
		case 2: // insert a line, indented as the one before
			ins := fuzzLines[next()%len(fuzzLines)]
			indent := lines[li][:len(lines[li])-len(strings.TrimLeft(lines[li], " \t"))]
			lines = append(lines[:li], append([]string{indent + ins + "\n"}, lines[li:]...)...)
			set()
		case 3, 4: // delete or duplicate a token of a line
			words := strings.SplitAfter(lines[li], " ")
			wi := next() % len(words)
			if op == 3 {
				words = append(words[:wi], words[wi+1:]...)
			} else {
				words = append(words[:wi+1], words[wi:]...)
			}
			lines[li] = strings.Join(words, "")
			set()
		case 5: // swap two lines (decorators, imports, a def and its body)
			lj := next() % len(lines)
			lines[li], lines[lj] = lines[lj], lines[li]
			set()
		case 6: // truncate
			b := out[p]
			out[p] = b[:(li*256+next())%(len(b)+1)]
		case 7: // insert odd bytes
			b := out[p]
			at := (li*256 + next()) % (len(b) + 1)
			odd := []byte{byte(next()), byte(next())}
			out[p] = append(append(append([]byte(nil), b[:at]...), odd...), b[at:]...)
		case 8: // rename the file to another's name with a suffix
			q := ps[next()%len(ps)]
			nq := strings.TrimSuffix(q, ".py") + fmt.Sprintf("_%d.py", next()%4)
			if _, taken := out[nq]; !taken {
				out[nq] = out[p]
				delete(out, p)
			}
		case 9: // delete the file
			delete(out, p)
		case 10: // copy the file next to another as a new op's file
			q := ps[next()%len(ps)]
			dir := q[:strings.LastIndex(q, "/")+1]
			out[dir+fmt.Sprintf("new_%d.py", next()%4)] = out[p]
		case 11: // rename a word everywhere in the file (an op's name)
			words := strings.Fields(lines[li])
			if len(words) > 0 {
				w := strings.Trim(words[next()%len(words)], `"'(),:@[]`)
				if w != "" {
					out[p] = bytes.ReplaceAll(out[p], []byte(w), []byte(w+"_x"))
				}
			}
		case 12: // swap the contents of two files
			q := ps[next()%len(ps)]
			out[p], out[q] = out[q], out[p]
		}
	}
	return out
}

// fuzzOutputs renders a result as the reports a user sees, for comparing
// runs.
func fuzzOutputs(t *testing.T, res *checker.Result) (jsonOut, text string) {
	var j, x bytes.Buffer
	if err := report.WriteJSON(&j, res, false); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteText(&x, res, report.TextOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	return j.String(), x.String()
}

// checkDiagnostics asserts that every finding is in a file of the
// repository, at a position within it.
func checkDiagnostics(t *testing.T, what string, files map[string][]byte, res *checker.Result) {
	for _, e := range res.Errors {
		t.Errorf("%s: analyzer failure: %v", what, e)
	}
	for _, d := range res.Diagnostics {
		src, ok := files[d.File]
		if !ok {
			t.Errorf("%s: %s in %q, not a file of the repository", what, d.Rule.ID, d.File)
			continue
		}
		lines := pyLines(string(src))
		if d.Pos.Line < 1 || d.Pos.Line > len(lines)+1 {
			t.Errorf("%s: %s at line %d of %s, which has %d lines", what, checker.FormatDiagnostic(d), d.Pos.Line, d.File, len(lines))
			continue
		}
		width := 0
		if d.Pos.Line <= len(lines) {
			width = len(lines[d.Pos.Line-1])
		}
		if d.Pos.Col < 0 || d.Pos.Col > width {
			t.Errorf("%s: %s at column %d of line %d, %d bytes long", what, checker.FormatDiagnostic(d), d.Pos.Col, d.Pos.Line, width)
		}
		if d.End.Line != 0 && d.End.Before(d.Pos) {
			t.Errorf("%s: %s ends (%v) before it starts", what, checker.FormatDiagnostic(d), d.End)
		}
	}
}

// pyLines splits src into lines as Python's tokenizer counts them, each
// with its end: a line ends at "\r\n", "\r" or "\n".
func pyLines(src string) []string {
	var lines []string
	for len(src) > 0 {
		i := strings.IndexAny(src, "\r\n")
		if i < 0 {
			break
		}
		end := i + 1
		if src[i] == '\r' && end < len(src) && src[end] == '\n' {
			end++
		}
		lines, src = append(lines, src[:end]), src[end:]
	}
	return append(lines, src)
}

// jsonRoundTrip asserts that the JSON report decodes strictly into
// report.JSONReport, says what the result says, and encodes back to the
// same bytes.
func jsonRoundTrip(t *testing.T, what, out string, res *checker.Result) {
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var rep report.JSONReport
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("%s: JSON report does not decode: %v\n%s", what, err, out)
	}
	if len(rep.Diagnostics) != len(res.Diagnostics) || len(rep.Ops) != len(res.Ops) {
		t.Errorf("%s: JSON has %d findings and %d ops, the result %d and %d", what,
			len(rep.Diagnostics), len(rep.Ops), len(res.Diagnostics), len(res.Ops))
	}
	for i := range min(len(rep.Diagnostics), len(res.Diagnostics)) {
		jd, d := rep.Diagnostics[i], res.Diagnostics[i]
		if jd.File != d.File || jd.Line != d.Pos.Line || jd.Message != d.Message || jd.Rule != d.Rule.ID {
			t.Errorf("%s: JSON finding %d is %s:%d %s %q, the result's %s", what, i, jd.File, jd.Line, jd.Rule, jd.Message, checker.FormatDiagnostic(d))
		}
	}
	// Encoded again as the command writes it: through a LogWriter, which
	// escapes the invisible characters of a message (U+FEFF as \ufeff).
	var again bytes.Buffer
	lw := report.NewLogWriter(&again)
	enc := json.NewEncoder(lw)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&rep); err != nil {
		t.Fatal(err)
	}
	if err := lw.Flush(); err != nil {
		t.Fatal(err)
	}
	if again.String() != out {
		t.Errorf("%s: JSON does not round-trip:\n%s\nagain:\n%s", what, out, again.String())
	}
}

// FuzzCheck mutates TileGym-shaped repositories (fixtures/good and some
// overlays) and checks them whole (at once and in batches), for one op
// and for one file, as pre-commit does: no panic or analyzer failure, the same reports from two
// runs, every finding in a file of the repository at a position within
// it, and a JSON report that round-trips. The seed corpus is in
// testdata/fuzz/FuzzCheck.
func FuzzCheck(f *testing.F) {
	f.Add(uint8(0), []byte{})
	f.Add(uint8(0), []byte{2, 40, 3, 21, 0, 7, 1, 9, 0, 0})
	f.Add(uint8(1), []byte{0, 5, 2, 1, 12, 30, 1, 6, 20, 0, 1})
	f.Add(uint8(2), []byte{8, 3, 0, 2, 9, 7, 0})
	f.Add(uint8(6), []byte{2, 11, 1, 22, 2, 11, 0, 23, 11, 4, 2, 0})
	cat, err := fuzzCatalog()
	if err != nil {
		f.Fatal(err)
	}
	bases, err := fuzzBaseFiles()
	if err != nil {
		f.Fatal(err)
	}
	setup := config.NewSetup(cat, nil)
	f.Fuzz(func(t *testing.T, base uint8, data []byte) {
		if len(data) > 256 {
			return // 24 mutations read at most 145 bytes
		}
		files := mutate(bases[int(base)%len(bases)], data)
		strs := make(map[string]string, len(files))
		for p, b := range files {
			strs[p] = string(b)
		}
		src := &testrepo.MapSource{Dir: "repo", Files: strs}
		check := func(what string, opts checker.Options) *checker.Result {
			res, err := checker.CheckSource(src, setup, opts)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			checkDiagnostics(t, what, files, res)
			return res
		}
		whole := check("whole check", checker.Options{})
		j1, x1 := fuzzOutputs(t, whole)
		j2, x2 := fuzzOutputs(t, check("whole check again", checker.Options{}))
		if j1 != j2 || x1 != x2 {
			t.Errorf("two whole checks differ:\n%s\n%s", x1, x2)
		}
		jsonRoundTrip(t, "whole check", j1, whole)
		// In batches, as a large checkout is checked: the same report.
		k := 2 + len(data)%3
		batched, err := checker.CheckWhole(src, setup, k)
		if err != nil {
			t.Fatalf("whole check in %d batches: %v", k, err)
		}
		if j, x := fuzzOutputs(t, batched); j != j1 {
			t.Errorf("the whole check in %d batches differs from the check at once:\n%s\n%s", k, x, x1)
		}
		if len(whole.Ops) > 0 {
			op := whole.Ops[len(data)%len(whole.Ops)].Name
			res := check("--op "+op, checker.Options{Ops: []string{op}})
			j, _ := fuzzOutputs(t, res)
			jsonRoundTrip(t, "--op "+op, j, res)
		}
		var paths []string
		for p := range files {
			paths = append(paths, p)
		}
		if len(paths) > 0 {
			sort.Strings(paths)
			p := paths[int(base)%len(paths)]
			res := check("files "+p, checker.Options{Files: []string{p}})
			j, _ := fuzzOutputs(t, res)
			jsonRoundTrip(t, "files "+p, j, res)
		}
	})
}

// TestOpWithoutDispatchFile: a mutated repository (FuzzCheck's shapes) with
// no dispatch file, whose cuTile __init__.py registers softmax. --op
// softmax, which parses only what the op needs, reports the two TG108
// findings on its test and benchmark that the whole snapshot checked for
// the op reports: the API package of a scope without a dispatch file is a
// seed too (load.Loader.Seed).
func TestOpWithoutDispatchFile(t *testing.T) {
	cat, err := fuzzCatalog()
	if err != nil {
		t.Fatal(err)
	}
	bases, err := fuzzBaseFiles()
	if err != nil {
		t.Fatal(err)
	}
	files := mutate(bases[int(')')%len(bases)], []byte("Z$0900"))
	if _, ok := files["src/tilegym/ops/ops.py"]; ok {
		t.Fatal("the mutated repository has its dispatch file; the test needs none")
	}
	strs := map[string]string{}
	for p, b := range files {
		strs[p] = string(b)
	}
	src := &testrepo.MapSource{Dir: "repo", Files: strs}
	setup := config.NewSetup(cat, nil)
	opts := checker.Options{Ops: []string{"softmax"}}
	got, err := checker.CheckSource(src, setup, opts)
	if err != nil {
		t.Fatal(err)
	}
	repo, err := load.Load(src, setup)
	if err != nil {
		t.Fatal(err)
	}
	want, err := checker.Check(repo, config.NewSetup(cat, nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	gj, gx := fuzzOutputs(t, got)
	wj, wx := fuzzOutputs(t, want)
	if gj != wj {
		t.Errorf("--op softmax differs from the whole snapshot checked for it:\n got: %s\nwant: %s", gx, wx)
	}
	if n := strings.Count(wx, "TG108"); n != 2 {
		t.Errorf("the whole snapshot has %d TG108 findings for softmax, want 2:\n%s", n, wx)
	}
}

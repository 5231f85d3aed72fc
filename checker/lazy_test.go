package checker

import (
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/source"
)

// TestCheckOpsLazy checks that a check of one op, which parses only the
// files the op needs (load.Loader.Load), reports exactly what the whole check
// reports for that op (Load, then Check narrowed to it): same JSON, for
// every op of every fixture, and of the TileGym tree when present
// ($TILEGYM_LINT_TREE).
func TestCheckOpsLazy(t *testing.T) {
	cat := testrepo.Catalog(t)
	forEachCheckout(t, cat, func(t *testing.T, c *checkout) {
		src, lay, cfg, whole := c.src, c.lay, c.cfg, c.whole
		full, err := load.Load(src, &config.Setup{Layout: lay, Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, op := range whole.Table.Ops {
			names = append(names, op.Name)
			if op.Suite == "" && op.Func != op.Name {
				names = append(names, op.Func)
			}
		}
		names = append(names, "no-such-op")
		for _, name := range names {
			opts := Options{Ops: []string{name}}
			want := narrowed(whole, opts)
			// Check of one op, every file parsed: its analyzers skip
			// the other ops (Pass.Focus).
			focused, err := Check(full, config.NewSetup(cat, cfg), opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := CheckSource(src, &config.Setup{Catalog: cat, Config: cfg, Layout: lay}, opts)
			if err != nil {
				t.Fatal(err)
			}
			wj := jsonOf(t, want)
			if fj := jsonOf(t, focused); fj != wj {
				t.Errorf("--op %s: the focused check differs from the whole check narrowed to it:\n got: %s\nwant: %s", name, fj, wj)
			}
			if gj := jsonOf(t, got); gj != wj {
				t.Errorf("--op %s: the one-op check differs from the whole check narrowed to it:\n got: %s\nwant: %s", name, gj, wj)
			}
			if len(got.Errors) != len(want.Errors) {
				t.Errorf("--op %s: %d analyzer errors, want %d", name, len(got.Errors), len(want.Errors))
			}
		}
	})
}

// TestCheckOpsLazyBlame: a finding of the op names a file that the op's
// loading has no reason to parse (here the expected test path, put in scope
// by include but not a test file of the layout), which does not parse: the
// one-op check parses it and, like the whole check, blames the parse error.
func TestCheckOpsLazyBlame(t *testing.T) {
	cat := testrepo.Catalog(t)
	files := map[string]string{}
	src := &source.DiskSource{Dir: "../fixtures/good"}
	paths, err := src.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		data, err := src.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = string(data)
	}
	files["tests/ops/test_softmax.py"] = "def (:\n"
	cfg, err := config.Parse([]byte(`
[layout]
include = ["**/*.py"]

[[layout.scope]]
name = "core"
tests = ["tests/unit/**/test_*.py"]
`), "tilegym-lint.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(cat); err != nil {
		t.Fatal(err)
	}
	setup := config.NewSetup(cat, cfg)
	lay := setup.Layout
	ms := &testrepo.MapSource{Dir: "x", Files: files}
	full, err := load.Load(ms, setup)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Ops: []string{"softmax"}}
	whole, err := Check(full, config.NewSetup(cat, cfg), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := narrowed(whole, opts)
	got, err := CheckSource(ms, &config.Setup{Catalog: cat, Config: cfg, Layout: lay}, opts)
	if err != nil {
		t.Fatal(err)
	}
	wj, gj := jsonOf(t, want), jsonOf(t, got)
	if gj != wj {
		t.Errorf("one-op check differs from the whole check narrowed to it:\n got: %s\nwant: %s", gj, wj)
	}
	blamed := false
	for _, d := range want.Diagnostics {
		if d.Rule.ID == "TG001" && d.Op == "softmax" {
			blamed = true
		}
	}
	if !blamed {
		t.Errorf("the scenario does not blame the parse error on softmax: %s", wj)
	}
}

// narrowed is a whole check's result narrowed to the ops of opts, as Check
// narrows it (selectOps), without focusing its analyzers.
func narrowed(whole *Result, opts Options) *Result {
	keep := selectOps(whole.Table, opts, whole.Diagnostics)
	out := *whole
	if keep == nil {
		return &out
	}
	out.Ops, out.Diagnostics = nil, nil
	for _, o := range whole.Ops {
		if keep.ops[o.Name] {
			out.Ops = append(out.Ops, o)
		}
	}
	for _, d := range whole.Diagnostics {
		if d.Op != "" && keep.ops[d.Op] || d.Op == "" && keep.files[d.File] {
			out.Diagnostics = append(out.Diagnostics, d)
		}
	}
	return &out
}

// jsonOf is a result as the reporters see it.
func jsonOf(t *testing.T, res *Result) string {
	t.Helper()
	return res.String()
}

// TestOpGetsItsTypo: a misspelt register_impl is charged to the op it was
// meant for (the nearest dispatched name), so --op gives the whole check's
// advice: TG206 ("register it as ...") in Step 2, and TG201 pointing at the
// registration to correct, never "add the module" for a module that
// exists. Other ops do not see it.
func TestOpGetsItsTypo(t *testing.T) {
	cat := testrepo.Catalog(t)
	dir := t.TempDir()
	testrepo.CopyDir(t, "../fixtures/good", dir)
	testrepo.ReplaceInFile(t, dir, "src/tilegym/ops/cutile/softmax.py", `@register_impl("softmax"`, `@register_impl("sofmax"`)
	setup := config.NewSetup(cat, nil)
	whole, err := CheckSource(&source.DiskSource{Dir: dir}, setup, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []Options{{}, {Ops: []string{"softmax"}}} {
		res := whole
		if opts.Ops != nil {
			if res, err = CheckSource(&source.DiskSource{Dir: dir}, setup, opts); err != nil {
				t.Fatal(err)
			}
		}
		var typo, missing *analysis.Diagnostic
		for i, d := range res.Diagnostics {
			switch d.Rule.ID {
			case "TG206":
				typo = &res.Diagnostics[i]
			case "TG201":
				missing = &res.Diagnostics[i]
			}
		}
		if typo == nil || typo.Op != "softmax" || !strings.Contains(typo.Message, `register it as "softmax"`) {
			t.Errorf("ops %v: TG206 = %+v; want it charged to softmax, saying to register it as softmax", opts.Ops, typo)
		}
		if missing == nil || strings.Contains(missing.Message, "; add ") || !strings.Contains(missing.Message, "softmax.py:24, not \"sofmax\"") {
			t.Errorf("ops %v: TG201 = %+v; want the registration to correct", opts.Ops, missing)
		}
	}
	other, err := CheckSource(&source.DiskSource{Dir: dir}, setup, Options{Ops: []string{"silu_and_mul"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range other.Diagnostics {
		if d.Rule.ID == "TG206" {
			t.Errorf("--op silu_and_mul reports softmax's typo: %s", d.Message)
		}
	}
}

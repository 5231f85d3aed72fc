package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tilegym/tilegym-lint/baseline"
	"github.com/tilegym/tilegym-lint/change"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/fix"
	"github.com/tilegym/tilegym-lint/report"
	"github.com/tilegym/tilegym-lint/scaffold"
	"github.com/tilegym/tilegym-lint/verify"
)

const checkUsage = `usage: tilegym-lint [flags] [PATH...]
       tilegym-lint rules [--format text|json] [RULE...]
       tilegym-lint new [--suite S] OP
       tilegym-lint completion bash|zsh
       tilegym-lint parse --dump FILE | --dump-all DIR | --stats PATH...

Checks that every op of a TileGym checkout follows the six-step workflow for
adding a cuTile kernel, and reports per op and per step. PATH is the root of
a checkout (default "."), or files of one (as pre-commit passes them): then
only the ops those files belong to are reported.

Flags:
  --op NAME       check only this op (repeatable, or a comma list)
  --format FMT    text (default), checklist (the workflow's checklist per op,
                  for a coding agent's TODO list), json, github (GitHub
                  Actions annotations) or sarif (SARIF 2.1.0, for code scanning)
  --config FILE   configuration file (default: [tool.tilegym-lint] in
                  pyproject.toml, or tilegym-lint.toml, found from PATH upwards)
  --catalog FILE  use this rules.toml instead of the built-in rule catalog
  --diff BASE     change mode: report the ops the change since
                  merge-base(BASE, HEAD) touches, with uncommitted edits
  --staged        change mode on the index (what git commit would record)
  --strict        in change mode, pre-existing findings fail the run too
  --pre-commit    the pre-commit hook: check the staged change at a commit,
                  else the branch against its merge base with --base
                  (default: origin/HEAD's branch, else origin/main)
  --base REF      the default branch --pre-commit compares a branch with
  --sarif FILE    also write SARIF 2.1.0 to FILE
  --summary FILE  also append a Markdown summary to FILE (GitHub Actions:
                  $GITHUB_STEP_SUMMARY); findings link to their lines when
                  GITHUB_SERVER_URL and GITHUB_REPOSITORY are set
  --annotate      also print GitHub Actions annotations for the new findings,
                  at most 10 errors and 10 warnings (what a step shows)
  --full          show every step of every op with every finding (by default a
                  failing op shows its failing steps, any other op one line)
  --quiet         show only the errors: the failing ops, their failing steps
                  and the findings that fail them, and the summary
  --statistics    count the findings per rule (most frequent first) instead
                  of listing them
  --select RULES  report only these rules: ids or prefixes, comma separated
                  (TG1 is every TG1xx rule), on top of the configuration's
                  disable
  --ignore RULES  do not report these rules (ids or prefixes)
  --exit-zero     exit 0 even when errors are found (2 still means the check
                  could not run)
  --verify        run Step 6: each reported op's verify commands (its tests,
                  its benchmark, the linters) in the checked root, and report
                  pass/fail per command with the tail of its output. This runs
                  the repository's code; the static check never does.
  --verify-timeout D  time limit of one verify command (default 30m; positive)
  --version       print the module version and the rule catalog's version
%s
Exit status: 0 no error-severity finding, 1 at least one (in change mode a
new one, or any with --strict; or a failed verify command), 2 usage,
configuration or I/O error.
`

type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*s = append(*s, p)
		}
	}
	return nil
}

type checkFlags struct {
	ops     stringList
	format  string
	config  string
	diff    string
	staged  bool
	strict  bool
	full    bool
	quiet   bool
	catalog string
	verify  bool
	timeout time.Duration
	version bool
	paths   []string

	baseline      string // --baseline
	writeBaseline string // --write-baseline

	preCommit bool
	base      string
	sarif     string
	summary   string
	annotate  bool

	view  viewFlags
	fixes fixFlags // --fix, --dry-run (fix.go)
}

// parseInterleaved parses flags that may come before or after the paths.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

// parseArgs parses the check command's flags and paths: flags may come
// before or after the paths, but in the pre-commit hook's mode (the
// hook's entry starts with --pre-commit) see parseHookArgs.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	if len(args) > 0 && (args[0] == "--pre-commit" || args[0] == "-pre-commit") {
		return parseHookArgs(fs, args)
	}
	return parseInterleaved(fs, args)
}

// parseHookArgs parses the arguments of the pre-commit hook. pre-commit
// runs the entry, then the hook's args, then file names (when a
// configuration sets pass_filenames), and a file name may look like a flag
// (a root file named --exit-zero, or -v.py). So the flags come first, one
// by one, and the first argument that is not a flag, that is "--", or
// that names an existing file, starts the paths: nothing from there on is
// read as a flag.
func parseHookArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return args[1:], nil
		}
		if len(a) < 2 || a[0] != '-' {
			return args, nil
		}
		if _, err := os.Lstat(a); err == nil {
			return args, nil
		}
		n := 1
		if name := strings.TrimLeft(a, "-"); !strings.Contains(name, "=") {
			if fl := fs.Lookup(name); fl != nil {
				if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
					n = 2 // the flag's value follows
				}
			}
		}
		n = min(n, len(args))
		if err := fs.Parse(args[:n]); err != nil {
			return nil, err
		}
		args = args[n:]
	}
	return nil, nil
}

// newCheckFlagSet declares the check command's flags, stored in f.
func newCheckFlagSet(f *checkFlags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("tilegym-lint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintf(stderr, checkUsage, fixUsage+baselineUsage) }
	fs.Var(&f.ops, "op", "check only this op (repeatable or comma list)")
	fs.StringVar(&f.format, "format", "text", "output format: text, checklist, json, github or sarif")
	fs.StringVar(&f.config, "config", "", "configuration file")
	fs.StringVar(&f.diff, "diff", "", "change mode against merge-base(BASE, HEAD)")
	fs.BoolVar(&f.staged, "staged", false, "change mode on the index")
	fs.BoolVar(&f.strict, "strict", false, "pre-existing findings fail the run too")
	fs.BoolVar(&f.full, "full", false, "show every step of every op with every finding")
	fs.BoolVar(&f.quiet, "quiet", false, "show only the errors")
	fs.StringVar(&f.catalog, "catalog", "", "use this rules.toml instead of the built-in catalog")
	fs.BoolVar(&f.verify, "verify", false, "run Step 6: the verify commands of each reported op")
	fs.DurationVar(&f.timeout, "verify-timeout", 30*time.Minute, "time limit of one verify command")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	fs.BoolVar(&f.preCommit, "pre-commit", false, "the pre-commit hook's mode")
	fs.StringVar(&f.base, "base", "", "the default branch --pre-commit compares a branch with")
	fs.StringVar(&f.sarif, "sarif", "", "also write SARIF 2.1.0 to this file")
	fs.StringVar(&f.summary, "summary", "", "also append a Markdown summary to this file")
	fs.BoolVar(&f.annotate, "annotate", false, "also print GitHub Actions annotations of new findings")
	fs.StringVar(&f.baseline, "baseline", "", "report the findings this baseline file records as baselined")
	fs.StringVar(&f.writeBaseline, "write-baseline", "", "record every finding of a whole check in this file")
	addViewFlags(fs, &f.view)
	addFixFlags(fs, &f.fixes)
	return fs
}

// runCheck implements the check command.
func runCheck(args []string, stdout, stderr io.Writer) int {
	var f checkFlags
	fs := newCheckFlagSet(&f, stderr)
	paths, err := parseArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if err := validateFix(&f); err != nil {
		fmt.Fprintf(stderr, "tilegym-lint: %v\n", err)
		return 2
	}
	if err := validateBaseline(&f); err != nil {
		fmt.Fprintf(stderr, "tilegym-lint: %v\n", err)
		return 2
	}
	if f.version {
		cat, err := checks.OpenCatalog(f.catalog)
		if err != nil {
			fmt.Fprintf(stderr, "tilegym-lint: rule catalog:\n%v\n", err)
			return 2
		}
		name := "built in"
		if f.catalog != "" {
			name = f.catalog
		}
		if err := writeVersion(stdout, cat.Version, name); err != nil {
			return 2
		}
		return 0
	}
	f.paths = paths
	if err := checkViewFlags(fs, &f); err != nil {
		fmt.Fprintf(stderr, "tilegym-lint: %v\n", err)
		return 2
	}
	if f.preCommit && (f.diff != "" || f.staged) {
		fmt.Fprintln(stderr, "tilegym-lint: --pre-commit chooses what to compare; use --base, not --diff or --staged")
		return 2
	}
	if f.base != "" && !f.preCommit {
		fmt.Fprintln(stderr, "tilegym-lint: --base is for --pre-commit; use --diff BASE")
		return 2
	}
	if len(f.paths) == 0 {
		f.paths = []string{"."}
	}
	code, err := check(&f, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "tilegym-lint: %v\n", err)
		return 2
	}
	return code
}

// check runs the check the flags ask for and reports it; it returns the
// exit status.
func check(f *checkFlags, stdout, stderr io.Writer) (int, error) {
	cat, err := checks.OpenCatalog(f.catalog)
	if err != nil {
		return 0, fmt.Errorf("rule catalog:\n%v", err)
	}
	t, err := checker.ResolveTarget(f.paths)
	if err != nil {
		return 0, err
	}
	mode := &change.Mode{Base: f.diff, Staged: f.staged}
	if f.preCommit {
		if mode, err = change.HookMode(t.Root, f.paths, f.base); err != nil {
			return 0, err
		}
		fmt.Fprintf(noteWriter(f, stdout, stderr), "tilegym-lint: checking %s\n", mode.Checked)
	}
	setup, err := config.Open(cat, t.Root, f.config, config.Selection{Select: f.view.selected, Ignore: f.view.ignored})
	if err != nil {
		return 0, err
	}
	if note := checker.SparseCheckoutNote(t.Root); note != "" {
		fmt.Fprintln(stderr, "tilegym-lint: note: "+note)
	}
	checker.SizeSource(t.Root, setup)
	opts := checker.Options{Ops: f.ops, Files: t.Files}
	if f.fixes.fix {
		code, done, err := fix.Process(t.Root, setup, opts, f.fixes.dryRun, stdout, noteWriter(f, stdout, stderr))
		if err != nil || done {
			return code, err
		}
	}
	res, err := change.Run(t, mode, setup, opts)
	if err != nil {
		return 0, err
	}
	notStarted, err := scaffold.CheckNames(res, setup, f.ops, f.format == "checklist")
	if err != nil {
		return 0, err
	}
	if f.writeBaseline != "" {
		return 0, baseline.WriteFile(f.writeBaseline, res, t, noteWriter(f, stdout, stderr))
	}
	changeMode := mode.Changed()
	if err := baseline.Use(res, f.baseline, t.Root, setup, changeMode, !changeMode && t.Files == nil && len(f.ops) == 0); err != nil {
		return 0, err
	}
	if f.verify {
		abs, err := filepath.Abs(t.Root)
		if err != nil {
			return 0, err
		}
		verify.Run(res, setup, verify.Options{Dir: abs, Timeout: f.timeout})
	}
	e := &report.Emission{
		Format:     f.format,
		Text:       report.TextOptions{Full: f.full, Quiet: f.quiet, ChangeMode: changeMode, Strict: f.strict, Color: useColor(stdout)},
		Statistics: f.view.statistics,
		NotStarted: notStarted,
		Version:    moduleVersion(),
		Root:       t.Root, Compared: mode.Checked,
		Annotate: f.annotate, SARIFFile: f.sarif, SummaryFile: f.summary,
		ExitZero: f.view.exitZero,
	}
	if p, _ := baseline.Path(f.baseline, setup.Config); p == "" {
		// A whole check (the Action's fallback) failing on findings a
		// repository may have had for long: say how to adopt it.
		e.AdoptHint = baseline.AdoptHint
	}
	return report.Emit(stdout, stderr, res, cat, e)
}

// noteWriter is where a note about the run goes: stdout, but stderr when
// the format is for machines (it stays alone on stdout).
func noteWriter(f *checkFlags, stdout, stderr io.Writer) io.Writer {
	if f.format != "text" {
		return stderr
	}
	return stdout
}

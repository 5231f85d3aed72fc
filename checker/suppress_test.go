package checker

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/source"
)

// suppressionFindings lists "RULE FILE:LINE" of the TG007/TG008 findings.
func suppressionFindings(res *Result) []string {
	var out []string
	for _, d := range res.Diagnostics {
		if d.Rule.Kind == "suppression" {
			out = append(out, d.Rule.ID+" "+d.File+":"+strconv.Itoa(d.Pos.Line))
		}
	}
	sort.Strings(out)
	return out
}

// TestUnusedSuppressionScope: a suppression is judged unused only when the
// check that would report on its line ran: not for a disabled rule, not
// in a shared file when some ops were not checked, not in a file of an op
// left out; an ignore directive with a reason silences its finding.
func TestUnusedSuppressionScope(t *testing.T) {
	dir := t.TempDir()
	testrepo.CopyDir(t, "../fixtures/good", dir)
	edit := func(rel, old, new string) {
		t.Helper()
		testrepo.ReplaceInFile(t, dir, rel, old, new)
	}
	// ops.py (shared): an unused noqa on silu_and_mul's stub.
	edit("src/tilegym/ops/ops.py", "def silu_and_mul(input: torch.Tensor, out: Optional[torch.Tensor] = None, **kwargs: Any):",
		"def silu_and_mul(input: torch.Tensor, out: Optional[torch.Tensor] = None, **kwargs: Any):  # noqa: TG104")
	// softmax's own cuTile module: an unused directive, and a used one.
	edit("src/tilegym/ops/cutile/softmax.py", "@ct.kernel\n", "@ct.kernel  # tilegym-lint: ignore=TG207 reason=\"stale\"\n")
	whole := suppressionFindings(checkDir(t, dir, Options{}))
	want := []string{"TG007 src/tilegym/ops/cutile/softmax.py:9", "TG007 src/tilegym/ops/ops.py:36"}
	if strings.Join(whole, "\n") != strings.Join(want, "\n") {
		t.Errorf("whole check: %v, want %v", whole, want)
	}
	// --op softmax: ops.py also holds silu_and_mul, which was not checked.
	got := suppressionFindings(checkDir(t, dir, Options{Ops: []string{"softmax"}}))
	if strings.Join(got, "\n") != "TG007 src/tilegym/ops/cutile/softmax.py:9" {
		t.Errorf("--op softmax: %v", got)
	}
	// --op silu_and_mul: neither file is judged (softmax's module is not its own).
	if got := suppressionFindings(checkDir(t, dir, Options{Ops: []string{"silu_and_mul"}})); len(got) != 0 {
		t.Errorf("--op silu_and_mul: %v, want none", got)
	}
	// A disabled rule: its codes are not judged.
	cat := testrepo.Catalog(t)
	cfg := &config.Config{Disable: []string{"TG104"}}
	repo, err := load.Load(&source.DiskSource{Dir: dir}, config.NewSetup(cat, cfg))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(repo, config.NewSetup(cat, cfg), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := suppressionFindings(res); strings.Join(got, "\n") != "TG007 src/tilegym/ops/cutile/softmax.py:9" {
		t.Errorf("TG104 disabled: %v", got)
	}

	// The directive with a reason silences a real finding and is used; the
	// same without a reason silences nothing and is TG008.
	edit("src/tilegym/ops/ops.py", "out: Optional[torch.Tensor] = None, **kwargs: Any):  # noqa: TG104",
		"out: Optional[torch.Tensor] = None):  # tilegym-lint: ignore=TG104 reason=\"no backend options\"")
	res = checkDir(t, dir, Options{})
	for _, d := range res.Diagnostics {
		if d.Rule.ID == "TG104" || d.File == "src/tilegym/ops/ops.py" {
			t.Errorf("unexpected finding %s", FormatDiagnostic(d))
		}
	}
	edit("src/tilegym/ops/ops.py", ` reason="no backend options"`, "")
	res = checkDir(t, dir, Options{})
	var rules []string
	for _, d := range res.Diagnostics {
		if d.File == "src/tilegym/ops/ops.py" {
			rules = append(rules, d.Rule.ID)
		}
	}
	if strings.Join(rules, ",") != "TG104,TG008" && strings.Join(rules, ",") != "TG008,TG104" {
		t.Errorf("directive without a reason: findings %v, want TG104 and TG008", rules)
	}
}

// A directive or a noqa after characters whose lower case has another
// length in UTF-8 is found and reported at its own position, without a
// panic.
func TestSuppressionAfterCaseChangingText(t *testing.T) {
	dir := t.TempDir()
	testrepo.CopyDir(t, "../fixtures/good", dir)
	const line = "def silu_and_mul(input: torch.Tensor, out: Optional[torch.Tensor] = None, **kwargs: Any):"
	for _, comment := range []string{
		"  # ȺȺȺȺȺȺȺȺȺȺ # tilegym-lint: ignore=TG104",
		"  # ȺȺȺȺȺȺȺȺȺȺ #noqa: TG104",
		"  # İİİİİİİİİİ # noqa: TG104",
	} {
		testrepo.ReplaceInFile(t, dir, "src/tilegym/ops/ops.py", line, line+comment)
		res := checkDir(t, dir, Options{})
		found := false
		for _, d := range res.Diagnostics {
			if d.Rule.Kind != "suppression" {
				continue
			}
			found = true
			want := len(line) + strings.LastIndex(comment, "#")
			if d.Pos.Col != want || !strings.Contains(d.Message, comment[strings.LastIndex(comment, "#"):]) {
				t.Errorf("%q: %s at column %d, want %d", comment, FormatDiagnostic(d), d.Pos.Col, want)
			}
		}
		if !found {
			t.Errorf("%q: no suppression finding", comment)
		}
		testrepo.ReplaceInFile(t, dir, "src/tilegym/ops/ops.py", line+comment, line)
	}
}

// TestSharedLineNotSuppressed: a noqa on the backend block's `if` line,
// where every op's missing __init__ entry is anchored, silences no op's
// finding (it would silence all of them) and is itself reported, saying
// why.
func TestSharedLineNotSuppressed(t *testing.T) {
	dir := t.TempDir()
	testrepo.CopyDir(t, "../fixtures/good", dir)
	const init = "src/tilegym/ops/cutile/__init__.py"
	testrepo.ReplaceInFile(t, dir, init, "    from .silu_and_mul import silu_and_mul\n    from .softmax import softmax\n", "")
	testrepo.ReplaceInFile(t, dir, init, `if is_backend_available("cutile"):`, `if is_backend_available("cutile"):  # noqa: TG303`)
	res := checkDir(t, dir, Options{})
	var got []string
	for _, d := range res.Diagnostics {
		if d.File == init {
			got = append(got, d.Rule.ID+" "+d.Op)
			if d.Rule.ID == "TG007" && !strings.Contains(d.Message, "cannot silence one op's") {
				t.Errorf("TG007 does not say why: %s", d.Message)
			}
		}
	}
	sort.Strings(got)
	want := []string{"TG007 ", "TG303 silu_and_mul", "TG303 softmax"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("findings in %s: %q, want %q", init, got, want)
	}
}

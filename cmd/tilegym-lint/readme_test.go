package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/realtree"
)

// The README's examples are run, not trusted. A fenced block preceded by
//
//	<!-- example fixture=NAME -->   (a copy of a fixture: good, example or one of fixtures/rules)
//	<!-- example dir=PATH -->       (PATH, relative to the repository, copied to the same place)
//	<!-- example tree -->           ($TILEGYM_LINT_TREE; skipped without it)
//
// starts with "$ COMMAND" (tilegym-lint or cat, joined by " && ", no quoting)
// and holds what the command prints, stdout and stderr together as a terminal
// shows them; a line "..." stands for any number of lines.
var exampleMarker = regexp.MustCompile(`^<!-- example (fixture=(\S+)|dir=(\S+)|tree) -->$`)

type readmeExample struct {
	line    int // of the marker, 1-based
	fixture string
	dir     string
	tree    bool
	command string
	want    []string
}

func readmeExamples(t *testing.T) []readmeExample {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []readmeExample
	for i := 0; i < len(lines); i++ {
		m := exampleMarker.FindStringSubmatch(lines[i])
		if m == nil {
			if strings.HasPrefix(lines[i], "<!-- example") {
				t.Fatalf("README.md:%d: malformed example marker %q", i+1, lines[i])
			}
			continue
		}
		ex := readmeExample{line: i + 1, fixture: m[2], dir: m[3], tree: m[1] == "tree"}
		if i+2 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") || !strings.HasPrefix(lines[i+2], "$ ") {
			t.Fatalf("README.md:%d: an example marker must precede a fenced block starting with \"$ COMMAND\"", i+1)
		}
		ex.command = strings.TrimPrefix(lines[i+2], "$ ")
		j := i + 3
		for ; j < len(lines) && !strings.HasPrefix(lines[j], "```"); j++ {
			ex.want = append(ex.want, lines[j])
		}
		if j == len(lines) {
			t.Fatalf("README.md:%d: example block never closed", i+1)
		}
		out = append(out, ex)
		i = j
	}
	return out
}

func TestReadmeExamples(t *testing.T) {
	examples := readmeExamples(t)
	if len(examples) < 4 {
		t.Fatalf("README.md has %d example markers; the text, checklist, new and baseline examples at least must be run", len(examples))
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range examples {
		t.Run(strings.ReplaceAll(ex.command, " ", "_"), func(t *testing.T) {
			var cwd string
			switch {
			case ex.tree:
				cwd = realtree.Need(t)
			case ex.fixture != "":
				// A copy: good and example materialize as the repository's own
				// directories, which an example such as "new" writes into.
				cwd = t.TempDir()
				copyTree(t, fixtureset.Materialize(t, ex.fixture), cwd)
			default:
				cwd = t.TempDir()
				copyTree(t, filepath.Join(repo, filepath.FromSlash(ex.dir)), filepath.Join(cwd, filepath.FromSlash(ex.dir)))
			}
			got := runExample(t, cwd, ex.command)
			if !matchLines(ex.want, got) {
				t.Errorf("README.md:%d: $ %s prints otherwise (-README +actual):\n%s", ex.line, ex.command, cmp.Diff(ex.want, got))
			}
		})
	}
}

// runExample runs command in dir as a shell would print it: each part of an
// && chain in turn, stopping after one that fails (tilegym-lint exits 1 on
// findings, so only the last part may).
func runExample(t *testing.T, dir, command string) []string {
	t.Helper()
	if strings.ContainsAny(command, `"'|;<>$`+"`") {
		t.Fatalf("example command %q: only plain words joined by && are run", command)
	}
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(old); err != nil {
			t.Fatal(err)
		}
	}()
	var buf bytes.Buffer
	parts := strings.Split(command, " && ")
	for i, part := range parts {
		words := strings.Fields(part)
		code := 0
		switch words[0] {
		case "tilegym-lint":
			code = run(words[1:], &buf, &buf)
		case "cat":
			for _, f := range words[1:] {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				buf.Write(data)
			}
		default:
			t.Fatalf("example command %q: %s is not run by this test", command, words[0])
		}
		if code != 0 && i < len(parts)-1 {
			t.Fatalf("example command %q: %q exited %d:\n%s", command, part, code, buf.String())
		}
	}
	return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
}

// matchLines reports whether got is want with each "..." line standing for
// any run of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == want[0] && matchLines(want[1:], got[1:])
}

func TestMatchLines(t *testing.T) {
	for _, c := range []struct {
		want, got []string
		ok        bool
	}{
		{[]string{"a", "b"}, []string{"a", "b"}, true},
		{[]string{"a", "b"}, []string{"a", "c"}, false},
		{[]string{"...", "c"}, []string{"a", "b", "c"}, true},
		{[]string{"a", "...", "c"}, []string{"a", "c"}, true},
		{[]string{"a", "...", "c"}, []string{"a", "b"}, false},
		{[]string{"a"}, []string{"a", "b"}, false},
	} {
		if matchLines(c.want, c.got) != c.ok {
			t.Errorf("matchLines(%q, %q) = %v", c.want, c.got, !c.ok)
		}
	}
}

// TestReadmeFlags checks the README's flag table against the flags --help
// lists, both ways.
func TestReadmeFlags(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := map[string]bool{}
	for _, row := range regexp.MustCompile("(?m)^\\| `--[^|]*").FindAllString(string(data), -1) {
		for _, f := range regexp.MustCompile(`--[a-z-]+`).FindAllString(row, -1) {
			readme[f] = true
		}
	}
	_, stdout, stderr := runCLI("--help")
	help := stdout + stderr
	cli := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  (--[a-z-]+)`).FindAllStringSubmatch(help, -1) {
		cli[m[1]] = true
	}
	if len(cli) < 20 {
		t.Fatalf("--help lists %d flags; expected the whole set:\n%s", len(cli), help)
	}
	if diff := cmp.Diff(flagNames(cli), flagNames(readme)); diff != "" {
		t.Errorf("README.md's flag table and --help differ (-help +README):\n%s", diff)
	}
}

func flagNames(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

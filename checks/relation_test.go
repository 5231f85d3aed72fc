package checks_test

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/internal/corpus"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// snippetTree is the tree of a txtar archive: a small repository.
func snippetTree(t *testing.T, archive string) *checks.Tree {
	t.Helper()
	ar, err := fixtureset.Parse([]byte(archive))
	if err != nil {
		t.Fatalf("snippet: %v\n%s", err, archive)
	}
	if len(ar.Files) == 0 {
		t.Fatalf("snippet has no -- file -- section:\n%s", archive)
	}
	src := &testrepo.MapSource{Files: map[string]string{}}
	for _, f := range ar.Files {
		src.Files[f.Name] = string(f.Data)
	}
	return checks.NewTree(&optable.Repo{Snapshot: source.Snapshot{Files: map[string]*source.File{}, Source: src}})
}

// TestRelationSnippets runs every relation rule's valid and invalid
// snippets of the built-in catalog: each invalid one has a finding, no
// valid one has.
func TestRelationSnippets(t *testing.T) {
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range cat.Rules {
		p, ok := r.Params.(*checks.RelationParams)
		if !ok {
			continue
		}
		if len(p.Invalid) == 0 || len(p.Valid) == 0 {
			t.Errorf("%s: a relation rule needs valid and invalid snippets", r.ID)
		}
		for _, s := range p.Invalid {
			if len(p.Find(snippetTree(t, s), r.Files)) == 0 {
				t.Errorf("%s: no finding on the invalid snippet\n%s", r.ID, s)
			}
			n++
		}
		for _, s := range p.Valid {
			if got := p.Find(snippetTree(t, s), r.Files); len(got) > 0 {
				t.Errorf("%s: %d findings on the valid snippet (first %s:%d: %s)\n%s", r.ID, len(got), got[0].File, got[0].Line, got[0].Vars["what"], s)
			}
			n++
		}
	}
	t.Logf("%d snippets", n)
}

// The relation kind's parts, each on a small tree: captures from a glob,
// text, pattern, key and capture checks, require and forbid.
func TestRelationChecks(t *testing.T) {
	tree := `-- julia/kernels/add.jl --
function add(a, b)
    ct.bid(0)
end
-- julia/kernels/mul.jl --
x = 1
-- julia/test/test_add.jl --
-- julia/test/runtests.jl --
include("test_add.jl")
-- ops/cutile_rs/c/Cargo.toml --
[dependencies]
cutile = "=0.2.0"
cuda-core = { version = "0.2", path = "../x" }
-- m/s.json --
{"spec": {"language": "triton", "target_hardware": ["SM100", "sm90"]}, "sources": {"path": ["m/k.py", "m/gone.py"]}}
-- m/k.py --
from tilegym.backend import register_impl
register_impl("add", backend="cutile_rs")
`
	cases := []struct {
		name   string
		params string
		files  []string
		want   []string // file:line what
	}{
		{"file and text with captures", `subject = "julia/kernels/{op}.jl"
require = [{ file = "julia/test/test_{op}.jl" }, { text = 'include\("test_{op}\.jl"\)', in = "julia/test/runtests.jl" }]`, nil,
			[]string{"julia/kernels/mul.jl:1 there is no julia/test/test_mul.jl", "julia/kernels/mul.jl:1 no line of julia/test/runtests.jl matches `include\\(\"test_{op}\\.jl\"\\)`"}},
		{"forbidden text in the subject", `subject = "julia/kernels/*.jl"
forbid = [{ text = 'ct\.bid\(0\)' }]`, nil, []string{"julia/kernels/add.jl:2 julia/kernels/add.jl has `ct.bid(0)`"}},
		{"toml keys", `forbid = [{ key = "dependencies.*.path", in = "**/Cargo.toml" }]
require = [{ key = "dependencies.*", value = '^=', in = "**/Cargo.toml" }]`, nil,
			[]string{`ops/cutile_rs/c/Cargo.toml:3 dependencies.cuda-core of ops/cutile_rs/c/Cargo.toml is {"path":"../x","version":"0.2"}`, `ops/cutile_rs/c/Cargo.toml:3 dependencies.cuda-core.path of ops/cutile_rs/c/Cargo.toml is ../x`}},
		{"json key subject", `key = "sources.path"
require = [{ file = "{value}" }]`, []string{"m/*.json"}, []string{"m/s.json:1 there is no m/gone.py"}},
		{"json values", `subject = "m/*.json"
require = [{ key = "spec.language", value = '^cuda-tile$' }, { key = "spec.target_hardware", value = '^SM\d+$' }]`, nil,
			[]string{"m/s.json:1 spec.language of m/s.json is triton", "m/s.json:1 spec.target_hardware of m/s.json is sm90"}},
		{"pattern subject and capture", `pattern = 'tilegym.backend.register_impl($OP, backend=$B)'
require = [{ capture = "B", value = '^{pkg:dash}$' }]`, []string{"{pkg}/*.py"}, []string{`m/k.py:2 B is "cutile_rs"`}},
		{"forbidden file", `forbid = [{ file = "julia/**/mul.jl" }]`, nil, []string{"julia/kernels/mul.jl:1 julia/kernels/mul.jl must not be committed"}},
		{"when holds: a file, a key value, a text", `subject = "julia/kernels/*.jl"
forbid = [{ text = 'ct\.bid\(0\)' }]
when = [{ file = "julia/test/runtests.jl" }, { key = "dependencies.cutile", value = '^=0\.2', in = "**/Cargo.toml" }, { text = '^include', in = "julia/test/*.jl" }]`, nil,
			[]string{"julia/kernels/add.jl:2 julia/kernels/add.jl has `ct.bid(0)`"}},
		{"when fails: no such file", `subject = "julia/kernels/*.jl"
forbid = [{ text = 'ct\.bid\(0\)' }]
when = [{ file = "julia/Project.toml" }]`, nil, nil},
		{"when fails: a value that does not match", `subject = "julia/kernels/*.jl"
forbid = [{ text = 'ct\.bid\(0\)' }]
when = [{ file = "julia/test/runtests.jl" }, { key = "dependencies.cutile", value = '^=0\.3', in = "**/Cargo.toml" }]`, nil, nil},
		{"unless holds: the rule does not apply", `subject = "julia/kernels/*.jl"
forbid = [{ text = 'ct\.bid\(0\)' }]
unless = [{ text = 'include', in = "julia/test/runtests.jl" }]`, nil, nil},
		{"unless fails: the rule applies", `subject = "julia/kernels/*.jl"
forbid = [{ text = 'ct\.bid\(0\)' }]
unless = [{ file = "julia/Project.toml" }]`, nil, []string{"julia/kernels/add.jl:2 julia/kernels/add.jl has `ct.bid(0)`"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := new(checks.RelationParams)
			if _, err := toml.Decode(c.params, p); err != nil {
				t.Fatal(err)
			}
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range p.Find(snippetTree(t, tree), c.files) {
				got = append(got, f.File+":"+strconv.Itoa(f.Line)+" "+f.Vars["what"])
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// A "when" is checked on the repository: it takes no capture, and a text,
// pattern or key says where to look.
func TestRelationWhenInvalid(t *testing.T) {
	for _, c := range []struct{ params, want string }{
		{`forbid = [{ file = "x" }]
when = [{ capture = "B", value = "x" }]`, "when[0]: a capture needs a subject"},
		{`forbid = [{ file = "x" }]
when = [{ text = "x" }]`, "when[0]: give in"},
		{`forbid = [{ file = "x" }]
when = [{ file = "x", text = "y" }]`, "when[0]: give exactly one"},
		{`forbid = [{ file = "x" }]
unless = [{ key = "a" }]`, "unless[0]: give in"},
	} {
		p := new(checks.RelationParams)
		if _, err := toml.Decode(c.params, p); err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.params, err, c.want)
		}
		pp := &checks.PatternParams{Pattern: "f()"}
		if _, err := toml.Decode(c.params[strings.Index(c.params, "\n")+1:], pp); err != nil {
			t.Fatal(err)
		}
		if err := pp.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("pattern %s: got %v, want %q", c.params, err, c.want)
		}
	}
}

// BenchmarkRelationRules runs the catalog's relation rules on a TileGym
// tree ($TILEGYM_LINT_TREE), a new Tree each time (the parsed files, and
// what is computed once per parsed file, are kept as in a check).
func BenchmarkRelationRules(b *testing.B) {
	repo, _ := corpus.Load(b, realtree.Need(b))
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		b.Fatal(err)
	}
	var rs []*rules.Rule
	for _, r := range cat.Rules {
		if _, ok := r.Params.(*checks.RelationParams); ok {
			rs = append(rs, r)
		}
	}
	b.ResetTimer()
	defer testrepo.ReportCPU(b)()
	for i := 0; i < b.N; i++ {
		tree := checks.NewTree(repo)
		tree.MatchAhead(rs)
		for _, r := range rs {
			r.Params.(*checks.RelationParams).Find(tree, r.Files)
		}
	}
}

// TestRelationRulesShareATree: the relation rules run at once on one tree
// that matched their patterns ahead, as runRelation runs them, each rule
// twice, find what each finds alone on a tree of its own, on every fixture and (with TILEGYM_LINT_TREE)
// upstream; go test -race holds the tree's caches to being safe for
// concurrent use.
func TestRelationRulesShareATree(t *testing.T) {
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	var ps []*checks.RelationParams
	var files [][]string
	var rs []*rules.Rule
	for _, r := range cat.Rules {
		if p, ok := r.Params.(*checks.RelationParams); ok {
			ps = append(ps, p)
			files = append(files, r.Files)
			rs = append(rs, r)
		}
	}
	render := func(fs []checks.RelationFinding) string {
		var b strings.Builder
		for _, f := range fs {
			fmt.Fprintf(&b, "%s:%d %v %v\n", f.File, f.Line, f.Node != nil, f.Vars)
		}
		return b.String()
	}
	dirs, least := corpus.Dirs(t), 20
	if testing.Short() {
		dirs, least = dirs[:min(len(dirs), 30)], 1
	}
	found := 0
	for _, dir := range dirs {
		repo, _ := corpus.Load(t, dir)
		want := make([]string, len(ps))
		for i, p := range ps {
			fs := p.Find(checks.NewTree(repo), files[i])
			found += len(fs)
			want[i] = render(fs)
		}
		shared := checks.NewTree(repo)
		shared.MatchAhead(rs)
		got := make([]string, 2*len(ps))
		var wg sync.WaitGroup
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = render(ps[i%len(ps)].Find(shared, files[i%len(ps)]))
			}()
		}
		wg.Wait()
		for i, g := range got {
			if w := want[i%len(ps)]; g != w {
				t.Errorf("%s: rule %d on a shared tree found\n%s\nalone\n%s", dir, i%len(ps), g, w)
			}
		}
	}
	if found < least {
		t.Errorf("%d findings in all: the comparison exercises too little", found)
	}
	t.Logf("%d findings compared", found)
}

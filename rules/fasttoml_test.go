package rules

import (
	"bytes"
	"math/rand"
	"reflect"
	"testing"

	"github.com/BurntSushi/toml"

	tilegymlint "github.com/tilegym/tilegym-lint"
)

// referenceTOML decodes with BurntSushi/toml, as ParseTOML does.
func referenceTOML(src []byte) (map[string]any, error) {
	var m map[string]any
	_, err := toml.Decode(string(src), &m)
	return m, err
}

// checkFastTOML fails when decodeTOMLFast accepts a document that the
// reference decoder rejects or decodes differently.
func checkFastTOML(t *testing.T, name string, src []byte) bool {
	t.Helper()
	got, ok := decodeTOMLFast(src)
	if !ok {
		return false
	}
	want, err := referenceTOML(src)
	if err != nil {
		t.Errorf("%s: the fast decoder accepts a document toml.Decode rejects (%v):\n%s", name, err, src)
		return true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the fast decoder differs from toml.Decode:\n got %#v\nwant %#v\n%s", name, got, want, src)
	}
	return true
}

// The embedded catalog decodes on the fast path (else every run pays for
// the reflection decoder: extend decodeTOMLFast to the new shape), to what
// toml.Decode gives.
func TestDecodeTOMLFastCatalog(t *testing.T) {
	if !checkFastTOML(t, "rules.toml", tilegymlint.RulesTOML) {
		t.Fatal("the fast decoder does not take rules.toml: extend decodeTOMLFast to its new shapes")
	}
}

// fastAccept are documents of every shape the fast decoder takes.
var fastAccept = []string{
	"",
	"a = 1\nb = true\nc = false\nd = \"x\"\ne = 'y'\n",
	"a = 0\nb = 9223372036854775807\n",
	"a = [1, 2,\n  3, # c\n]\nb = []\nc = [[1], ['x'], {k = 1}]\n",
	"a = { x = 1, \"y z\" = \"w\", 'q' = [] }\nb = {}\n",
	"[t]\nx = 1\n[t.u]\ny = 2\n[[arr]]\nk = 1\n[arr.sub]\nv = 1\n[[arr]]\nk = 2\n[arr.sub]\nv = 2\n",
	"[a.b]\nx = 1\n[a]\ny = 2\n",
	"s = \"\\\"q\\\" \\\\ \\n \\t \\b \\f \\r \\u00e9 \\U0001F600\"\n",
	"m = \"\"\"\nline 1\nline \\\"2\\\"\n\"\"\"\n",
	"m = \"\"\"a \\\n   b \\  \n\n  c\"\"\"\n",
	"m = '''\nraw \\n '' '\n'''\n",
	"# only a comment\n\n  [ x . \"y\" ]  # c\n",
	"[[a.b]]\n[[a.b]]\n[a]\n",
	"k = \"é ü\"\n",
}

func TestDecodeTOMLFastCases(t *testing.T) {
	for _, s := range fastAccept {
		if !checkFastTOML(t, "case", []byte(s)) {
			t.Errorf("the fast decoder does not take:\n%s", s)
		}
	}
	// Invalid, or shapes left to toml.Decode: never accepted.
	reject := []string{
		"a = 1\na = 2\n", "[t]\n[t]\n", "a = 1\n[a]\n", "[[a]]\n[a]\n", "[a]\n[[a]]\n",
		"a = {x = 1}\n[a.y]\n", "a = [1]\n[[a]]\n", "a.b = 1\n", "a = 1.5\n", "a = -1\n",
		"a = 1_000\n", "a = 01\n", "a = 1979-05-27\n", "a = inf\n", "a = \"x\\e\"\n",
		"a = {x = 1,}\n", "a = {x = 1,\ny = 2}\n", "a = 1 b = 2\n", "a = \"x\r\n", "a = 1\r\n",
		"a = \"\"\"x\"\"\"\"\n", "a = \"x\n\"\n", "a = 'x\n'\n", "[a\n", "a = [1 2]\n",
		"a = \"\\u12\"\n", "a = \"\\uD800\"\n", "a = \"x \\ y\"\n", "a = \"\"\"x \\ y\"\"\"\n", "a = 9223372036854775808\n",
		"\xef\xbb\xbfa = 1\n", "a = \"\xff\"\n", "= 1\n", "a =\n", "[]\n", "[[]]\n",
	}
	for _, s := range reject {
		if _, ok := decodeTOMLFast([]byte(s)); ok {
			t.Errorf("the fast decoder takes %q", s)
		}
	}
}

// Mutations of the catalog (lines dropped, duplicated or swapped, bytes
// changed): whatever the fast decoder accepts, toml.Decode decodes the same.
func TestDecodeTOMLFastMutations(t *testing.T) {
	src := tilegymlint.RulesTOML
	lines := bytes.SplitAfter(src, []byte("\n"))
	rng := rand.New(rand.NewSource(1))
	// The decoder has no concurrency: under the race detector (ten times
	// slower), fewer mutations.
	n := 1200
	if testing.Short() || raceEnabled {
		n = 200
	}
	alphabet := []byte("\"'\\[]{}=,.#\n \tax1-_0u")
	accepted := 0
	for k := 0; k < n; k++ {
		var doc []byte
		switch k % 4 {
		case 0: // drop a line
			i := rng.Intn(len(lines))
			doc = bytes.Join(append(append([][]byte(nil), lines[:i]...), lines[i+1:]...), nil)
		case 1: // duplicate a line
			i := rng.Intn(len(lines))
			doc = bytes.Join(append(append(append([][]byte(nil), lines[:i+1]...), lines[i]), lines[i+1:]...), nil)
		case 2: // change a byte
			doc = append([]byte(nil), src...)
			doc[rng.Intn(len(doc))] = alphabet[rng.Intn(len(alphabet))]
		case 3: // insert a byte
			i := rng.Intn(len(src))
			doc = append(append(append([]byte(nil), src[:i]...), alphabet[rng.Intn(len(alphabet))]), src[i:]...)
		}
		if checkFastTOML(t, "mutation", doc) {
			accepted++
		}
		if t.Failed() {
			return
		}
	}
	if accepted < n/4 {
		t.Errorf("only %d of %d mutations accepted: the comparison tests little", accepted, n)
	}
}

// Mutations of small documents of every accepted shape.
func TestDecodeTOMLFastSmallMutations(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	alphabet := []byte("\"'\\[]{}=,.#\n \tax1-_0uU")
	per := 300
	if testing.Short() || raceEnabled {
		per = 60
	}
	for _, s := range fastAccept {
		for k := 0; k < per; k++ {
			doc := []byte(s)
			for m := 0; m <= k%3; m++ {
				if len(doc) == 0 || rng.Intn(2) == 0 {
					i := rng.Intn(len(doc) + 1)
					doc = append(append(append([]byte(nil), doc[:i]...), alphabet[rng.Intn(len(alphabet))]), doc[i:]...)
				} else {
					doc[rng.Intn(len(doc))] = alphabet[rng.Intn(len(alphabet))]
				}
			}
			checkFastTOML(t, "mutation", doc)
			if t.Failed() {
				return
			}
		}
	}
}

func FuzzDecodeTOMLFast(f *testing.F) {
	for _, s := range fastAccept {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) { checkFastTOML(t, "fuzz", doc) })
}

func BenchmarkDecodeTOMLFast(b *testing.B) {
	for i := 0; i < b.N; i++ {
		decodeTOMLFast(tilegymlint.RulesTOML)
	}
}

func BenchmarkDecodeTOMLReference(b *testing.B) {
	for i := 0; i < b.N; i++ {
		referenceTOML(tilegymlint.RulesTOML)
	}
}

package git

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseDiff reads a diff of every shape change mode meets: an edit with
// a removed line that looks like a file header and a last line without its
// end, an empty new file (no --- and +++ lines), a deleted file, a mode
// change alone, a type change (deleted, then new), a binary file, quoted
// names and a name with a space, and a malformed hunk header.
func TestParseDiff(t *testing.T) {
	const out = `diff --git a/ops/a.py b/ops/a.py
index 1111111111111111111111111111111111111111..2222222222222222222222222222222222222222 100644
--- a/ops/a.py
+++ b/ops/a.py
@@ -2,2 +2 @@ def f():
---- a/x.py
-    pass
+    return 1
@@ -9 +8,0 @@
-last
\ No newline at end of file
diff --git a/ops/empty.py b/ops/empty.py
new file mode 100644
index 0000000000000000000000000000000000000000..e69de29bb2d1d6434b8b29ae775ad8c2e48c5391
diff --git a/ops/gone.py b/ops/gone.py
deleted file mode 100755
index 3333333333333333333333333333333333333333..0000000000000000000000000000000000000000
--- a/ops/gone.py
+++ /dev/null
@@ -1 +0,0 @@
-x = 1
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/link.py b/link.py
deleted file mode 100644
index 4444444444444444444444444444444444444444..0000000000000000000000000000000000000000
--- a/link.py
+++ /dev/null
@@ -1 +0,0 @@
-y = 2
diff --git a/link.py b/link.py
new file mode 120000
index 0000000000000000000000000000000000000000..5555555555555555555555555555555555555555
--- /dev/null
+++ b/link.py
@@ -0,0 +1 @@
+ops/a.py
\ No newline at end of file
diff --git a/img.png b/img.png
index 6666666666666666666666666666666666666666..7777777777777777777777777777777777777777 100644
Binary files a/img.png and b/img.png differ
diff --git "a/caf\303\251.py" "b/caf\303\251.py"
index 8888888888888888888888888888888888888888..9999999999999999999999999999999999999999 100644
--- "a/caf\303\251.py"
+++ "b/caf\303\251.py"
@@ -1 +1 @@
-a
+b
diff --git a/two words.py b/two words.py
index aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa..bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb 100644
--- a/two words.py	
+++ b/two words.py	
@@ -1 +1,2 @@ x
-c
+d
+e
@@ nonsense @@
`
	lines := func(ls ...string) [][]byte {
		var out [][]byte
		for _, l := range ls {
			out = append(out, []byte(l))
		}
		return out
	}
	want := []*FileDiff{
		{Path: "ops/a.py", OldID: "1111111111111111111111111111111111111111", OldMode: "100644", SawPatch: true,
			Hunks: []Hunk{{NewStart: 2, NewCount: 1, Old: lines("--- a/x.py\n", "    pass\n")}, {NewStart: 8, NewCount: 0, Old: lines("last")}}},
		{Path: "ops/empty.py", New: true},
		{Path: "ops/gone.py", OldID: "3333333333333333333333333333333333333333", OldMode: "100755", Deleted: true, SawPatch: true,
			Hunks: []Hunk{{NewStart: 0, NewCount: 0, Old: lines("x = 1\n")}}},
		{Path: "run.sh", OldMode: "100644"},
		{Path: "link.py", OldID: "4444444444444444444444444444444444444444", OldMode: "100644", Deleted: true, SawPatch: true,
			Hunks: []Hunk{{NewStart: 0, NewCount: 0, Old: lines("y = 2\n")}}},
		{Path: "link.py", New: true, SawPatch: true, Hunks: []Hunk{{NewStart: 1, NewCount: 1}}},
		{Path: "img.png", OldID: "6666666666666666666666666666666666666666", OldMode: "100644", Binary: true},
		{Path: "café.py", OldID: "8888888888888888888888888888888888888888", OldMode: "100644", SawPatch: true,
			Hunks: []Hunk{{NewStart: 1, NewCount: 1, Old: lines("a\n")}}},
		{Path: "two words.py", OldID: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", OldMode: "100644", SawPatch: true,
			Hunks: []Hunk{{NewStart: 1, NewCount: 2, Old: lines("c\n")}}},
	}
	if diff := cmp.Diff(want, ParseDiff([]byte(out))); diff != "" {
		t.Errorf("ParseDiff (-want +got):\n%s", diff)
	}
}

// TestRebuildOldChecksBlobID: the old version is rebuilt from the new and
// the removed lines only when it hashes to the diff's blob id.
func TestRebuildOldChecksBlobID(t *testing.T) {
	old := []byte("a\nb\nc")
	d := &FileDiff{OldID: BlobID(old, 40), Hunks: []Hunk{{NewStart: 2, NewCount: 1, Old: [][]byte{[]byte("b\n")}}, {NewStart: 2, NewCount: 0, Old: [][]byte{[]byte("c")}}}}
	got, ok := d.RebuildOld([]byte("a\nB\n"))
	if !ok || string(got) != string(old) {
		t.Errorf("RebuildOld = %q, %v; want %q, true", got, ok, old)
	}
	if got, ok := d.RebuildOld([]byte("a\nX\n")); !ok || string(got) != string(old) {
		t.Errorf("RebuildOld of another edit of the same line = %q, %v; want %q, true", got, ok, old)
	}
	if _, ok := d.RebuildOld([]byte("a\nB\nextra\n")); ok {
		t.Error("RebuildOld of a new version the diff does not describe: the blob id check let it through")
	}
	if _, ok := d.RebuildOld([]byte("a\n")); ok {
		t.Error("RebuildOld with a hunk past the file's end: rebuilt")
	}
}

// TestParseRenames reads renames, and steps over copies and other
// statuses, each with their paths.
func TestParseRenames(t *testing.T) {
	out := "M\x00ops/a.py\x00R087\x00old/x.py\x00new/x.py\x00C100\x00p.py\x00q.py\x00D\x00gone.py\x00R100\x00u.py\x00v.py\x00"
	want := map[string]string{"old/x.py": "new/x.py", "u.py": "v.py"}
	if diff := cmp.Diff(want, parseRenames([]byte(out))); diff != "" {
		t.Errorf("parseRenames (-want +got):\n%s", diff)
	}
}

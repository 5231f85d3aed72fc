package fixtureset

import "testing"

// The wants file names the file and line of each want: a JSON file cannot
// hold a comment.
func TestParseWantsFile(t *testing.T) {
	ws, err := ParseWants(WantsFile, []byte("a/b.json:3 # want: M08 \"language\"\n\nno want here\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].File != "a/b.json" || ws[0].Line != 3 || ws[0].Rule != "M08" {
		t.Errorf("got %v, want a/b.json:3: M08", ws)
	}
	if _, err := ParseWants(WantsFile, []byte("b.json # want: M08 \"x\"\n")); err == nil {
		t.Error("a line without PATH:LINE: no error")
	}
}

package srcscan

import (
	"reflect"
	"strings"
	"testing"
)

func TestRequirements(t *testing.T) {
	md := "# Title\n\nText that names - **S9.9** in passing.\n\n## Step 1\n\n- **W1** One.\n- **S1.1** Two,\n  continued.\n- plain item\n- **S5.10** Three.\n- **X.2** Four.\n"
	got, err := Requirements([]byte(md))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"W1", "S1.1", "S5.10", "X.2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRequirementsErrors(t *testing.T) {
	for md, want := range map[string]string{
		"- **W1** a\n- **W1** b\n": "line 2: requirement W1 listed again (first on line 1)",
		"- **Note** a\n":           `line 1: a list item starting in bold must start with a requirement ID such as S3.1, not "Note"`,
		"- **S1.** a\n":            `not "S1."`,
		"# nothing\n":              "no requirement listed",
	} {
		_, err := Requirements([]byte(md))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one containing %q", md, err, want)
		}
	}
}

package load

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRegisteredNames(t *testing.T) {
	words := [][]byte{[]byte("register_impl")}
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{`register_impl("softmax", "torch")(ref)`, []string{"softmax"}},
		{"@register_impl(\n    'rms_norm',\n    backend=\"cutile\",\n)\ndef f(): pass\n", []string{"rms_norm"}},
		{`from tilegym.backend import register_impl` + "\n" + `register_impl ("a", "cutile")` + "\n" + `register_impl("b", "torch")`, []string{"a", "b"}},
		// Not a plain literal first, or not the register word.
		{`register_impl(name="softmax")`, nil},
		{`register_impl("soft\x6dax")`, nil},
		{`register_impl(NAME, "torch")`, nil},
		{`my_register_impl("softmax")`, nil},
		{`register_impl("softmax`, nil},
	} {
		if got := registeredNames([]byte(tc.src), words); !cmp.Equal(got, tc.want) {
			t.Errorf("registeredNames(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

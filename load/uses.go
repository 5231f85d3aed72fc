package load

import (
	"bytes"
	"strings"

	"github.com/tilegym/tilegym-lint/python/astutil"
)

// mayUse reports whether the names a file uses (usedNames: what its imports
// bind, its dotted names resolved through them, and every prefix of
// those) may include one of qs, qualified names such as
// "tilegym.ops.softmax". It reads the text, without parsing: it says false
// only when every place the file spells the last part of each q (a whole
// word) is one where the parsed file cannot get q from:
//
//   - a word on a comment line ("# softmax ..."), not after a dot: a bare
//     name uses q only through an import of it, which spells it too;
//   - a dotted name written without spaces, "H.r.softmax", whose parts
//     before the word are not the end of q's module ("tilegym.ops"): then
//     no binding of H makes it q ("torch.softmax", "x.backends.softmax");
//   - or whose parts are the end of q's module but whose head H is not a
//     part of it and is bound, if at all, only by lines of the form
//     "import a.b as H" with a not q's top package ("F.softmax" after
//     "import torch.nn.functional as F").
//
// Anything else says true (parse and see): a name after a bracket or a
// space ("(a.b).softmax", "a. softmax"), an "as H" of another form, a file
// with non-ASCII text (its names are normalized by the parser), a relative
// import in a file of q's top package (p is the file's path).
//
// A test file that says "torch.softmax" is not a test of the op softmax:
// the lazy loading (CloseOver) asks this before parsing such a file.
func mayUse(p string, src []byte, qs []string) bool {
	if hasNonASCII(src) {
		return true
	}
	pkg := astutil.PackagePath(p)
	for _, q := range qs {
		i := strings.LastIndexByte(q, '.')
		if i < 0 {
			return true
		}
		module, w := strings.Split(q[:i], "."), q[i+1:]
		// A relative import names a module of the file's package without
		// spelling it.
		if top, _, _ := strings.Cut(pkg, "."); top == module[0] && bytes.Contains(src, []byte("from .")) {
			return true
		}
		if !eachWord(src, w, func(j int) bool { return cannotUse(src, j, module) }) {
			return true
		}
	}
	return false
}

// cannotUse reports whether the word at j (the last part of a name in
// module) is a place where the file cannot use the name (see mayUse).
func cannotUse(src []byte, j int, module []string) bool {
	if j == 0 || src[j-1] != '.' {
		return commentLine(src, j)
	}
	// The dotted name before the word: parts joined by dots, no spaces.
	var parts []string
	for dot := j - 1; ; {
		start := dot
		for start > 0 && wordByte[src[start-1]] {
			start--
		}
		if start == dot || src[start] >= '0' && src[start] <= '9' {
			return false // a bracket, a space, a number before the dot
		}
		parts = append([]string{string(src[start:dot])}, parts...)
		if start == 0 || src[start-1] != '.' {
			break
		}
		dot = start - 1
	}
	head, rest := parts[0], parts[1:]
	// rest must be the end of the module, and the head bound to its start.
	if len(rest) >= len(module) || !endsWith(module, rest) {
		return true
	}
	for _, m := range module {
		if head == m {
			return false
		}
	}
	return boundOnlyElsewhere(src, head, module[0])
}

// boundOnlyElsewhere reports whether every "as name" of the file is on a
// line "import a.b as name" (a comment may follow) with a not top.
func boundOnlyElsewhere(src []byte, name, top string) bool {
	return eachWord(src, name, func(j int) bool {
		// The word before it, across spaces, line breaks and backslashes;
		// across a line with a comment, it cannot be told ("as  # c\n F"
		// in brackets).
		b := j
		for b > 0 && (src[b-1] == ' ' || src[b-1] == '\t' || src[b-1] == '\n' || src[b-1] == '\r' || src[b-1] == '\\' || src[b-1] == '\f') {
			if src[b-1] == '\n' && bytes.IndexByte(lineAt(src, b-1), '#') >= 0 {
				return false
			}
			b--
		}
		if b < 2 || string(src[b-2:b]) != "as" || b > 2 && wordByte[src[b-3]] {
			return true // not an "as name"
		}
		return importAsLine(lineAt(src, j), name, top)
	})
}

// importAsLine reports whether a line is "import a.b as name" (and maybe a
// comment), a not top.
func importAsLine(line []byte, name, top string) bool {
	f := strings.Fields(string(line))
	for i, s := range f {
		if strings.HasPrefix(s, "#") {
			f = f[:i]
			break
		}
	}
	if len(f) != 4 || f[0] != "import" || f[2] != "as" || f[3] != name {
		return false
	}
	for _, part := range strings.Split(f[1], ".") {
		if part == "" || !isIdentifier(part) {
			return false
		}
	}
	first, _, _ := strings.Cut(f[1], ".")
	return first != top
}

// isIdentifier reports whether s is an ASCII Python identifier.
func isIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// commentLine reports whether the line holding offset j starts (after
// blanks) with '#'.
func commentLine(src []byte, j int) bool {
	return bytes.HasPrefix(bytes.TrimLeft(lineAt(src, j), " \t\f"), []byte("#"))
}

// lineAt returns the line holding offset j, without its line break.
func lineAt(src []byte, j int) []byte {
	start := bytes.LastIndexByte(src[:j], '\n') + 1
	end := bytes.IndexByte(src[j:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += j
	}
	return bytes.TrimSuffix(src[start:end], []byte("\r"))
}

// endsWith reports whether list ends with suffix.
func endsWith(list, suffix []string) bool {
	if len(suffix) > len(list) {
		return false
	}
	for i, s := range suffix {
		if list[len(list)-len(suffix)+i] != s {
			return false
		}
	}
	return true
}

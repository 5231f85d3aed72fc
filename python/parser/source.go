package parser

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// decodeSource turns the raw bytes of a file into UTF-8 text with every line
// end normalized to '\n', as CPython's tokenizer sees it. It implements PEP
// 263 encoding declarations and the UTF-8 BOM.
func decodeSource(filename string, src []byte) ([]byte, *Error) {
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line, col := lineColAt(src, i)
		return nil, &Error{filename, line, col, "source code cannot contain null bytes"}
	}
	bom := false
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		bom = true
		src = src[3:]
	}
	enc, line, err := findCookie(src)
	if err != "" {
		return nil, &Error{filename, line, 0, err}
	}
	if enc != "" && enc != "utf-8" {
		if bom {
			return nil, &Error{filename, line, 0, "encoding problem: " + enc + " with BOM"}
		}
		dec := lookupEncoding(enc)
		if dec == nil {
			return nil, &Error{filename, line, 0, "unknown encoding: " + enc}
		}
		if cm, ok := dec.(*charmap.Charmap); ok && dec != asciiEncoding {
			out, bad := decodeCharmap(cm, strings.HasPrefix(strings.ToLower(enc), "iso"), src)
			if bad >= 0 {
				line, col := lineColAt(src, bad)
				return nil, &Error{filename, line, col, "(unicode error) '" + enc + "' codec can't decode byte: character maps to <undefined>"}
			}
			src = out
		} else if dec != asciiEncoding {
			out, derr := dec.NewDecoder().Bytes(src)
			if derr != nil {
				return nil, &Error{filename, 1, 0, "(unicode error) cannot decode source as " + enc}
			}
			src = out
		} else {
			for i, c := range src {
				if c >= 0x80 {
					line, col := lineColAt(src, i)
					return nil, &Error{filename, line, col, "(unicode error) 'ascii' codec can't decode byte"}
				}
			}
		}
	}
	// Like CPython, UTF-8 source is not validated as a whole: invalid bytes
	// are only errors in identifiers and string literals (checked there);
	// comments may contain them.
	if bytes.IndexByte(src, '\r') >= 0 {
		out := make([]byte, 0, len(src))
		for i := 0; i < len(src); i++ {
			c := src[i]
			if c == '\r' {
				if i+1 < len(src) && src[i+1] == '\n' {
					i++
				}
				c = '\n'
			}
			out = append(out, c)
		}
		src = out
	}
	return src, nil
}

// lineColAt returns the line and column of byte off of src, whose lines end
// as CPython reads a file: at "\r\n", "\r" or "\n".
func lineColAt(src []byte, off int) (int, int) {
	line, ls := 1, 0
	for i, c := range src[:off] {
		if c == '\n' || c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			line, ls = line+1, i+1
		}
	}
	return line, off - ls
}

// findCookie looks for a PEP 263 coding declaration in the first two lines.
// It returns the normalized encoding name ("" if none) and the line it was on.
func findCookie(src []byte) (string, int, string) {
	rest := src
	for ln := 1; ln <= 2 && len(rest) > 0; ln++ {
		end := bytes.IndexAny(rest, "\n\r")
		var line []byte
		if end < 0 {
			line, rest = rest, nil
		} else {
			line = rest[:end]
			rest = rest[end+1:]
		}
		// The declaration must be in a comment that is alone on its line.
		isComment := false
		blank := true
		for _, c := range line {
			if c == '#' {
				isComment = true
				break
			}
			if c != ' ' && c != '\t' && c != '\f' {
				blank = false
				break
			}
		}
		if isComment {
			if name, ok := codingSpec(line); ok {
				return normalEncodingName(name), ln, ""
			}
		}
		if !isComment && !blank {
			return "", 0, ""
		}
	}
	return "", 0, ""
}

func codingSpec(line []byte) (string, bool) {
	for i := 0; i+6 < len(line)+1; i++ {
		if !bytes.HasPrefix(line[i:], []byte("coding")) {
			continue
		}
		t := i + 6
		if t >= len(line) || (line[t] != ':' && line[t] != '=') {
			continue
		}
		t++
		for t < len(line) && (line[t] == ' ' || line[t] == '\t') {
			t++
		}
		b := t
		for t < len(line) {
			c := line[t]
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' {
				t++
				continue
			}
			break
		}
		if b < t {
			return string(line[b:t]), true
		}
	}
	return "", false
}

// normalEncodingName mirrors CPython's get_normal_name.
func normalEncodingName(s string) string {
	l := strings.ToLower(strings.ReplaceAll(s, "_", "-"))
	if l == "utf-8" || strings.HasPrefix(l, "utf-8-") {
		return "utf-8"
	}
	for _, p := range []string{"latin-1", "iso-8859-1", "iso-latin-1"} {
		if l == p || strings.HasPrefix(l, p+"-") {
			return "iso-8859-1"
		}
	}
	return s
}

// asciiSentinel marks the ASCII codec, which only needs validation.
type asciiSentinel struct{ encoding.Encoding }

var asciiEncoding encoding.Encoding = &asciiSentinel{encoding.Nop}

func lookupEncoding(name string) encoding.Encoding {
	n := strings.ToLower(strings.ReplaceAll(name, "_", "-"))
	switch n {
	case "utf8", "utf-8", "u8", "utf", "cp65001":
		return encoding.Nop
	case "ascii", "us-ascii", "646", "us":
		return asciiEncoding
	case "latin1", "latin-1", "l1", "iso8859-1", "iso-8859-1", "8859", "cp819", "iso-ir-100":
		return charmap.ISO8859_1
	case "cp1252", "windows-1252":
		return charmap.Windows1252
	case "cp1251", "windows-1251":
		return charmap.Windows1251
	case "cp1250", "windows-1250":
		return charmap.Windows1250
	case "koi8-r":
		return charmap.KOI8R
	case "koi8-u":
		return charmap.KOI8U
	case "cp437":
		return charmap.CodePage437
	case "cp850":
		return charmap.CodePage850
	case "cp866":
		return charmap.CodePage866
	case "mac-roman", "macroman":
		return charmap.Macintosh
	case "euc-jp", "eucjp":
		return japanese.EUCJP
	case "shift-jis", "shiftjis", "sjis":
		return japanese.ShiftJIS
	case "iso-2022-jp":
		return japanese.ISO2022JP
	case "euc-kr", "euckr":
		return korean.EUCKR
	case "gb2312", "gbk", "cp936":
		return simplifiedchinese.GBK
	case "gb18030":
		return simplifiedchinese.GB18030
	case "big5":
		return traditionalchinese.Big5
	}
	if strings.HasPrefix(n, "iso8859-") {
		n = "iso-8859-" + n[len("iso8859-"):]
	}
	if e, err := htmlindex.Get(n); err == nil {
		return e
	}
	return nil
}

// decodeCharmap decodes a single-byte encoding. Python's ISO-8859 codecs
// map 0x80-0x9F to the C1 control characters.
func decodeCharmap(cm *charmap.Charmap, iso bool, src []byte) ([]byte, int) {
	out := make([]byte, 0, len(src)+len(src)/2)
	for i, c := range src {
		if c < 0x80 {
			out = append(out, c)
			continue
		}
		r := cm.DecodeByte(c)
		if r == utf8.RuneError {
			if !iso || c >= 0xA0 {
				return nil, i
			}
			r = rune(c)
		}
		out = utf8.AppendRune(out, r)
	}
	return out, -1
}

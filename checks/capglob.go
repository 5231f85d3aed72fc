package checks

// Path globs with {captures}.

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
)

// A capGlob is a path glob with {captures}: "*" and "?" match within a
// path segment, "**" any number of segments, "{name}" binds a non-empty
// part of one segment (a name used twice must bind the same text).
type capGlob struct {
	src    string
	re     *regexp.Regexp // nil when literal
	lit    string         // a glob with no pattern and no capture: the one path it matches
	names  []string       // the group of each capture, in order
	prefix string         // the literal directory the glob is under
	dir    bool           // ends in "/": matches directories
	err    error
}

var capRE = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)(?::([a-z]+))?\}`)

func compileCapGlob(g string) *capGlob {
	c := &capGlob{src: g}
	if strings.HasSuffix(g, "/") {
		c.dir = true
		g = strings.TrimSuffix(g, "/")
	}
	if g == "" || strings.HasPrefix(g, "/") || strings.Contains(g, "\\") {
		c.err = fmt.Errorf("invalid glob %q: want a slash glob relative to the root", c.src)
		return c
	}
	c.prefix = layout.GlobPrefix(g)
	if !strings.ContainsAny(g, "*?{") {
		// A path: matched by comparing, without a regexp to compile
		// (half of the globs of a check of TileGym, once the subjects'
		// captures are substituted).
		c.lit = g
		c.prefix = path.Dir(g)
		if c.prefix == "." {
			c.prefix = ""
		}
		return c
	}
	var b strings.Builder
	b.WriteString("^")
	segs := strings.Split(g, "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		if seg == "**" {
			if last {
				b.WriteString(".*")
			} else {
				b.WriteString("(?:[^/]+/)*")
			}
			continue
		}
		for j := 0; j < len(seg); {
			switch {
			case seg[j] == '*':
				b.WriteString("[^/]*")
				j++
			case seg[j] == '?':
				b.WriteString("[^/]")
				j++
			case seg[j] == '{':
				m := capRE.FindStringSubmatchIndex(seg[j:])
				if m == nil || m[0] != 0 {
					c.err = fmt.Errorf("glob %q: a { opens no {capture}", c.src)
					return c
				}
				c.names = append(c.names, seg[j+m[2]:j+m[3]])
				b.WriteString("([^/]+?)")
				j += m[1]
			default:
				b.WriteString(regexp.QuoteMeta(seg[j : j+1]))
				j++
			}
		}
		if !last {
			b.WriteString("/")
		}
	}
	b.WriteString("$")
	c.re, c.err = regexp.Compile(b.String())
	return c
}

// match matches a path, returning its captures.
func (c *capGlob) match(p string) (map[string]string, bool) {
	if c.re == nil {
		if p != c.lit {
			return nil, false
		}
		return map[string]string{}, true
	}
	m := c.re.FindStringSubmatch(p)
	if m == nil {
		return nil, false
	}
	caps := map[string]string{}
	for i, name := range c.names {
		if v, ok := caps[name]; ok && v != m[i+1] {
			return nil, false
		}
		caps[name] = m[i+1]
	}
	return caps, true
}

// expandCaps substitutes captures in s: {name} by its value (quoted for a
// regexp when quote), {name:dash} with "_" as "-". Braces that name no
// capture are left alone ({2,3} of a regexp, a capture bound later).
func expandCaps(s string, caps map[string]string, quote bool) string {
	if !strings.Contains(s, "{") {
		return s
	}
	return capRE.ReplaceAllStringFunc(s, func(m string) string {
		sm := capRE.FindStringSubmatch(m)
		v, ok := caps[sm[1]]
		if !ok {
			return m
		}
		if sm[2] == "dash" {
			v = strings.ReplaceAll(v, "_", "-")
		}
		if quote {
			v = regexp.QuoteMeta(v)
		}
		return v
	})
}

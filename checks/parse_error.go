package checks

import (
	"errors"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/source"
)

// ParseErrorAnalyzer is the parse-error check kind: it reports every file
// of the snapshot that does not parse (rule TG001), so that the silence of
// the other checks about it is not mistaken for a pass.
var ParseErrorAnalyzer = &Analyzer{
	Name:         "parse-error",
	Placeholders: []string{"op", "file", "error"},
	Doc: `parse-error reports files that do not parse.

Every other check skips a file whose syntax tree is missing; this kind makes
that visible with one finding at the syntax error's position. Message
placeholders: {file} (the path) and {error} (the parser's message).`,
	Params:      func() any { return new(parseErrorParams) },
	Run:         runParseError,
	ParseErrors: true,
}

type parseErrorParams struct {
	// TooLarge, when set, reports instead each file over the size the
	// parser reads (source.MaxFileBytes), which is not parsed.
	TooLarge bool `toml:"too-large"`
}

func runParseError(pass *Pass) (any, error) {
	for _, path := range pass.Repo.Paths {
		f := pass.Repo.Files[path]
		if f == nil || f.Err == nil {
			continue
		}
		var large *source.TooLargeError
		tooLarge := errors.As(f.Err, &large)
		pos, msg := source.ParseErrorPos(f.Err)
		for _, r := range pass.Rules {
			if p, _ := r.Params.(*parseErrorParams); (p != nil && p.TooLarge) != tooLarge {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Rule:    r,
				File:    f.Path,
				Pos:     pos,
				End:     pos,
				Message: analysis.Render(r.Message, "", map[string]string{"file": f.Path, "error": msg}),
			})
		}
	}
	return nil, nil
}

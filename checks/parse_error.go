package checks

import (
	"errors"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/source"
)

// ParseErrorAnalyzer implements kind "parse-error".
var ParseErrorAnalyzer = &Analyzer{
	Name:         "parse-error",
	Placeholders: []string{"op", "file", "error"},
	Doc: `Reports the files of the snapshot that do not parse.

Each file whose parse failed gets one finding at the syntax error's
position; with too-large, instead each file over the size the parser reads
(not parsed). Every other kind skips a file without a syntax tree; with the
ParseErrors property the driver drops every other finding in or related to
such a file and charges the parse error to the steps of their ops.
Placeholders: {file} (the path) and {error} (the parser's message).`,
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

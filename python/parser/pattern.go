package parser

import "github.com/tilegym/tilegym-lint/python/ast"

func (p *parser) looksLikeMatch() bool { return false }

func (p *parser) matchStmt() ast.Stmt { p.syntaxError(); return nil }

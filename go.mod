module github.com/tilegym/tilegym-lint

go 1.26.8

module github.com/tilegym/tilegym-lint

go 1.26.8

require github.com/google/go-cmp v0.7.0

require golang.org/x/text v0.44.0 // indirect

module github.com/tilegym/tilegym-lint

go 1.23.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/google/go-cmp v0.7.0
	golang.org/x/text v0.28.0
)

require github.com/yuin/goldmark v1.8.7

package parser

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/realtree"
)

// benchCorpus returns the directory parsed by BenchmarkParse: the TileGym
// tree (realtree.Dir), else the bundled fixtures.
func benchCorpus() string {
	if d := realtree.Dir(); d != "" {
		return d
	}
	return "../../fixtures"
}

func BenchmarkParse(b *testing.B) {
	dir := benchCorpus()
	type file struct {
		name string
		src  []byte
	}
	var files []file
	total := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !strings.HasSuffix(path, ".py") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		files = append(files, file{path, src})
		total += len(src)
		return nil
	})
	if len(files) == 0 {
		b.Skip("no .py files in " + dir)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			ParseFile(f.name, f.src)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	mb := float64(total) * float64(b.N) / 1e6
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/mb, "allocs/MB")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/mb/1e6, "allocMB/MB")
}

// fieldsSource is `x = f"{a}{a}...{a}"` with n replacement fields; parsing
// it must take time linear in n (each field once, not rescanning the string).
func fieldsSource(n int) []byte {
	return []byte(`x = f"` + strings.Repeat("{a} ", n) + "\"\n")
}

func BenchmarkFStringFields(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		src := fieldsSource(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for range b.N {
				if _, err := ParseFile("f.py", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

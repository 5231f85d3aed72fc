package load

// The reference implementations the fast paths of this package are compared
// with (export_test.go): plain scans, kept beside the tests that use them so
// production code has one algorithm per job.

// quotedNames returns the names of the related ops between double and
// single quotes: hasQuoted's reference.
func (nd *needs) quotedNames() [][]byte {
	var out [][]byte
	for name := range nd.names {
		out = append(out, []byte(`"`+name+`"`), []byte(`'`+name+`'`))
	}
	return out
}

//go:build race

package testrepo

// RaceEnabled: the tests run with the race detector, some ten times slower.
const RaceEnabled = true

//go:build race

package rules

// raceEnabled: the tests run with the race detector, some ten times slower.
const raceEnabled = true

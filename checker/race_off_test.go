//go:build !race

package checker

// raceEnabled: the tests run with the race detector, some ten times slower.
const raceEnabled = false

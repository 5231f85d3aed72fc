// Package hygiene holds no code: its tests check the repository itself
// (what git tracks), so that a fresh clone stays buildable and testable
// on any machine.
package hygiene

package checker

// CheckWhole is checkWhole for the fuzz target: a whole check, in k batches
// (1: at once).
var CheckWhole = checkWhole

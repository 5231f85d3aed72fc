//go:build !unix

package testrepo

import "time"

// CPUTime is not measured on this system.
func CPUTime() time.Duration { return 0 }

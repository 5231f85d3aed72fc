package fix

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
)

// Sum is the SHA-256 of a file's content, in hex: what Edit.Base holds.
func Sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// changedWhileRead is the base of a file read twice with different
// contents during one check: no file's Sum, so every edit of it is refused.
const changedWhileRead = "changed while the check read it"

// Reads records the content (its Sum) of each file one check reads, so that
// the edits it computes carry their files' Base. Safe for concurrent use
// (the check reads files in parallel).
type Reads struct {
	mu   sync.Mutex
	sums map[string]string
}

// Record notes that the check read data as the file name (a slash path
// relative to the root).
func (r *Reads) Record(name string, data []byte) {
	sum := Sum(data)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sums == nil {
		r.sums = map[string]string{}
	}
	if old, ok := r.sums[name]; ok && old != sum {
		sum = changedWhileRead
	}
	r.sums[name] = sum
}

// Base returns the Base of the file name as recorded, "" when the check
// did not read it.
func (r *Reads) Base(name string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sums[name]
}

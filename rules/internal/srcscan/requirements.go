package srcscan

import (
	"fmt"
	"strings"
)

// Requirements returns the requirement IDs of docs/requirements.md, in the
// order they appear. A requirement is a list item that starts with its ID in
// bold: "- **S3.1** text". An ID is a capital letter followed by digits and
// dots, ending in a digit (W1, S5.10, X.2). It is an error for an ID to be
// listed twice, or for the document to list none.
func Requirements(md []byte) ([]string, error) {
	var ids []string
	seen := map[string]int{}
	for n, line := range strings.Split(string(md), "\n") {
		rest, ok := strings.CutPrefix(line, "- **")
		if !ok {
			continue
		}
		id, _, ok := strings.Cut(rest, "**")
		if !ok || !isRequirementID(id) {
			return nil, fmt.Errorf("line %d: a list item starting in bold must start with a requirement ID such as S3.1, not %q", n+1, id)
		}
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("line %d: requirement %s listed again (first on line %d)", n+1, id, prev)
		}
		seen[id] = n + 1
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("no requirement listed (want lines such as \"- **S3.1** text\")")
	}
	return ids, nil
}

func isRequirementID(id string) bool {
	if len(id) < 2 || id[0] < 'A' || id[0] > 'Z' {
		return false
	}
	last := id[len(id)-1]
	if last < '0' || last > '9' {
		return false
	}
	for i := 1; i < len(id); i++ {
		if c := id[i]; c != '.' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

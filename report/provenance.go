package report

// Where a check's report points: the repository root the paths are
// relative to, and the revision, branch and URL a CI run records.

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/source/regfile"
)

// Provenance is what the writers need beyond the result: where the
// repository root is, relative to which their paths are written, and the
// revision and repository the check ran on (SARIF's
// versionControlProvenance, the summary's links).
type Provenance struct {
	base     Options
	rootURI  string // file: URI of the repository root, "/"-terminated
	blobURL  string // https://github.com/OWNER/REPO/blob/SHA/, or ""
	compared string
	// what versionControlProvenance says
	repoURI, revision, branch string
}

// Locate locates the repository root of the checked root: its git top
// level; outside git, the current directory when the root is below it,
// else the root itself. compared says what a change was compared with
// (the summary's words).
func Locate(root string, changeMode bool, compared string) *Provenance {
	o := &Provenance{compared: compared}
	abs, _ := filepath.Abs(root)
	repoRoot := abs
	if top, err := git.TopLevel(abs); err == nil {
		repoRoot = top
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
	} else if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
			repoRoot = wd
		}
	}
	rel, err := filepath.Rel(repoRoot, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel, repoRoot = ".", abs
	}
	o.base = Options{
		PathPrefix: PathPrefix(filepath.ToSlash(rel)),
		ChangeMode: changeMode,
		ReadFile: func(name string) ([]byte, error) {
			return regfile.Read(filepath.Join(abs, filepath.FromSlash(name)))
		},
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(repoRoot)}
	o.rootURI = strings.TrimSuffix(u.String(), "/") + "/"
	sha, err := git.Head(abs)
	if err != nil {
		return o
	}
	o.revision = sha
	o.branch, _ = git.Branch(abs)
	if b := os.Getenv("GITHUB_HEAD_REF"); b != "" {
		o.branch = b
	} else if b := os.Getenv("GITHUB_REF_NAME"); b != "" && o.branch == "" {
		o.branch = b
	}
	server, repo := os.Getenv("GITHUB_SERVER_URL"), os.Getenv("GITHUB_REPOSITORY")
	if server != "" && repo != "" {
		o.repoURI = strings.TrimSuffix(server, "/") + "/" + repo
		o.blobURL = o.repoURI + "/blob/" + sha + "/"
	} else if u, err := git.OriginURL(abs); err == nil {
		if pu, err := url.Parse(u); err == nil && pu.Scheme != "" && pu.Host != "" {
			pu.User = nil // never a credential
			o.repoURI = pu.String()
		}
	}
	return o
}

// SARIF returns the SARIF writer's options; version is the tool's.
func (o *Provenance) SARIF(version string) SARIFOptions {
	return SARIFOptions{Options: o.base, Version: version, RootURI: o.rootURI,
		RepositoryURI: o.repoURI, RevisionID: o.revision, Branch: o.branch}
}

// Annotations returns the annotation writer's options.
func (o *Provenance) Annotations(maxErrors, maxWarnings int, newOnly bool) AnnotationOptions {
	return AnnotationOptions{Options: o.base, MaxErrors: maxErrors, MaxWarnings: maxWarnings, NewOnly: newOnly}
}

// Summary returns the summary writer's options.
func (o *Provenance) Summary() SummaryOptions {
	return SummaryOptions{Options: o.base, BlobURL: o.blobURL, Compared: o.compared, MaxFindings: 50}
}

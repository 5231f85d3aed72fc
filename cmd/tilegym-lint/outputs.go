package main

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/report"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source/regfile"
)

// outputs holds what the report package's writers need beyond the result:
// where the repository root is, relative to which their paths are written.
type outputs struct {
	base     report.Options
	rootURI  string // file: URI of the repository root, "/"-terminated
	blobURL  string // https://github.com/OWNER/REPO/blob/SHA/, or ""
	compared string
	// what versionControlProvenance says
	repoURI, revision, branch string
}

// newOutputs locates the repository root of the checked root: its git top
// level; outside git, the current directory when the root is below it,
// else the root itself.
func newOutputs(root string, res *checker.Result, cat *rules.Catalog, changeMode bool, compared string) *outputs {
	o := &outputs{compared: compared}
	abs, _ := filepath.Abs(root)
	repoRoot := abs
	if top, err := git.Output(abs, "rev-parse", "--show-toplevel"); err == nil {
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
	o.base = report.Options{
		PathPrefix: report.PathPrefix(filepath.ToSlash(rel)),
		ChangeMode: changeMode,
		ReadFile: func(name string) ([]byte, error) {
			return regfile.Read(filepath.Join(abs, filepath.FromSlash(name)))
		},
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(repoRoot)}
	o.rootURI = strings.TrimSuffix(u.String(), "/") + "/"
	sha, err := git.Output(abs, "rev-parse", "--verify", "--quiet", "HEAD")
	if err != nil {
		return o
	}
	o.revision = sha
	o.branch, _ = git.Output(abs, "symbolic-ref", "--quiet", "--short", "HEAD")
	if b := os.Getenv("GITHUB_HEAD_REF"); b != "" {
		o.branch = b
	} else if b := os.Getenv("GITHUB_REF_NAME"); b != "" && o.branch == "" {
		o.branch = b
	}
	server, repo := os.Getenv("GITHUB_SERVER_URL"), os.Getenv("GITHUB_REPOSITORY")
	if server != "" && repo != "" {
		o.repoURI = strings.TrimSuffix(server, "/") + "/" + repo
		o.blobURL = o.repoURI + "/blob/" + sha + "/"
	} else if u, err := git.Output(abs, "remote", "get-url", "origin"); err == nil {
		if pu, err := url.Parse(u); err == nil && pu.Scheme != "" && pu.Host != "" {
			pu.User = nil // never a credential
			o.repoURI = pu.String()
		}
	}
	return o
}

func (o *outputs) sarif() report.SARIFOptions {
	return report.SARIFOptions{Options: o.base, Version: moduleVersion(), RootURI: o.rootURI,
		RepositoryURI: o.repoURI, RevisionID: o.revision, Branch: o.branch}
}

func (o *outputs) annotations(maxErrors, maxWarnings int, newOnly bool) report.AnnotationOptions {
	return report.AnnotationOptions{Options: o.base, MaxErrors: maxErrors, MaxWarnings: maxWarnings, NewOnly: newOnly}
}

func (o *outputs) summaryOptions() report.SummaryOptions {
	return report.SummaryOptions{Options: o.base, BlobURL: o.blobURL, Compared: o.compared, MaxFindings: 50}
}

// writeFile writes the file name through a buffer. A report file may
// name a path of the checked repository, which a pull request writes: a
// symbolic link committed there must not make the tool write where it
// points. So a new file is written to a temporary file in the same
// directory and renamed over name (replacing a link, never following it);
// appending (a job summary collects every step's) is refused when name is
// a symbolic link or not a regular file.
func writeFile(name string, appendTo bool, write func(io.Writer) error) error {
	if appendTo {
		return appendFile(name, write)
	}
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close() // a second Close after a failed rename: harmless
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriter(tmp)
	if err := write(w); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	renamed = true
	return nil
}

// appendFile appends to the regular file name (created if missing).
func appendFile(name string, write func(io.Writer) error) error {
	if fi, err := os.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		what := "not a regular file"
		if fi.Mode()&os.ModeSymlink != 0 {
			what = "a symbolic link"
		}
		return fmt.Errorf("%s is %s; name a regular file to append the summary to", name, what)
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = write(w)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

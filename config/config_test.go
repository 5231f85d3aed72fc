package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Discovery stops at the repository's top (the directory holding .git):
// a configuration above it is not the checkout's.
func TestFindStopsAtRepositoryTop(t *testing.T) {
	outer := t.TempDir()
	write(t, filepath.Join(outer, "tilegym-lint.toml"), "disable = [\"TG104\"]\n")
	repo := filepath.Join(outer, "repo")
	write(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	sub := filepath.Join(repo, "src", "tilegym")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := Find(sub); err != nil || p != "" {
		t.Errorf("Find(%s) = %q, %v; want none (the file above the repository is not its)", sub, p, err)
	}
	write(t, filepath.Join(repo, "tilegym-lint.toml"), "disable = []\n")
	if p, err := Find(sub); err != nil || p != filepath.Join(repo, "tilegym-lint.toml") {
		t.Errorf("Find(%s) = %q, %v; want the repository's", sub, p, err)
	}
	// Outside a git work tree, only the directory itself.
	plain := filepath.Join(outer, "plain", "x")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := Find(plain); err != nil || p != "" {
		t.Errorf("Find(%s) = %q, %v; want none", plain, p, err)
	}
}

// A configuration file linked to a file outside the repository is not
// read, and the error names neither the target nor its content; a link
// inside the repository is read.
func TestFindRefusesSymlinkOutOfRepository(t *testing.T) {
	outer := t.TempDir()
	secret := filepath.Join(outer, "environ")
	write(t, secret, "SECRET_TOKEN=hunter2\n")
	repo := filepath.Join(outer, "repo")
	write(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	link := filepath.Join(repo, "tilegym-lint.toml")
	if err := os.Symlink(secret, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	p, err := Find(repo)
	if err == nil || !strings.Contains(err.Error(), "outside the repository") {
		t.Fatalf("Find = %q, %v; want an error", p, err)
	}
	if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "environ") {
		t.Errorf("the error shows the target: %v", err)
	}
	os.Remove(link)
	write(t, filepath.Join(repo, "conf", "lint.toml"), "disable = []\n")
	if err := os.Symlink(filepath.Join("conf", "lint.toml"), link); err != nil {
		t.Fatal(err)
	}
	if p, err := Find(repo); err != nil || p != link {
		t.Errorf("Find = %q, %v; want the link inside the repository", p, err)
	}
}

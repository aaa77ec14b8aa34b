package mcpserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Root is the workspace root: the one directory tree a client may read
// decks and recipes from and write decks and reports to.
type Root struct {
	dir string // absolute, symbolic links resolved
}

// NewRoot makes a Root of dir, which must be an existing directory; it is
// made absolute and its symbolic links are resolved.
func NewRoot(dir string) (Root, error) {
	if dir == "" {
		return Root{}, errors.New("workspace root: empty; give a directory (--root DIR)")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Root{}, fmt.Errorf("workspace root %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return Root{}, fmt.Errorf("workspace root %s: %w; give an existing directory", dir, err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return Root{}, fmt.Errorf("workspace root %s: %w", dir, err)
	}
	if !st.IsDir() {
		return Root{}, fmt.Errorf("workspace root %s is not a directory; give a directory", dir)
	}
	return Root{dir: real}, nil
}

// Dir is the root's absolute path with its symbolic links resolved.
func (r Root) Dir() string { return r.dir }

// OutsideRootError is a path that does not resolve inside the workspace
// root.
type OutsideRootError struct {
	Path     string // as the client gave it
	Resolved string // where it leads, symbolic links resolved
	Root     string
}

func (e *OutsideRootError) Error() string {
	return fmt.Sprintf("path %q resolves to %s, outside the workspace root %s: give a path inside the root (a relative path is taken from the root; symbolic links are followed)", e.Path, e.Resolved, e.Root)
}

// Resolve returns where path leads: a relative path is taken from the
// root; the deepest ancestor of it that exists has its symbolic links
// resolved (filepath.EvalSymlinks), the rest is appended. The result must
// be the root or lie under it, else the error is an *OutsideRootError
// naming the path and the root. The caller reads and writes the returned
// path, never the one given, so a link swapped in later is not followed
// past the check of its parent (writes go through outfile, which never
// writes through a link).
func (r Root) Resolve(path string) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", fmt.Errorf("path is empty: give a file inside the workspace root %s", r.dir)
	}
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(r.dir, full)
	}
	full = filepath.Clean(full)
	existing, rest := full, []string(nil)
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = append([]string{filepath.Base(existing)}, rest...)
		existing = parent
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return "", fmt.Errorf("path %q: %w (a symbolic link whose target is missing?); give a path inside the workspace root %s", path, err, r.dir)
	}
	resolved := filepath.Join(append([]string{real}, rest...)...)
	if !r.contains(resolved) {
		return "", &OutsideRootError{Path: path, Resolved: resolved, Root: r.dir}
	}
	return resolved, nil
}

// contains reports whether p (absolute, clean) is the root or under it.
func (r Root) contains(p string) bool {
	if p == r.dir {
		return true
	}
	prefix := r.dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return strings.HasPrefix(p, prefix)
}

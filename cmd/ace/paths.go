package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/outfile"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// writableDeckExt reports whether a deck can be written under name: the
// rule of deckio.Encode (.pptx or .json, any case; Figma JSON is import
// only).
func writableDeckExt(name string) bool {
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".figma.json") {
		return false
	}
	switch filepath.Ext(lower) {
	case ".pptx", ".json":
		return true
	}
	return false
}

// sameFile reports whether a and b name one file: equal after making them
// absolute and clean (also when neither exists yet), or os.SameFile on
// what they resolve to (symlinks, hard links, "./x" and "x").
func sameFile(a, b string) bool {
	aa, errA := filepath.Abs(a)
	bb, errB := filepath.Abs(b)
	if errA == nil && errB == nil && aa == bb {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// checkDeckOutput vets an output deck path before any work is done, so a
// bad path is bad input (exit 2) naming the target, not a failure after
// the edit. verb prefixes the message ("edit", "convert"), flag names the
// option the path came from ("-o", "OUT"). Checks, in order: the output is
// not the input (never, even with --force: ACE does not modify the
// original), the extension is one ACE writes, an existing output needs
// force and must not be a directory, a symbolic link needs force (which
// replaces the link, never its target), and the nearest existing ancestor is
// a directory in which a file can be created (probed with a temporary
// file, removed at once).
func checkDeckOutput(verb, flag, in, out string, force bool) error {
	if sameFile(in, out) {
		return badInput(fmt.Errorf("%s: %s %s is the input deck: ACE never modifies the original (not even with --force); choose another output path", verb, flag, out))
	}
	if !writableDeckExt(out) {
		return badInput(fmt.Errorf("%s: %s %s: can only write .pptx or an ACE scene-graph .json; give an output path ending in .pptx or .json", verb, flag, out))
	}
	if err := outfile.CheckLink(out); err != nil && !force {
		// Also a dangling link: Save would replace it, never write its
		// target, but only with --force.
		return badInput(fmt.Errorf("%s: %s %w", verb, flag, err))
	}
	if st, err := os.Stat(out); err == nil {
		if st.IsDir() {
			return badInput(fmt.Errorf("%s: %s %s is a directory; give a file path ending in .pptx or .json", verb, flag, out))
		}
		if !force {
			return badInput(fmt.Errorf("%s: %s %s exists: pass another path or --force to replace it", verb, flag, out))
		}
	}
	if err := checkCreatable(out); err != nil {
		return badInput(fmt.Errorf("%s: %s %s: %w", verb, flag, out, err))
	}
	return nil
}

// checkSideOutputs vets the files an edit writes besides the deck (flag ->
// path; empty paths are skipped) before any work: none may be the input
// deck, the recipe, the output deck or another side output, and each must
// be creatable (a missing directory is made when written). Bad input (exit
// 2) names the flag and the path.
func checkSideOutputs(in, out, recipe string, side map[string]string) error {
	flags := make([]string, 0, len(side))
	for flag, p := range side {
		if p != "" {
			flags = append(flags, flag)
		}
	}
	sort.Strings(flags)
	for i, flag := range flags {
		p := side[flag]
		for _, other := range []struct{ what, path string }{{"the input deck", in}, {"the output deck -o", out}, {"the recipe", recipe}} {
			if other.path != "" && sameFile(p, other.path) {
				return badInput(fmt.Errorf("edit: %s %s is %s; give it a path of its own", flag, p, other.what))
			}
		}
		for _, g := range flags[i+1:] {
			if sameFile(p, side[g]) {
				return badInput(fmt.Errorf("edit: %s and %s are both %s; give each a path of its own", flag, g, p))
			}
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return badInput(fmt.Errorf("edit: %s %s is a directory; give a file path", flag, p))
		}
		if err := checkCreatable(p); err != nil {
			return badInput(fmt.Errorf("edit: %s %s: %w", flag, p, err))
		}
	}
	return nil
}

// checkCreatable reports why path's directory could not be created or
// written: an ancestor that is a regular file, or a directory that refuses
// a new file (permissions, a read-only or virtual file system like /proc).
func checkCreatable(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(abs)
	for {
		st, err := os.Stat(dir)
		if err == nil {
			if !st.IsDir() {
				return fmt.Errorf("%s is a file, not a directory; choose an output path in a directory", dir)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot use directory %s: %v", dir, errors.Unwrap(err))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	f, err := os.CreateTemp(dir, ".ace-probe-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot create files in %s (%v); choose a writable directory", dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// loadDeck reads a deck through deckio for command verb. Errors are bad
// input naming the file once: deckio and the importers each prefix the
// name, so their prefixes are folded into one ("edit: deck.pptx: not a
// .pptx file: ..."), and an empty file says so.
func loadDeck(verb, path string) (*scenegraph.Deck, scenegraph.Blobs, error) {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() == 0 {
		return nil, nil, badInput(fmt.Errorf("%s: %s is empty (0 bytes): give a .pptx, an ACE scene-graph .json or a Figma REST .json deck", verb, path))
	}
	d, blobs, err := deckio.Load(path)
	if err != nil {
		return nil, nil, badInput(fmt.Errorf("%s: %w", verb, deckError(path, err)))
	}
	warnMissingAssets(verb, path, d, blobs)
	return d, blobs, nil
}

// warnMissingAssets says on stderr when a scene-graph deck's pictures are
// not at hand (a .json copied without its .assets folder).
func warnMissingAssets(verb, path string, d *scenegraph.Deck, assets scenegraph.AssetSource) {
	if n := len(deckio.MissingAssets(d, assets)); n > 0 {
		fmt.Fprintf(os.Stderr, "%s: warning: %s names %d picture(s) not found in %s; they are drawn as placeholders and a .pptx export fails: keep the .assets folder beside the .json\n",
			verb, path, n, deckio.AssetsDir(path))
	}
}

// namedError is an error whose message names its file once.
type namedError struct {
	path, msg string
	err       error
}

func (e *namedError) Error() string { return e.path + ": " + e.msg }
func (e *namedError) Unwrap() error { return e.err }

// deckError rewrites a deck-reading error to "PATH: reason": it drops the
// prefixes deckio ("read deck: ", "import PATH: ", "read PATH: ") and the
// importers ("BASE: ", "PATH: ") add, and an os.PathError on path becomes
// its bare reason.
func deckError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return &namedError{path: path, msg: pe.Err.Error(), err: err}
	}
	msg := err.Error()
	prefixes := []string{"read deck: ", "import " + path + ": ", "read " + path + ": ", path + ": ", filepath.Base(path) + ": "}
	for changed := true; changed; {
		changed = false
		for _, p := range prefixes {
			if strings.HasPrefix(msg, p) {
				msg, changed = msg[len(p):], true
			}
		}
	}
	return &namedError{path: path, msg: msg, err: err}
}

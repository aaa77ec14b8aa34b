// Package outfile writes the files ACE produces (edited decks, summaries,
// report pages) so that a reader never sees half a file and nothing is
// written through a symbolic link: an output path that is a link is
// refused, or, when the caller allows it (--force), the link itself is
// replaced by the new file while its target is left as it was.
package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// LinkError is an output path that is a symbolic link. Writing through it
// would change Target, a file the user did not name as an output.
type LinkError struct {
	Path   string // the output path
	Target string // what the link points to, as stored in the link
}

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is a symbolic link (to %s): ACE never writes through a link; remove it, choose another output, or pass --force to replace the link itself (its target is left as it is)", e.Path, e.Target)
}

// CheckLink returns a *LinkError when path exists and is a symbolic link,
// nil when it is anything else or does not exist.
func CheckLink(path string) error {
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	target, _ := os.Readlink(path)
	return &LinkError{Path: path, Target: target}
}

// Write writes data to path through a temporary file in the same directory
// renamed over path, so path holds either its old content or all of data.
// Missing parent directories are created. A new file gets mode 0644; a
// replaced regular file keeps its mode. When path is a symbolic link Write
// returns a *LinkError unless replaceLink is set, in which case the rename
// replaces the link itself (rename(2) never follows a link at its
// destination), never the file it points to.
func Write(path string, data []byte, replaceLink bool) error {
	mode := os.FileMode(0o644)
	if st, err := os.Lstat(path); err == nil {
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			if !replaceLink {
				return CheckLink(path)
			}
		case st.IsDir():
			return fmt.Errorf("%s is a directory; give a file path", path)
		default:
			mode = st.Mode().Perm()
		}
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".ace-*"+filepath.Ext(path))
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		var pe *fs.PathError
		var le *os.LinkError
		switch {
		case errors.As(werr, &pe):
			werr = pe.Err
		case errors.As(werr, &le):
			werr = le.Err
		}
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}

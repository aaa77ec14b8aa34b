package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// FS stores blobs as files dir/ab/abcdef... (the first two hex digits fan
// out the directory). Writes go to a temporary file that is renamed into
// place, so a crash never leaves a partial blob under a valid ref.
type FS struct {
	dir string
}

// NewFS opens (creating) a store rooted at dir.
func NewFS(dir string) (*FS, error) {
	if dir == "" {
		return nil, errors.New("store: empty directory; set ACE_DATA_DIR")
	}
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o700); err != nil {
		return nil, fmt.Errorf("store: create %s: %w", dir, err)
	}
	return &FS{dir: dir}, nil
}

func (s *FS) path(ref string) string { return filepath.Join(s.dir, ref[:2], ref) }

// Put implements Store.
func (s *FS) Put(ctx context.Context, data []byte) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	ref := scenegraph.HashBytes(data)
	p := s.path(ref)
	if _, err := os.Stat(p); err == nil {
		return ref, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return "", fmt.Errorf("store: %w", err)
	}
	f, err := os.CreateTemp(filepath.Join(s.dir, "tmp"), ref[:8]+"-*")
	if err != nil {
		return "", fmt.Errorf("store: %w", err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(0o600) // the owner only: objects hold confidential decks
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, p)
	}
	if werr != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("store: write %s: %w", ref, werr)
	}
	return ref, nil
}

// Get implements Store.
func (s *FS) Get(ctx context.Context, ref string) ([]byte, error) {
	if err := checkRef(ref); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.path(ref))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s in %s", ErrNotFound, ref, s.dir)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if err := verify(ref, data); err != nil {
		return nil, err
	}
	return data, nil
}

// Has implements Store.
func (s *FS) Has(ctx context.Context, ref string) (bool, error) {
	if err := checkRef(ref); err != nil {
		return false, err
	}
	_, err := os.Stat(s.path(ref))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

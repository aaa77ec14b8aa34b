package skills

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// dirObjects keeps each key as a file under a folder: key "skill/x/v2" is
// DIR/skill/x/v2. Folders are made 0700 and files 0600 (the bank holds
// users' instructions).
type dirObjects struct{ dir string }

// DirObjects is the embedded bank's backend: files under dir (by default
// $ACE_DATA_DIR/skills), made on first write. Put writes a temporary file
// and renames it over the key, so a reader sees the old bytes or the new,
// never a part. Create writes a temporary file and hard-links it to the
// key, which the file system refuses when the key exists: of concurrent
// creators exactly one wins, on one machine or over a shared folder
// whose file system honours link(2).
func DirObjects(dir string) Objects { return dirObjects{dir: dir} }

func (d dirObjects) path(key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	return filepath.Join(d.dir, filepath.FromSlash(key)), nil
}

// Get implements Objects.
func (d dirObjects) Get(ctx context.Context, key string) ([]byte, error) {
	p, err := d.path(key)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s in %s", ErrNotFound, key, d.dir)
	}
	if err != nil {
		return nil, fmt.Errorf("skills: read %s: %w", p, err)
	}
	return data, nil
}

// temp writes data to a new temporary file beside p and returns its
// path; temporary names start with "." so they are never keys.
func (d dirObjects) temp(p string, data []byte) (string, error) {
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("skills: make folder %s: %w (is the bank folder writable? see --bank / ACE_DATA_DIR)", dir, err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return "", fmt.Errorf("skills: write in %s: %w", dir, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o600)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("skills: write %s: %w", f.Name(), err)
	}
	return f.Name(), nil
}

// Put implements Objects.
func (d dirObjects) Put(ctx context.Context, key string, data []byte) error {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	tmp, err := d.temp(p, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("skills: put %s: %w", key, err)
	}
	return nil
}

// Create implements Objects.
func (d dirObjects) Create(ctx context.Context, key string, data []byte) error {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	tmp, err := d.temp(p, data)
	if err != nil {
		return err
	}
	err = os.Link(tmp, p)
	os.Remove(tmp)
	if err == nil {
		return nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("skills: create %s: %w", key, err)
	}
	have, rerr := os.ReadFile(p)
	if rerr != nil {
		return fmt.Errorf("skills: create %s: it exists but cannot be read: %w", key, rerr)
	}
	if bytes.Equal(have, data) {
		return nil
	}
	return fmt.Errorf("%w: %s in %s holds other bytes", ErrExists, key, d.dir)
}

// List implements Objects: it walks only the folder of prefix's last
// "/" and skips anything that is not a key (temporary files).
func (d dirObjects) List(ctx context.Context, prefix string) ([]string, error) {
	base := ""
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		base = prefix[:i]
	}
	root := d.dir
	if base != "" {
		if !ValidKey(base) {
			return nil, nil // no key can start with it
		}
		root = filepath.Join(d.dir, filepath.FromSlash(base))
	}
	var keys []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if e.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(d.dir, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if ValidKey(key) && strings.HasPrefix(key, prefix) {
			keys = append(keys, key)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("skills: list %q in %s: %w", prefix, d.dir, err)
	}
	slices.Sort(keys)
	return keys, nil
}

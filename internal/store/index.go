package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/acecanvas/ace/internal/cache"
)

// Index maps a derived key to the ref of a blob computed from what the key
// names: a render of a slide, keyed by the SHA-256 of the slide's markup,
// size, scale and the renderer build (render.Options.Pictures). The blob
// itself stays content-addressed (Put); only the key → ref pointer is
// mutable, and a key always names the same computation, so a pointer set
// twice points at equal bytes. Keys are 64 lowercase hex characters (a
// SHA-256, as ValidRef checks). FS, Memory and NATS implement it.
type Index interface {
	// SetIndex points key at ref (which must be stored).
	SetIndex(ctx context.Context, key, ref string) error
	// Lookup returns the ref key points at; the error wraps ErrNotFound
	// when key was never set.
	Lookup(ctx context.Context, key string) (string, error)
}

// indexDir is where FS keeps its index, one file per key holding the ref.
const indexDir = "index"

// SetIndex implements Index: dir/index/ab/KEY holds the ref, written to a
// temporary file and renamed into place.
func (s *FS) SetIndex(ctx context.Context, key, ref string) error {
	if err := checkRef(key); err != nil {
		return err
	}
	if err := checkRef(ref); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	p := filepath.Join(s.dir, indexDir, key[:2], key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	f, err := os.CreateTemp(filepath.Join(s.dir, "tmp"), "index-*")
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	_, werr := f.WriteString(ref)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("store: index %s: %w", key, werr)
	}
	return nil
}

// Lookup implements Index.
func (s *FS) Lookup(ctx context.Context, key string) (string, error) {
	if err := checkRef(key); err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(s.dir, indexDir, key[:2], key))
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w: index key %s in %s", ErrNotFound, key, s.dir)
	}
	if err != nil {
		return "", fmt.Errorf("store: %w", err)
	}
	return validIndexRef(key, string(b))
}

// SetIndex implements Index.
func (m *Memory) SetIndex(_ context.Context, key, ref string) error {
	if err := checkRef(key); err != nil {
		return err
	}
	if err := checkRef(ref); err != nil {
		return err
	}
	m.mu.Lock()
	if m.index == nil {
		m.index = map[string]string{}
	}
	m.index[key] = ref
	m.mu.Unlock()
	return nil
}

// Lookup implements Index.
func (m *Memory) Lookup(_ context.Context, key string) (string, error) {
	if err := checkRef(key); err != nil {
		return "", err
	}
	m.mu.RLock()
	ref, ok := m.index[key]
	m.mu.RUnlock()
	if !ok {
		return "", fmt.Errorf("%w: index key %s", ErrNotFound, key)
	}
	return ref, nil
}

// natsIndexPrefix names index objects in the bucket ("index/KEY", never a
// ref: refs are bare hex).
const natsIndexPrefix = "index/"

// SetIndex implements Index: the object index/KEY holds the ref.
func (s *NATS) SetIndex(ctx context.Context, key, ref string) error {
	if err := checkRef(key); err != nil {
		return err
	}
	if err := checkRef(ref); err != nil {
		return err
	}
	if _, err := s.obs.PutBytes(ctx, natsIndexPrefix+key, []byte(ref)); err != nil {
		return fmt.Errorf("store: index %s in %s: %w", key, s.bucket, err)
	}
	return nil
}

// Lookup implements Index.
func (s *NATS) Lookup(ctx context.Context, key string) (string, error) {
	if err := checkRef(key); err != nil {
		return "", err
	}
	b, err := s.obs.GetBytes(ctx, natsIndexPrefix+key)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return "", fmt.Errorf("%w: index key %s in bucket %s", ErrNotFound, key, s.bucket)
	}
	if err != nil {
		return "", fmt.Errorf("store: index %s in %s: %w", key, s.bucket, err)
	}
	return validIndexRef(key, string(b))
}

func validIndexRef(key, ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	if !ValidRef(ref) {
		return "", fmt.Errorf("store: index key %s holds %q, not a ref", key, ref)
	}
	return ref, nil
}

// Memo is a cache.Cache kept in s: a value is stored as a blob (Put) and
// its key, hashed to SHA-256, is pointed at it (Index). Entries do not
// expire (a key names one computation, so its value never goes stale;
// the ttl is ignored) and are shared by every process that reads s: the
// batch report reads the pictures the workflows' render steps made. It
// returns nil when s keeps no index. A store failure is a miss or a
// dropped write (counted in Stats.Errors), never an error.
func Memo(s Store) cache.Cache {
	ix, ok := s.(Index)
	if !ok {
		return nil
	}
	return &memo{s: s, ix: ix}
}

type memo struct {
	s                          Store
	ix                         Index
	hits, misses, sets, errors atomic.Int64
}

func memoKey(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

func (m *memo) Get(ctx context.Context, key string) ([]byte, bool) {
	ref, err := m.ix.Lookup(ctx, memoKey(key))
	if err == nil {
		var b []byte
		if b, err = m.s.Get(ctx, ref); err == nil {
			m.hits.Add(1)
			return b, true
		}
	}
	if !errors.Is(err, ErrNotFound) {
		m.errors.Add(1)
	}
	m.misses.Add(1)
	return nil, false
}

func (m *memo) Set(ctx context.Context, key string, val []byte, _ time.Duration) {
	ref, err := m.s.Put(ctx, val)
	if err == nil {
		err = m.ix.SetIndex(ctx, memoKey(key), ref)
	}
	if err != nil {
		m.errors.Add(1)
		return
	}
	m.sets.Add(1)
}

func (m *memo) Stats() cache.Stats {
	return cache.Stats{Backend: "store", Hits: m.hits.Load(), Misses: m.misses.Load(), Sets: m.sets.Load(), Errors: m.errors.Load()}
}

func (m *memo) Close() error { return nil }

// Package store is ACE's content-addressed blob store: snapshots (canonical
// deck JSON), original files and assets are stored under the lowercase hex
// SHA-256 of their bytes. Put is idempotent (the same bytes give the same ref
// and a retry writes nothing new), which is what makes every workflow
// activity safe to retry (DESIGN.md §4).
//
// Two implementations: FS, a directory tree under ACE_DATA_DIR, and NATS, a
// JetStream Object Store bucket shared by every worker of a cluster (and by
// the embedded nats-server of the default stack).
package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// ErrNotFound is returned (wrapped) by Get when no blob has the ref.
var ErrNotFound = errors.New("blob not found")

// Store holds blobs by content address. Implementations are safe for
// concurrent use.
type Store interface {
	// Put stores data and returns its ref (64 hex characters).
	Put(ctx context.Context, data []byte) (string, error)
	// Get returns the bytes of ref; the error wraps ErrNotFound when absent,
	// and reports corruption when the bytes no longer hash to ref.
	Get(ctx context.Context, ref string) ([]byte, error)
	// Has reports whether ref is stored.
	Has(ctx context.Context, ref string) (bool, error)
}

// ValidRef reports whether ref looks like a store ref.
func ValidRef(ref string) bool {
	if len(ref) != 64 {
		return false
	}
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func checkRef(ref string) error {
	if !ValidRef(ref) {
		return fmt.Errorf("bad blob ref %q: want 64 lowercase hex characters (a SHA-256)", ref)
	}
	return nil
}

func verify(ref string, data []byte) error {
	if got := scenegraph.HashBytes(data); got != ref {
		return fmt.Errorf("blob %s is corrupt: its bytes hash to %s", ref, got)
	}
	return nil
}

// PutDeck stores the deck's canonical JSON and returns the snapshot ref,
// which equals scenegraph.Hash(d).
func PutDeck(ctx context.Context, s Store, d *scenegraph.Deck) (string, error) {
	b, err := scenegraph.Encode(d)
	if err != nil {
		return "", err
	}
	return s.Put(ctx, b)
}

// GetDeck loads and validates the snapshot ref.
func GetDeck(ctx context.Context, s Store, ref string) (*scenegraph.Deck, error) {
	b, err := s.Get(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", ref, err)
	}
	d, err := scenegraph.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", ref, err)
	}
	return d, nil
}

// PutBlobs stores every blob (e.g. what an importer returned).
func PutBlobs(ctx context.Context, s Store, blobs scenegraph.Blobs) error {
	for ref, data := range blobs {
		got, err := s.Put(ctx, data)
		if err != nil {
			return err
		}
		if got != ref {
			return fmt.Errorf("blob keyed %s hashes to %s: the importer mislabelled it", ref, got)
		}
	}
	return nil
}

// Assets adapts a Store to scenegraph.AssetSource for the renderer and
// exporters.
func Assets(ctx context.Context, s Store) scenegraph.AssetSource { return assetSource{ctx, s} }

type assetSource struct {
	ctx context.Context
	s   Store
}

func (a assetSource) AssetBytes(ref string) ([]byte, error) { return a.s.Get(a.ctx, ref) }

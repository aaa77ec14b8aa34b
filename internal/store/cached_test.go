package store

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// countingStore counts the reads that reach the store under a cache.
type countingStore struct {
	*Memory
	gets atomic.Int64
}

func (c *countingStore) Get(ctx context.Context, ref string) ([]byte, error) {
	c.gets.Add(1)
	return c.Memory.Get(ctx, ref)
}

// A blob is read from the store once, then from the cache; a written
// blob is cached as written; the bound drops the least recently used; a
// missing ref stays the store's error; the index passes through.
func TestCachedReadsEachBlobOnce(t *testing.T) {
	ctx := context.Background()
	base := &countingStore{Memory: NewMemory()}
	ref, err := base.Memory.Put(ctx, []byte("a picture of slide 3"))
	if err != nil {
		t.Fatal(err)
	}
	c := Cached(base, 100)
	for range 3 {
		b, err := c.Get(ctx, ref)
		if err != nil || string(b) != "a picture of slide 3" {
			t.Fatalf("Get: %q, %v", b, err)
		}
	}
	if n := base.gets.Load(); n != 1 {
		t.Fatalf("three reads reached the store %d times, want 1", n)
	}
	written, err := c.Put(ctx, []byte("a snapshot"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, written); err != nil || base.gets.Load() != 1 {
		t.Fatalf("a blob just written was read from the store (%d reads, %v)", base.gets.Load(), err)
	}
	if ok, err := c.Has(ctx, written); !ok || err != nil {
		t.Fatalf("Has of a cached blob: %v, %v", ok, err)
	}
	// 100 bytes hold one of these entries (64-byte ref and value) at a time: the
	// first blob was dropped and is read again.
	if _, err := c.Get(ctx, ref); err != nil || base.gets.Load() != 2 {
		t.Fatalf("past the bound: %d reads, want 2 (%v)", base.gets.Load(), err)
	}
	missing := "0000000000000000000000000000000000000000000000000000000000000000"
	if _, err := c.Get(ctx, missing); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a missing ref: %v, want ErrNotFound", err)
	}
	ix, ok := c.(Index)
	if !ok {
		t.Fatal("Cached over an Index store is not an Index")
	}
	if err := ix.SetIndex(ctx, missing, written); err != nil {
		t.Fatal(err)
	}
	if got, err := base.Memory.Lookup(ctx, missing); err != nil || got != written {
		t.Fatalf("the index was not the store's: %q, %v", got, err)
	}
}

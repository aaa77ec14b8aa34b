package store

import (
	"context"
	"time"

	"github.com/acecanvas/ace/internal/cache"
)

// Cached returns s with a bounded in-process read cache of its blobs (at
// most maxBytes of them, least recently used dropped first; 0 means
// DefaultCacheBytes). A blob never changes under its ref, so a cached blob
// is never stale: a worker that renders, diffs and judges the same
// snapshot and its pictures reads each from s once (a NATS Object Store
// read is a network round trip per chunk, then a SHA-256 check) rather
// than once per slide and per activity. Put writes through and keeps the
// blob (what a step stores, the next step reads). The result implements
// Index when s does (the pointers are not cached: they may be set by
// another process at any time). Errors are s's own; a miss is a read of s.
func Cached(s Store, maxBytes int64) Store {
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	c := &cached{s: s, lru: cache.NewLRU(1<<20, maxBytes)}
	if ix, ok := s.(Index); ok {
		return &cachedIndex{cached: c, ix: ix}
	}
	return c
}

// DefaultCacheBytes bounds Cached's blobs when no bound is given: 256 MiB.
const DefaultCacheBytes = 256 << 20

// cacheTTL is how long a blob stays cached when nothing evicts it first;
// content-addressed bytes never go stale, so only the bound matters.
const cacheTTL = 7 * 24 * time.Hour

type cached struct {
	s   Store
	lru *cache.LRU
}

// Put implements Store.
func (c *cached) Put(ctx context.Context, data []byte) (string, error) {
	ref, err := c.s.Put(ctx, data)
	if err == nil {
		c.lru.Set(ctx, ref, data, cacheTTL)
	}
	return ref, err
}

// Get implements Store.
func (c *cached) Get(ctx context.Context, ref string) ([]byte, error) {
	if b, ok := c.lru.Get(ctx, ref); ok {
		return b, nil
	}
	b, err := c.s.Get(ctx, ref)
	if err == nil {
		c.lru.Set(ctx, ref, b, cacheTTL)
	}
	return b, err
}

// Has implements Store.
func (c *cached) Has(ctx context.Context, ref string) (bool, error) {
	if c.lru.Has(ref) {
		return true, nil
	}
	return c.s.Has(ctx, ref)
}

type cachedIndex struct {
	*cached
	ix Index
}

// SetIndex implements Index.
func (c *cachedIndex) SetIndex(ctx context.Context, key, ref string) error {
	return c.ix.SetIndex(ctx, key, ref)
}

// Lookup implements Index.
func (c *cachedIndex) Lookup(ctx context.Context, key string) (string, error) {
	return c.ix.Lookup(ctx, key)
}

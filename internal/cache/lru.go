package cache

import (
	"container/list"
	"context"
	"sync"
	"time"
)

// Defaults of the in-process cache: enough for every routing decision and
// context of a large batch on one worker.
const (
	DefaultEntries  = 4096
	DefaultMaxBytes = 256 << 20
)

// LRU is the in-process cache: least recently used entries are evicted
// past maxEntries or maxBytes, expired entries on access.
type LRU struct {
	mu         sync.Mutex
	ll         *list.List // front = most recent
	items      map[string]*list.Element
	maxEntries int
	maxBytes   int64
	bytes      int64
	now        func() time.Time
	counters
}

type lruEntry struct {
	key     string
	val     []byte
	expires time.Time
}

// NewLRU returns an in-process cache bounded by entries and bytes (values
// plus keys); a bound <= 0 means the default.
func NewLRU(maxEntries int, maxBytes int64) *LRU {
	if maxEntries <= 0 {
		maxEntries = DefaultEntries
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	return &LRU{ll: list.New(), items: map[string]*list.Element{}, maxEntries: maxEntries, maxBytes: maxBytes, now: time.Now}
}

// Get implements Cache.
func (l *LRU) Get(_ context.Context, key string) ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	el, ok := l.items[key]
	if !ok {
		l.misses.Add(1)
		return nil, false
	}
	e := el.Value.(*lruEntry)
	if !l.now().Before(e.expires) {
		l.remove(el)
		l.misses.Add(1)
		return nil, false
	}
	l.ll.MoveToFront(el)
	l.hits.Add(1)
	return append([]byte(nil), e.val...), true
}

// Set implements Cache. A value larger than the byte bound is not stored.
func (l *LRU) Set(_ context.Context, key string, val []byte, ttl time.Duration) {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	size := int64(len(key) + len(val))
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sets.Add(1)
	if el, ok := l.items[key]; ok {
		l.remove(el)
	}
	if size > l.maxBytes {
		return
	}
	e := &lruEntry{key: key, val: append([]byte(nil), val...), expires: l.now().Add(ttl)}
	l.items[key] = l.ll.PushFront(e)
	l.bytes += size
	for l.ll.Len() > l.maxEntries || l.bytes > l.maxBytes {
		l.remove(l.ll.Back())
	}
}

func (l *LRU) remove(el *list.Element) {
	e := el.Value.(*lruEntry)
	l.ll.Remove(el)
	delete(l.items, e.key)
	l.bytes -= int64(len(e.key) + len(e.val))
}

// Has reports whether key holds an unexpired value, without counting a
// hit or a miss and without touching its recency.
func (l *LRU) Has(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	el, ok := l.items[key]
	return ok && l.now().Before(el.Value.(*lruEntry).expires)
}

// Len is the number of entries held (expired ones included until touched).
func (l *LRU) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ll.Len()
}

// Stats implements Cache.
func (l *LRU) Stats() Stats { return l.counters.stats("memory") }

// Close implements Cache.
func (l *LRU) Close() error { return nil }

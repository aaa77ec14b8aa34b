package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync/atomic"
	"time"
)

// Cache stores byte values under string keys with a time to live.
// Implementations are safe for concurrent use.
type Cache interface {
	// Get returns the value and true on a hit; a miss, an expired entry
	// and a backend failure are all (nil, false).
	Get(ctx context.Context, key string) ([]byte, bool)
	// Set stores the value for ttl (0 = DefaultTTL). A backend failure
	// drops the write silently (it is counted in Stats).
	Set(ctx context.Context, key string, val []byte, ttl time.Duration)
	// Stats reports hits, misses, writes and backend errors so far.
	Stats() Stats
	// Close releases connections.
	Close() error
}

// Stats counts cache traffic.
type Stats struct {
	Backend   string `json:"backend"` // "redis" | "memory"
	Hits      int64  `json:"hits"`
	Misses    int64  `json:"misses"`
	Sets      int64  `json:"sets"`
	Errors    int64  `json:"errors"` // backend failures turned into misses or dropped writes
	LastError string `json:"lastError,omitempty"`
}

// DefaultTTL is how long an entry lives when Set gets ttl 0: a day, since
// keys are content-addressed and never go stale, only cold.
const DefaultTTL = 24 * time.Hour

// Key builds a cache key from what a cached value depends on: the kind of
// value ("route", "ctx:MICRO_SPATIAL", ...), the deck snapshot's content
// hash, the instruction (whitespace-normalized) and the serializer version.
// The result is "ace:<kind>:<64 hex>", safe for Redis and logs (no
// instruction text leaks into keys).
func Key(kind, snapshotHash, instruction, serializerVersion string) string {
	h := sha256.New()
	for _, part := range []string{snapshotHash, strings.Join(strings.Fields(instruction), " "), serializerVersion} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return "ace:" + kind + ":" + hex.EncodeToString(h.Sum(nil))
}

// New returns the cache for rc: Redis (redis://[user:pass@]host:port/db,
// rediss:// for TLS) when rc.URL is set, else an in-process LRU of
// DefaultEntries. It never fails: a misconfiguration NewRedis reports
// (unparsable URL, refused credentials, ...) gives the in-process cache
// with the error in Stats().LastError, and an unreachable server gives a
// Redis cache that misses until the server answers.
func New(ctx context.Context, rc RedisConfig) Cache {
	if strings.TrimSpace(rc.URL) == "" {
		return NewLRU(DefaultEntries, DefaultMaxBytes)
	}
	r, err := NewRedis(ctx, rc)
	if err != nil {
		l := NewLRU(DefaultEntries, DefaultMaxBytes)
		l.counters.setErr(err)
		return l
	}
	return r
}

// counters are the shared Stats bookkeeping.
type counters struct {
	hits, misses, sets, errs atomic.Int64
	lastErr                  atomic.Value // string
}

func (c *counters) setErr(err error) {
	c.errs.Add(1)
	c.lastErr.Store(err.Error())
}

func (c *counters) stats(backend string) Stats {
	s := Stats{Backend: backend, Hits: c.hits.Load(), Misses: c.misses.Load(), Sets: c.sets.Load(), Errors: c.errs.Load()}
	if v, ok := c.lastErr.Load().(string); ok {
		s.LastError = v
	}
	return s
}

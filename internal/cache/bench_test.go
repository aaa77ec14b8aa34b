package cache

import (
	"context"
	"testing"
	"time"
)

// Cache hit and miss latency against the real Redis (make bench), and the
// in-process LRU for comparison. The value is a 4 kB routed context.
func benchCache(b *testing.B, c Cache, hit bool) {
	ctx := context.Background()
	val := make([]byte, 4096)
	key := Key("bench", uniq("snap"), "Translate the deck", "v1")
	if hit {
		c.Set(ctx, key, val, time.Minute)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, ok := c.Get(ctx, key); ok != hit {
			b.Fatalf("hit=%v, want %v", ok, hit)
		}
	}
}

func BenchmarkRedisHit(b *testing.B) {
	needRedis(b)
	c := New(context.Background(), RedisConfig{URL: testRedis})
	defer c.Close()
	benchCache(b, c, true)
}

func BenchmarkRedisMiss(b *testing.B) {
	needRedis(b)
	c := New(context.Background(), RedisConfig{URL: testRedis})
	defer c.Close()
	benchCache(b, c, false)
}

func BenchmarkLRUHit(b *testing.B)  { benchCache(b, NewLRU(0, 0), true) }
func BenchmarkLRUMiss(b *testing.B) { benchCache(b, NewLRU(0, 0), false) }

// BenchmarkRedisLimiterWait is one Lua round trip of an unthrottled Wait.
func BenchmarkRedisLimiterWait(b *testing.B) {
	rc := needRedis(b)
	ctx := context.Background()
	l := NewLimiter(ctx, RedisConfig{URL: testRedis}, uniq("bench"), Rate{RequestsPerMin: 1 << 30, TokensPerMin: 1 << 30})
	defer l.Close()
	defer rc.Del(ctx, l.Key())
	for b.Loop() {
		if err := l.Wait(ctx, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

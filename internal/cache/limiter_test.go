package cache

import (
	"context"
	"errors"
	"testing"
	"time"
)

func elapsed(f func()) time.Duration {
	t0 := time.Now()
	f()
	return time.Since(t0)
}

func within(t *testing.T, what string, d, lo, hi time.Duration) {
	t.Helper()
	if d < lo || d > hi {
		t.Fatalf("%s took %v, want between %v and %v", what, d, lo, hi)
	}
}

func TestLocalLimiterTokensPerMinute(t *testing.T) {
	ctx := context.Background()
	l := NewLimiter(ctx, RedisConfig{}, "local-tpm", Rate{TokensPerMin: 60000}) // 1000 tokens/s
	within(t, "a full minute's budget", elapsed(func() { l.Wait(ctx, 60000) }), 0, 50*time.Millisecond)
	within(t, "500 more tokens", elapsed(func() { l.Wait(ctx, 500) }), 400*time.Millisecond, 1200*time.Millisecond)
}

func TestLocalLimiterRequestsPerMinute(t *testing.T) {
	ctx := context.Background()
	l := NewLimiter(ctx, RedisConfig{}, "local-rpm", Rate{RequestsPerMin: 240}) // 4/s
	within(t, "240 requests", elapsed(func() {
		for range 240 {
			l.Wait(ctx, 0)
		}
	}), 0, 100*time.Millisecond)
	within(t, "request 241", elapsed(func() { l.Wait(ctx, 0) }), 200*time.Millisecond, 800*time.Millisecond)
}

func TestLimiterHonoursContext(t *testing.T) {
	l := NewLimiter(context.Background(), RedisConfig{}, "ctx", Rate{RequestsPerMin: 1})
	l.Wait(context.Background(), 0)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	var err error
	within(t, "cancelled wait", elapsed(func() { err = l.Wait(ctx, 0) }), 50*time.Millisecond, 500*time.Millisecond)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if err := l.Wait(context.Background(), -1); err == nil {
		t.Fatal("negative tokens accepted")
	}
}

func TestOversizedRequestIsSlowedNotRefused(t *testing.T) {
	ctx := context.Background()
	l := NewLimiter(ctx, RedisConfig{}, "big", Rate{TokensPerMin: 60000})
	if err := l.Wait(ctx, 250000); err != nil { // more than a minute's budget
		t.Fatal(err)
	}
	within(t, "after draining", elapsed(func() { l.Wait(ctx, 100) }), 50*time.Millisecond, 600*time.Millisecond)
}

func TestRedisLimiterIsSharedBetweenWorkers(t *testing.T) {
	rc := needRedis(t)
	ctx := context.Background()
	name := uniq("shared")
	a := NewLimiter(ctx, RedisConfig{URL: testRedis}, name, Rate{RequestsPerMin: 6000, TokensPerMin: 60000})
	b := NewLimiter(ctx, RedisConfig{URL: testRedis}, name, Rate{RequestsPerMin: 6000, TokensPerMin: 60000})
	defer a.Close()
	defer b.Close()
	t.Cleanup(func() { rc.Del(ctx, a.Key()) })
	within(t, "worker A takes the minute's tokens", elapsed(func() { a.Wait(ctx, 60000) }), 0, 200*time.Millisecond)
	if !a.Shared() || rc.Exists(ctx, a.Key()).Val() != 1 {
		t.Fatal("bucket not in Redis")
	}
	within(t, "worker B waits for the shared bucket", elapsed(func() { b.Wait(ctx, 600) }), 500*time.Millisecond, 1500*time.Millisecond)
	if a.Errors() != 0 || b.Errors() != 0 {
		t.Fatalf("redis errors %d %d", a.Errors(), b.Errors())
	}
	if ttl := rc.PTTL(ctx, a.Key()).Val(); ttl <= 0 || ttl > 2*time.Minute {
		t.Fatalf("idle bucket must expire; PTTL %v", ttl)
	}
}

func TestRedisOutageFallsBackToLocalBuckets(t *testing.T) {
	ctx := context.Background()
	l := NewLimiter(ctx, RedisConfig{URL: "redis://127.0.0.1:1/0"}, "down", Rate{TokensPerMin: 60000})
	defer l.Close()
	within(t, "first wait", elapsed(func() { l.Wait(ctx, 60000) }), 0, time.Second)
	if l.Shared() || l.Errors() == 0 {
		t.Fatalf("shared=%v errors=%d: should have fallen back", l.Shared(), l.Errors())
	}
	within(t, "local bucket still limits", elapsed(func() { l.Wait(ctx, 500) }), 400*time.Millisecond, 1200*time.Millisecond)
}

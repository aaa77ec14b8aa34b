package cache

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisAddr is the Redis the tests use (DESIGN.md: running at
// 127.0.0.1:6379 on dev machines and in CI).
const testRedis = "redis://127.0.0.1:6379/0"

func needRedis(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379", DialTimeout: time.Second, Protocol: 2, DisableIdentity: true})
	if err := c.Ping(context.Background()).Err(); err != nil {
		t.Skipf("Redis at 127.0.0.1:6379 not reachable (%v): start it (redis-server) to run this test", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func uniq(prefix string) string {
	return fmt.Sprintf("%s-%d-%d", prefix, time.Now().UnixNano(), rand.Int())
}

func TestKeyDependsOnEveryPartButNotWhitespace(t *testing.T) {
	base := Key("route", "abc", "Bold all titles", "v1")
	if !strings.HasPrefix(base, "ace:route:") || len(base) != len("ace:route:")+64 {
		t.Fatalf("key shape %q", base)
	}
	for _, k := range []string{Key("ctx", "abc", "Bold all titles", "v1"), Key("route", "abd", "Bold all titles", "v1"),
		Key("route", "abc", "Bold all title", "v1"), Key("route", "abc", "Bold all titles", "v2")} {
		if k == base {
			t.Fatalf("key did not change: %s", k)
		}
	}
	if Key("route", "abc", "  Bold  all\ttitles ", "v1") != base {
		t.Fatal("whitespace-only differences must give the same key")
	}
	if strings.Contains(base, "Bold") {
		t.Fatal("instruction text leaked into the key")
	}
}

func TestLRUGetSetCopiesAndCounts(t *testing.T) {
	c := NewLRU(10, 0)
	ctx := context.Background()
	if _, ok := c.Get(ctx, "k"); ok {
		t.Fatal("empty cache hit")
	}
	v := []byte("value")
	c.Set(ctx, "k", v, time.Minute)
	v[0] = 'X' // the cache kept its own copy
	got, ok := c.Get(ctx, "k")
	if !ok || string(got) != "value" {
		t.Fatalf("got %q %v", got, ok)
	}
	got[0] = 'Y'
	if again, _ := c.Get(ctx, "k"); string(again) != "value" {
		t.Fatal("caller mutated the cached value")
	}
	if s := c.Stats(); s.Hits != 2 || s.Misses != 1 || s.Sets != 1 || s.Backend != "memory" {
		t.Fatalf("stats %+v", s)
	}
}

func TestLRUExpiresAndEvicts(t *testing.T) {
	ctx := context.Background()
	c := NewLRU(3, 0)
	now := time.Unix(1000, 0)
	c.now = func() time.Time { return now }
	c.Set(ctx, "a", []byte("1"), time.Second)
	now = now.Add(2 * time.Second)
	if _, ok := c.Get(ctx, "a"); ok {
		t.Fatal("expired entry served")
	}
	for _, k := range []string{"a", "b", "c"} {
		c.Set(ctx, k, []byte(k), time.Hour)
	}
	c.Get(ctx, "a") // a is now most recent; b is the oldest
	c.Set(ctx, "d", []byte("d"), time.Hour)
	if _, ok := c.Get(ctx, "b"); ok {
		t.Fatal("least recently used entry not evicted")
	}
	if c.Len() != 3 {
		t.Fatalf("len %d", c.Len())
	}
	small := NewLRU(100, 20)
	small.Set(ctx, "x", make([]byte, 12), time.Hour) // 13 bytes with key
	small.Set(ctx, "y", make([]byte, 12), time.Hour) // over 20: x goes
	if _, ok := small.Get(ctx, "x"); ok || small.Len() != 1 {
		t.Fatal("byte bound not enforced")
	}
	small.Set(ctx, "z", make([]byte, 50), time.Hour) // larger than the bound: not stored
	if _, ok := small.Get(ctx, "z"); ok {
		t.Fatal("oversized value stored")
	}
}

func TestNewWithoutURLIsInProcess(t *testing.T) {
	c := New(context.Background(), RedisConfig{})
	defer c.Close()
	if c.Stats().Backend != "memory" {
		t.Fatalf("backend %s", c.Stats().Backend)
	}
	bad := New(context.Background(), RedisConfig{URL: "http://not-redis"})
	if s := bad.Stats(); s.Backend != "memory" || !strings.Contains(s.LastError, "ACE_REDIS_URL") {
		t.Fatalf("bad URL should degrade to memory with the reason: %+v", s)
	}
}

func TestRedisRoundTripWithTTL(t *testing.T) {
	rc := needRedis(t)
	ctx := context.Background()
	c := New(ctx, RedisConfig{URL: testRedis})
	defer c.Close()
	key := Key("test", uniq("snap"), "Translate the deck", "v1")
	t.Cleanup(func() { rc.Del(ctx, key) })
	if _, ok := c.Get(ctx, key); ok {
		t.Fatal("fresh key hit")
	}
	c.Set(ctx, key, []byte(`{"mode":"MACRO_PROGRAMMATIC"}`), 90*time.Second)
	got, ok := c.Get(ctx, key)
	if !ok || string(got) != `{"mode":"MACRO_PROGRAMMATIC"}` {
		t.Fatalf("got %q %v", got, ok)
	}
	ttl := rc.PTTL(ctx, key).Val()
	if ttl <= 80*time.Second || ttl > 90*time.Second {
		t.Fatalf("TTL in Redis %v, want about 90s", ttl)
	}
	// A second client (another worker) sees the same entry.
	other := New(ctx, RedisConfig{URL: testRedis})
	defer other.Close()
	if _, ok := other.Get(ctx, key); !ok {
		t.Fatal("entry not shared between clients")
	}
	if s := c.Stats(); s.Backend != "redis" || s.Hits != 1 || s.Misses != 1 || s.Errors != 0 {
		t.Fatalf("stats %+v", s)
	}
}

func TestUnreachableRedisDegradesToMisses(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	c := New(ctx, RedisConfig{URL: "redis://127.0.0.1:1/0"}) // nothing listens on port 1
	defer c.Close()
	c.Set(ctx, "k", []byte("v"), time.Minute)
	for range 100 {
		if _, ok := c.Get(ctx, "k"); ok {
			t.Fatal("hit from an unreachable Redis")
		}
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("outage made 100 reads take %v: the backoff should skip Redis", el)
	}
	if s := c.Stats(); s.Errors == 0 || !strings.Contains(s.LastError, "redis") || s.Misses != 100 {
		t.Fatalf("stats %+v", s)
	}
}

// startRedis runs a private redis-server on a free port and returns its
// URL and a stop function.
func startRedis(t *testing.T) (string, func()) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command("redis-server", "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", port), Protocol: 2, DisableIdentity: true})
	defer c.Close()
	for i := 0; ; i++ {
		if c.Ping(context.Background()).Err() == nil {
			break
		}
		if i > 100 {
			cmd.Process.Kill()
			t.Fatal("private redis-server did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cmd.Process.Kill()
			cmd.Wait()
		}
	}
	t.Cleanup(stop)
	return url, stop
}

func TestRedisStoppedMidUseDegradesThenRecovers(t *testing.T) {
	url, stop := startRedis(t)
	ctx := context.Background()
	c := New(ctx, RedisConfig{URL: url})
	defer c.Close()
	c.Set(ctx, "k", []byte("v"), time.Minute)
	if _, ok := c.Get(ctx, "k"); !ok {
		t.Fatal("no hit while Redis is up")
	}
	stop()
	if _, ok := c.Get(ctx, "k"); ok {
		t.Fatal("hit after Redis stopped")
	}
	c.Set(ctx, "k2", []byte("v"), time.Minute) // dropped, no panic, no error
	if s := c.Stats(); s.Errors == 0 {
		t.Fatalf("outage not counted: %+v", s)
	}
	// Restart on the same port: after the backoff the cache uses it again.
	port := strings.TrimSuffix(strings.TrimPrefix(url, "redis://127.0.0.1:"), "/0")
	cmd := exec.Command("redis-server", "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	time.Sleep(Backoff + 200*time.Millisecond)
	c.Set(ctx, "k3", []byte("back"), time.Minute)
	if v, ok := c.Get(ctx, "k3"); !ok || string(v) != "back" {
		t.Fatal("cache did not recover after Redis came back")
	}
}

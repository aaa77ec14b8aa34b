package cache

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestLRUConcurrentUse(t *testing.T) {
	c := NewLRU(64, 0)
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				k := fmt.Sprintf("k%d", (g*31+i)%100)
				c.Set(ctx, k, []byte(k), time.Minute)
				if v, ok := c.Get(ctx, k); ok && string(v) != k {
					t.Errorf("key %s holds %q", k, v)
				}
			}
		}()
	}
	wg.Wait()
	if c.Len() > 64 {
		t.Fatalf("len %d over the bound", c.Len())
	}
}

// Seven concurrent requests of 9,000 tokens against 60,000 tokens/min: the
// bucket admits six at once and the seventh only after about 3 s of
// refill. A limiter that over-admitted under concurrency would finish at
// once; this holds for one in-process limiter and for two workers sharing
// Redis.
func concurrentBudget(t *testing.T, limiters ...*Limiter) {
	ctx := context.Background()
	var wg sync.WaitGroup
	t0 := time.Now()
	for g := range 7 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := limiters[g%len(limiters)].Wait(ctx, 9000); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	within(t, "seven 9k-token requests on a 60k/min budget", time.Since(t0), 2500*time.Millisecond, 6*time.Second)
}

func TestLocalLimiterUnderConcurrency(t *testing.T) {
	concurrentBudget(t, NewLimiter(context.Background(), RedisConfig{}, "conc", Rate{TokensPerMin: 60000}))
}

func TestRedisLimiterUnderConcurrency(t *testing.T) {
	rc := needRedis(t)
	ctx := context.Background()
	name := uniq("conc")
	a := NewLimiter(ctx, RedisConfig{URL: testRedis}, name, Rate{TokensPerMin: 60000})
	b := NewLimiter(ctx, RedisConfig{URL: testRedis}, name, Rate{TokensPerMin: 60000})
	defer a.Close()
	defer b.Close()
	t.Cleanup(func() { rc.Del(ctx, a.Key()) })
	concurrentBudget(t, a, b)
}

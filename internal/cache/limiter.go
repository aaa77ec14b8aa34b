package cache

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Rate is a model-call budget. Zero means unlimited on that axis.
type Rate struct {
	RequestsPerMin int `json:"requestsPerMin"`
	TokensPerMin   int `json:"tokensPerMin"`
}

// Limiter is a token-bucket limiter on requests/min and tokens/min. Each
// bucket holds one minute's budget and starts full; a request takes one
// request and its tokens from both at once. With Redis, every Limiter of
// the same name shares the buckets (one atomic Lua script per attempt,
// timed by the Redis server's clock, so workers on different hosts agree);
// without Redis, or while Redis is down, the buckets are in-process. It
// satisfies the llm package's Limiter interface.
type Limiter struct {
	name   string
	rate   Rate
	client *redis.Client // nil: in-process only
	local  localBuckets

	downUntil atomic.Int64
	errs      atomic.Int64
}

// NewLimiter returns the limiter called name (e.g. the model) for rate,
// shared through the Redis rc names when rc.URL is set. An unusable config
// or an unreachable server falls back to in-process buckets; it never fails.
func NewLimiter(ctx context.Context, rc RedisConfig, name string, rate Rate) *Limiter {
	l := &Limiter{name: name, rate: rate}
	l.local.init(rate)
	if strings.TrimSpace(rc.URL) == "" {
		return l
	}
	opt, err := rc.Options()
	if err != nil {
		l.errs.Add(1)
		return l
	}
	tune(opt)
	l.client = redis.NewClient(opt)
	return l
}

// Shared reports whether the limiter currently uses Redis.
func (l *Limiter) Shared() bool {
	return l.client != nil && time.Now().UnixNano() >= l.downUntil.Load()
}

// Errors counts Redis failures the limiter absorbed.
func (l *Limiter) Errors() int64 { return l.errs.Load() }

// Close releases the Redis connection.
func (l *Limiter) Close() error {
	if l.client == nil {
		return nil
	}
	return l.client.Close()
}

// Key is the Redis hash holding the shared buckets.
func (l *Limiter) Key() string { return "ace:ratelimit:" + l.name }

// Wait blocks until a request of tokens tokens (prompt estimate plus
// completion budget) may start, or ctx ends (returning ctx.Err()). A
// request larger than a minute's token budget waits for a full bucket and
// then takes all of it, so it is slowed, never refused.
func (l *Limiter) Wait(ctx context.Context, tokens int) error {
	if tokens < 0 {
		return fmt.Errorf("rate limiter %s: negative token count %d", l.name, tokens)
	}
	for {
		var wait time.Duration
		if l.Shared() {
			ms, err := bucketScript.Run(ctx, l.client, []string{l.Key()}, l.rate.RequestsPerMin, l.rate.TokensPerMin, tokens).Int64()
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				l.errs.Add(1)
				l.downUntil.Store(time.Now().Add(Backoff).UnixNano())
				continue // fall back to the local buckets
			}
			wait = time.Duration(ms) * time.Millisecond
		} else {
			wait = l.local.take(time.Now(), tokens)
		}
		if wait <= 0 {
			return nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// bucketScript refills both buckets for the time since the last call (Redis
// TIME), then either takes one request and the tokens and returns 0, or
// takes nothing and returns the milliseconds until both would suffice.
// KEYS[1] hash {req, tok, ts}; ARGV rpm, tpm, tokens. Idle keys expire.
var bucketScript = redis.NewScript(`
local rpm = tonumber(ARGV[1])
local tpm = tonumber(ARGV[2])
local need = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'req', 'tok', 'ts')
local req, tok, ts = tonumber(h[1]), tonumber(h[2]), tonumber(h[3])
if req == nil or tok == nil or ts == nil then
  req, tok, ts = rpm, tpm, now
end
local el = now - ts
if el < 0 then el = 0 end
req = math.min(rpm, req + el * rpm / 60000)
tok = math.min(tpm, tok + el * tpm / 60000)
if tpm > 0 and need > tpm then need = tpm end
local wait = 0
if rpm > 0 and req < 1 then wait = math.max(wait, math.ceil((1 - req) * 60000 / rpm)) end
if tpm > 0 and tok < need then wait = math.max(wait, math.ceil((need - tok) * 60000 / tpm)) end
if wait == 0 then
  if rpm > 0 then req = req - 1 end
  if tpm > 0 then tok = tok - need end
end
redis.call('HSET', KEYS[1], 'req', tostring(req), 'tok', tostring(tok), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], 120000)
return wait
`)

// localBuckets is the same algorithm in-process.
type localBuckets struct {
	mu       sync.Mutex
	rpm, tpm float64
	req, tok float64
	at       time.Time
}

func (b *localBuckets) init(r Rate) {
	b.rpm, b.tpm = float64(r.RequestsPerMin), float64(r.TokensPerMin)
	b.req, b.tok = b.rpm, b.tpm
}

// take returns 0 after taking one request and n tokens, or the time until
// both buckets would hold enough.
func (b *localBuckets) take(now time.Time, n int) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.at.IsZero() {
		el := now.Sub(b.at).Minutes()
		if el > 0 {
			b.req = min(b.rpm, b.req+el*b.rpm)
			b.tok = min(b.tpm, b.tok+el*b.tpm)
		}
	}
	b.at = now
	need := float64(n)
	if b.tpm > 0 && need > b.tpm {
		need = b.tpm
	}
	var wait time.Duration
	if b.rpm > 0 && b.req < 1 {
		wait = max(wait, time.Duration((1-b.req)/b.rpm*float64(time.Minute)))
	}
	if b.tpm > 0 && b.tok < need {
		wait = max(wait, time.Duration((need-b.tok)/b.tpm*float64(time.Minute)))
	}
	if wait > 0 {
		return wait + time.Millisecond
	}
	if b.rpm > 0 {
		b.req--
	}
	if b.tpm > 0 {
		b.tok -= need
	}
	return 0
}

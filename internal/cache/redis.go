package cache

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Timeouts of the Redis client: a cache that is slower than recomputing is
// worse than none, so calls give up quickly and an outage pauses Redis use
// for Backoff instead of paying a timeout on every call.
const (
	RedisTimeout = 300 * time.Millisecond
	Backoff      = 5 * time.Second
	// ProbeTimeout bounds the first PING NewRedis sends to check the
	// settings (credentials, certificates).
	ProbeTimeout = 3 * time.Second
)

// Redis is the shared cache (go-redis v9, SET with PX expiry).
type Redis struct {
	client    *redis.Client
	downUntil atomic.Int64 // unix nanos; while in the future, skip Redis
	counters
}

// NewRedis connects to the Redis rc names. An unreachable server is not an
// error here (the cache misses until it answers), so a worker starts even
// when Redis does not; a misconfiguration that waiting cannot fix is: a
// malformed URL, an unreadable TLS file, refused credentials, a server
// certificate no configured CA signed. Those errors name the setting to
// fix (ACE_REDIS_URL, ACE_REDIS_PASSWORD_FILE, ACE_REDIS_TLS_CA, ...).
func NewRedis(ctx context.Context, rc RedisConfig) (*Redis, error) {
	opt, err := rc.Options()
	if err != nil {
		return nil, err
	}
	// The first PING gets ProbeTimeout, not the fail-fast RedisTimeout: a
	// TLS handshake on a busy machine can take longer than the latter, and
	// this answer decides whether the settings are wrong.
	probe := *opt
	probe.DialTimeout, probe.ReadTimeout, probe.WriteTimeout, probe.PoolTimeout = ProbeTimeout, ProbeTimeout, ProbeTimeout, ProbeTimeout
	probe.MaxRetries, probe.DialerRetries, probe.Protocol, probe.DisableIdentity = 0, 1, 2, true
	pc := redis.NewClient(&probe)
	pctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	err = pc.Ping(pctx).Err()
	cancel()
	pc.Close()
	if refused := rc.Refused(err); refused != nil {
		return nil, refused
	}
	tune(opt)
	r := &Redis{client: redis.NewClient(opt)}
	if err != nil {
		r.fail(err)
	}
	return r, nil
}

func (r *Redis) available() bool { return time.Now().UnixNano() >= r.downUntil.Load() }

func (r *Redis) fail(err error) {
	r.setErr(fmt.Errorf("redis: %w", err))
	r.downUntil.Store(time.Now().Add(Backoff).UnixNano())
}

// Get implements Cache: a Redis failure is a miss.
func (r *Redis) Get(ctx context.Context, key string) ([]byte, bool) {
	if !r.available() {
		r.misses.Add(1)
		return nil, false
	}
	v, err := r.client.Get(ctx, key).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		r.misses.Add(1)
		return nil, false
	case err != nil:
		if ctx.Err() == nil {
			r.fail(err)
		}
		r.misses.Add(1)
		return nil, false
	}
	r.hits.Add(1)
	return v, true
}

// Set implements Cache: a Redis failure drops the write.
func (r *Redis) Set(ctx context.Context, key string, val []byte, ttl time.Duration) {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	r.sets.Add(1)
	if !r.available() {
		return
	}
	if err := r.client.Set(ctx, key, val, ttl).Err(); err != nil && ctx.Err() == nil {
		r.fail(err)
	}
}

// Stats implements Cache.
func (r *Redis) Stats() Stats { return r.counters.stats("redis") }

// Close implements Cache.
func (r *Redis) Close() error { return r.client.Close() }

// tune sets the fail-fast client options shared by the cache and the
// limiter: short timeouts, no command retries, one dial attempt (the
// backoff, not the client, decides when to try again), RESP2 without
// CLIENT SETINFO so any Redis 5+ answers.
func tune(opt *redis.Options) {
	opt.DialTimeout = RedisTimeout
	opt.ReadTimeout = RedisTimeout
	opt.WriteTimeout = RedisTimeout
	opt.PoolTimeout = RedisTimeout
	opt.MaxRetries = 0
	opt.DialerRetries = 1
	opt.Protocol = 2
	opt.DisableIdentity = true
}

// Package cache holds what ACE shares between workers through Redis: a
// cache of routing decisions and serialized contexts, and the token-bucket
// rate limiter of model calls (DESIGN.md §1, §6: "routed contexts and LLM
// rate limits live in Redis").
//
// With ACE_REDIS_URL empty both work in-process (an LRU with TTLs; a local
// token bucket). Redis is an optimisation, never a dependency: a Redis
// outage degrades a cache read to a miss and a write to a no-op, and the
// limiter to its in-process buckets; no caller ever sees a Redis outage.
// A misconfiguration is another matter: NewRedis reports refused
// credentials or an untrusted certificate, naming the setting to fix
// (RedisConfig: ACE_REDIS_URL, ACE_REDIS_PASSWORD_FILE, ACE_REDIS_TLS_CA).
package cache

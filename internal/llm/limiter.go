package llm

import (
	"context"
	"sync"
	"time"
)

// Limiter throttles model calls. Wait blocks until one request carrying
// about tokens tokens (prompt estimate plus max completion) may start, or
// ctx ends. internal/cache provides a Redis-backed implementation shared by
// every worker; the default is in-process.
type Limiter interface {
	Wait(ctx context.Context, tokens int) error
}

// NewLocalLimiter is an in-process token bucket for rpm requests/min and
// tpm tokens/min; a zero rate is unlimited. Buckets start full (one
// minute's budget), so a cold start is not throttled.
func NewLocalLimiter(rpm, tpm int) Limiter {
	now := time.Now()
	return &localLimiter{
		req: bucket{rate: float64(rpm) / 60, cap: float64(rpm), level: float64(rpm), at: now},
		tok: bucket{rate: float64(tpm) / 60, cap: float64(tpm), level: float64(tpm), at: now},
	}
}

type bucket struct {
	rate, cap, level float64 // per second, max, current
	at               time.Time
}

func (b *bucket) refill(now time.Time) {
	b.level += now.Sub(b.at).Seconds() * b.rate
	if b.level > b.cap {
		b.level = b.cap
	}
	b.at = now
}

// need returns how long until n units are available (0 = now).
func (b *bucket) need(n float64) time.Duration {
	if b.rate == 0 || b.level >= n {
		return 0
	}
	return time.Duration((n - b.level) / b.rate * float64(time.Second))
}

type localLimiter struct {
	mu       sync.Mutex
	req, tok bucket
}

func (l *localLimiter) Wait(ctx context.Context, tokens int) error {
	for {
		l.mu.Lock()
		now := time.Now()
		l.req.refill(now)
		l.tok.refill(now)
		n := float64(tokens)
		if l.tok.cap > 0 && n > l.tok.cap {
			n = l.tok.cap // a request larger than a minute's budget waits for a full bucket
		}
		wait := max(l.req.need(1), l.tok.need(n))
		if wait == 0 {
			if l.req.rate > 0 {
				l.req.level--
			}
			if l.tok.rate > 0 {
				l.tok.level -= n
			}
			l.mu.Unlock()
			return nil
		}
		l.mu.Unlock()
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

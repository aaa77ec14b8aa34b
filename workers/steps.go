package workers

import (
	"context"
	"fmt"
	"slices"

	"github.com/acecanvas/ace/activities"
	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/runner"
)

// NewActivities builds the step functions a worker serving queues needs:
// llm workers get the model client (with the Redis-backed limiter when
// ACE_REDIS_URL is set, in-process otherwise) and the cache of routing
// decisions and routed contexts (Route and Act run there: cache.New, Redis
// shared by all workers when ACE_REDIS_URL is set, an in-process LRU
// otherwise; a Redis outage is a miss); render workers the Chromium pool.
// The returned close function releases them.
func NewActivities(ctx context.Context, c *Conn, queues []string, renderPool int) (*activities.Activities, func(), error) {
	steps := &runner.Steps{Store: c.Store, Beat: activities.Beat}
	closers := []func(){}
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	if slices.Contains(queues, "llm") {
		cfg, err := llm.ConfigFromEnv()
		if err != nil {
			return nil, nil, fmt.Errorf("model config: %w", err)
		}
		if cfg.RPM > 0 || cfg.TPM > 0 || c.RedisURL != "" {
			cfg.Limiter = cache.NewLimiter(ctx, c.RedisURL, "llm:"+cfg.BaseURL, cache.Rate{RequestsPerMin: cfg.RPM, TokensPerMin: cfg.TPM})
		}
		if steps.LLM, err = llm.New(cfg); err != nil {
			return nil, nil, fmt.Errorf("model client: %w", err)
		}
		steps.Cache = cache.New(ctx, c.RedisURL)
		closers = append(closers, func() { steps.Cache.Close() })
	}
	if slices.Contains(queues, "render") {
		if renderPool <= 0 {
			renderPool = 2
		}
		pool, err := render.NewPool(ctx, render.Options{Size: renderPool})
		if err != nil {
			return nil, nil, fmt.Errorf("render pool (set ACE_CHROMIUM to a Chromium binary): %w", err)
		}
		steps.Renderer = pool
		closers = append(closers, func() { pool.Close() })
	}
	return &activities.Activities{Steps: steps, JS: c.JS}, closeAll, nil
}

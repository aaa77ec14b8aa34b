package workers

import (
	"context"
	"fmt"
	"runtime"
	"slices"

	"github.com/acecanvas/ace/activities"
	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/evolve"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/internal/tools"
)

// OpenSkillBank opens the cluster's skill bank (the key-value bucket
// skills.Bucket, created on first use and seeded from the embedded seed
// bank): llm workers read it at route time and write turn records to it;
// evolve workers evolve it.
func OpenSkillBank(ctx context.Context, c *Conn) (*skills.Bank, error) {
	kv, err := skills.OpenBucket(ctx, c.JS, "")
	if err != nil {
		return nil, fmt.Errorf("skill bank bucket %s: %w", skills.Bucket, err)
	}
	return skills.Open(ctx, skills.NATSObjects(kv))
}

// The render memo of a worker (render.Options.Memo): what the step loop's
// observations and the before/after pictures measured, in process.
const (
	renderMemoEntries = 4096
	renderMemoBytes   = 512 << 20
)

// NewActivities builds the step functions a worker serving queues needs:
// llm workers get the model client (with the Redis-backed limiter when
// ACE_REDIS_URL is set, in-process otherwise) and the cache of routing
// decisions and routed contexts (Route and Act run there: cache.New, Redis
// shared by all workers when ACE_REDIS_URL is set, an in-process LRU
// otherwise; a Redis outage is a miss, refused credentials an error);
// render and edit workers the Chromium pool (with an in-process render
// memo).
// The returned close function releases them.
func NewActivities(ctx context.Context, c *Conn, queues []string, renderPool int) (*activities.Activities, func(), error) {
	steps := &runner.Steps{Store: c.Store, Beat: activities.Beat}
	closers := []func(){}
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	// Evolve workers replay whole edits in process (the model client and
	// the renderer) and read and write the skill bank.
	evolving := slices.Contains(queues, "evolve")
	if slices.Contains(queues, "llm") || evolving {
		cfg, err := llm.ConfigFromEnv()
		if err != nil {
			return nil, nil, fmt.Errorf("model config: %w", err)
		}
		if cfg.RPM > 0 || cfg.TPM > 0 || c.Redis.URL != "" {
			cfg.Limiter = cache.NewLimiter(ctx, c.Redis, "llm:"+cfg.BaseURL, cache.Rate{RequestsPerMin: cfg.RPM, TokensPerMin: cfg.TPM})
		}
		if steps.LLM, err = llm.New(cfg); err != nil {
			return nil, nil, fmt.Errorf("model client: %w", err)
		}
		if c.Redis.URL != "" {
			// Refused credentials or certificates stop the worker here, naming
			// the setting; an unreachable Redis does not (the cache misses).
			r, err := cache.NewRedis(ctx, c.Redis)
			if err != nil {
				return nil, nil, err
			}
			steps.Cache = r
		} else {
			steps.Cache = cache.New(ctx, c.Redis)
		}
		closers = append(closers, func() { steps.Cache.Close() })
	}
	// Render workers render; edit workers apply tools (a recipe's compile,
	// the agent's calls, the replay) as local activities, and tools that
	// measure text or read the painted backdrop (add_footer, free-space
	// layout) need a renderer there, the same as where Act would run.
	if slices.Contains(queues, "render") || slices.Contains(queues, "edit") || evolving {
		if renderPool <= 0 {
			renderPool = DefaultRenderPool()
		}
		// Every picture the pool makes is kept in the store
		// (render.Options.Pictures): the Picture step's are read by the
		// batch report and ace report, which start no browser for them.
		pool, err := render.NewPool(ctx, render.Options{Size: renderPool, Memo: cache.NewLRU(renderMemoEntries, renderMemoBytes),
			Pictures: store.Memo(c.Store)})
		if err != nil {
			return nil, nil, fmt.Errorf("render pool (set ACE_CHROMIUM to a Chromium binary): %w", err)
		}
		steps.Renderer = pool
		closers = append(closers, func() { pool.Close() })
	}
	a := &activities.Activities{Steps: steps, JS: c.JS}
	if slices.Contains(queues, "llm") || evolving {
		bank, err := OpenSkillBank(ctx, c)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		steps.Skills = bank
		if evolving {
			a.Evolve = &activities.Evolve{Bank: bank, Runner: &evolve.Runner{Bank: bank, LLM: steps.LLM, Store: c.Store,
				Tools: tools.Registry().Names(), Replayer: evolve.LoopReplayer{Store: c.Store, LLM: steps.LLM, Renderer: steps.Renderer}}}
		}
	}
	return a, closeAll, nil
}

// DefaultRenderPool is the number of browsers a worker process renders
// with when not told: half the CPU cores, at least one. A browser busy
// laying out slides takes a core (with its helper processes); the other
// half is for the edit, diff and model steps of the same process. On 2
// cores, one browser instead of two made the six-deck batch's render
// steps 1.78x to 1.37x the in-process render and its Picture steps 8.3 s
// to 5.7 s, at the same wall time (BenchmarkBatchVsEditLoop).
func DefaultRenderPool() int { return max(1, runtime.NumCPU()/2) }

package runner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/runner"
)

const cacheInstruction = "Rename the title on slide 2 to 'Pricing experiments and results'."

// TestARerunRoutesAndSerializesFromTheCache runs the same edit of the same
// snapshot twice through Steps sharing one cache: the first run routes with
// the router model and writes the decision and the routed context; the
// second takes both from the cache (no router request; the agent receives
// the same context bytes) and ends on the same snapshot.
func TestARerunRoutesAndSerializesFromTheCache(t *testing.T) {
	c := cache.NewLRU(100, 1<<20)
	f := setup(t, "runner-stop-at-4.yaml", 1, 6, nil)
	f.steps.Cache = c
	first := f.run(t, cacheInstruction, policy.Config{})
	if first.Route.Cached || len(f.srv.RequestsFor("router-m")) != 1 {
		t.Fatalf("first run: cached %v, %d router requests", first.Route.Cached, len(f.srv.RequestsFor("router-m")))
	}
	if st := c.Stats(); st.Sets != 2 || st.Hits != 0 {
		t.Fatalf("first run cache stats %+v, want 2 writes (decision, context) and no hit", st)
	}

	g := setup(t, "runner-stop-at-4.yaml", 1, 6, nil) // same deck, fresh scripted model
	g.steps.Cache = c
	if g.origin != f.origin {
		t.Fatalf("the same generated deck has two refs: %s, %s", f.origin, g.origin)
	}
	second := g.run(t, cacheInstruction, policy.Config{})
	if !second.Route.Cached || second.Route.Decision.Mode != first.Route.Decision.Mode || len(second.Route.LLM) != 0 {
		t.Fatalf("second run route %+v, want the first run's decision from the cache", second.Route)
	}
	if n := len(g.srv.RequestsFor("router-m")); n != 0 {
		t.Fatalf("second run sent %d router requests", n)
	}
	if st := c.Stats(); st.Hits != 2 {
		t.Fatalf("cache stats after the rerun %+v, want 2 hits (decision, context)", st)
	}
	want, err := route.Context(f.deck, first.Route.Decision)
	if err != nil {
		t.Fatal(err)
	}
	if msg := g.srv.RequestsFor("agent-m")[0].Chat.Messages[1].Content; !strings.Contains(msg, want) {
		t.Fatal("the agent did not receive the routed context on the cached run")
	}
	if second.Final != first.Final {
		t.Fatalf("final snapshot %s with the cache, %s without", second.Final, first.Final)
	}
}

// TestAnUnreachableRedisIsOnlyACacheMiss points the cache at a port where no
// Redis listens: the edit runs exactly as without a cache, and the failure
// shows up only in the cache's error count.
func TestAnUnreachableRedisIsOnlyACacheMiss(t *testing.T) {
	c := cache.New(context.Background(), cache.RedisConfig{URL: "redis://127.0.0.1:1/0"})
	defer c.Close()
	f := setup(t, "runner-stop-at-4.yaml", 1, 6, nil)
	f.steps.Cache = c
	rec := f.run(t, cacheInstruction, policy.Config{})
	if rec.Outcome != "stopped" || rec.Route.Cached || len(f.srv.RequestsFor("router-m")) != 1 {
		t.Fatalf("outcome %q, cached %v, %d router requests", rec.Outcome, rec.Route.Cached, len(f.srv.RequestsFor("router-m")))
	}
	if got := text(f.final(t, rec), "s2-t5"); got != "Pricing experiments and results" {
		t.Fatalf("final title %q", got)
	}
	if st := c.Stats(); st.Backend != "redis" || st.Errors == 0 || st.Hits != 0 {
		t.Fatalf("cache stats %+v, want a Redis cache that counted its failure and never hit", st)
	}
}

// TestARecipeRerunTakesTheCompiledDecksContextFromTheCache runs a recipe
// with an instruction step twice through one cache: the routed context of
// the compiled (not yet stored) deck is keyed by its content hash, so the
// rerun takes the decision and the context from the cache, and the agent
// still sees the compiled change.
func TestARecipeRerunTakesTheCompiledDecksContextFromTheCache(t *testing.T) {
	p := filepath.Join(t.TempDir(), "retitle.yaml")
	if err := os.WriteFile(p, []byte(`name: retitle and recolour
steps:
  - tool: set_text_content
    args: {nodeId: s2-t5, text: "Pricing experiments and results"}
  - instruction: Make the slide 2 title navy (#1F4E79).
`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := cache.NewLRU(100, 1<<20)
	var finals []string
	for run := range 2 {
		srv := llmtest.Load(t, scriptPath(t, "runner-recipe-instruction.yaml"))
		cfg := srv.Config("agent-m", "judge-m")
		cfg.RouterModel = "router-m"
		client, err := llm.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
		rec := recipeRun(t, &runner.Steps{Renderer: pool, LLM: client, Cache: c}, d, blobs, p)
		if rec.Route.Cached != (run == 1) || len(srv.RequestsFor("router-m")) != 1-run {
			t.Fatalf("run %d: route cached %v, %d router requests", run+1, rec.Route.Cached, len(srv.RequestsFor("router-m")))
		}
		if req := srv.RequestsFor("agent-m")[0].Chat.Messages[1].Content; !strings.Contains(req, "Pricing experiments and results") {
			t.Fatalf("run %d: the agent's context lacks the compiled change", run+1)
		}
		finals = append(finals, rec.Final)
	}
	if st := c.Stats(); st.Sets != 2 || st.Hits != 2 {
		t.Fatalf("cache stats %+v, want 2 writes on the first run and 2 hits on the rerun", st)
	}
	if finals[0] != finals[1] {
		t.Fatalf("finals differ: %v", finals)
	}
}

package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
)

// loadRecipe reads and parses the recipe behind ref.
func (s *Steps) loadRecipe(ctx context.Context, ref, path string) (*recipe.Recipe, error) {
	data, err := s.Store.Get(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("recipe %s: %w", ref, err)
	}
	if path == "" {
		path = "recipe.yaml"
	}
	return recipe.Parse(path, data)
}

// actRecipe compiles the recipe against d (one batch of tool calls, no
// model) and, when it has instruction steps and an agent model is
// configured, lets the agent carry them out on the compiled result.
func (s *Steps) actRecipe(ctx context.Context, d *scenegraph.Deck, in ActInput) (ActOutput, error) {
	out := ActOutput{DeckRef: in.DeckRef, Mode: string(in.Route.Mode), Stopped: "recipe"}
	r, err := s.loadRecipe(ctx, in.RecipeRef, in.RecipePath)
	if err != nil {
		return out, err
	}
	opts := r.ToolOptions(s.toolOptions())
	plan, err := recipe.Compile(r, d, recipe.Options{Tools: opts, HaveModel: s.LLM.HasModel(llm.RoleAgent)})
	if err != nil {
		return out, err
	}
	out.Calls, out.Warnings, out.Instructions, out.AssetDir = agent.FromToolCalls(plan.Calls), plan.Warnings, plan.Instructions, r.AssetDir
	cur := plan.Result
	if cur == nil {
		cur = d
	}
	if len(plan.Instructions) > 0 {
		// cur is the compiled deck, not yet stored: ContextCached hashes it.
		text, hit, err := route.ContextCached(ctx, s.Cache, "", cur, in.Route)
		if err != nil {
			return out, fmt.Errorf("routed context (%s): %w", in.Route.Mode, err)
		}
		box := s.Toolbox
		if box == nil {
			box = agent.NewRegistry(opts)
		}
		ag := &agent.Agent{LLM: s.LLM, Tools: box, MaxTokens: s.MaxTokens}
		res, err := ag.Act(ctx, agent.Input{Deck: cur, Base: d, Prior: out.Calls, Mode: string(in.Route.Mode), Context: text,
			Instruction: strings.Join(plan.Instructions, "\n"), Feedback: in.Feedback, MaxTurns: in.MaxTurns})
		if res != nil {
			out.Calls = res.Calls
			out.Turns, out.Errors, out.LLM, out.Stopped, out.Summary = res.Turns, res.Errors, res.LLM, res.Stopped, res.Summary
			out.Context, out.ContextCached = len(text), hit
			cur = res.Deck
		}
		if err != nil {
			return out, err
		}
	}
	if len(out.Calls) > 0 {
		if out.DeckRef, err = store.PutDeck(ctx, s.Store, cur); err != nil {
			return out, fmt.Errorf("store the recipe's snapshot: %w", err)
		}
	}
	return out, nil
}

package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
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
func (s *Steps) actRecipe(ctx context.Context, d *scenegraph.Deck, in editloop.ActInput) (actResult, error) {
	out := actResult{ActOutput: editloop.ActOutput{DeckRef: in.DeckRef, Mode: string(in.Route.Mode), Stopped: "recipe"}}
	r, err := s.loadRecipe(ctx, in.RecipeRef, in.RecipePath)
	if err != nil {
		return out, err
	}
	opts := r.ToolOptions(s.toolOptions())
	plan, err := recipe.Compile(r, d, recipe.Options{Tools: opts, HaveModel: s.LLM.HasModel(llm.RoleAgent)})
	if err != nil {
		return out, err
	}
	out.calls, out.Warnings, out.AssetDir = agent.FromToolCalls(plan.Calls), plan.Warnings, r.AssetDir
	out.deck = plan.Result
	if out.deck == nil {
		out.deck = d
	}
	if len(plan.Instructions) == 0 {
		return out, nil
	}
	// The compiled deck is not yet stored: ContextCached hashes it.
	text, hit, err := route.ContextCached(ctx, s.Cache, "", out.deck, in.Route)
	if err != nil {
		return out, fmt.Errorf("routed context (%s): %w", in.Route.Mode, err)
	}
	box := s.Toolbox
	if box == nil {
		box = agent.NewRegistry(opts)
	}
	ag := &agent.Agent{LLM: s.LLM, Tools: box, MaxTokens: s.MaxTokens}
	res, err := ag.Act(ctx, agent.Input{Deck: out.deck, Base: d, Prior: out.calls, Mode: string(in.Route.Mode), Context: text,
		Instruction: strings.Join(plan.Instructions, "\n"), Feedback: in.Feedback, MaxTurns: in.MaxTurns})
	if res != nil {
		out.calls, out.deck = res.Calls, res.Deck
		out.Turns, out.Errors, out.LLM, out.Stopped, out.Summary = res.Turns, res.Errors, res.LLM, res.Stopped, res.Summary
		out.ContextBytes, out.ContextCached = len(text), hit
	}
	return out, err
}

// recipeInstructions are a recipe's instruction steps, in order.
func recipeInstructions(r *recipe.Recipe) []string {
	var out []string
	for _, st := range r.Steps {
		if st.Instruction != "" {
			out = append(out, st.Instruction)
		}
	}
	return out
}

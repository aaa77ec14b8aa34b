package runner

import (
	"context"
	"fmt"

	"github.com/acecanvas/ace/internal/recipe"
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

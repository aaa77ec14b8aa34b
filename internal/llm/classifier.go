package llm

import (
	"context"
	"sync"
)

// Classifier answers one system + user question with the router model at
// temperature 0 in JSON mode, recording every call. It satisfies
// internal/route's Classifier interface, so the CARE LLM router runs
// through this client (retries, usage, cost, limiter included).
type Classifier struct {
	Client *Client
	// Role defaults to RoleRouter.
	Role Role

	mu    sync.Mutex
	calls []Call
}

// Classify sends the question and returns the model's text.
func (c *Classifier) Classify(ctx context.Context, system, user string) (string, error) {
	role := c.Role
	if role == "" {
		role = RoleRouter
	}
	text, call, err := c.Client.Complete(ctx, role, "route", system, user, true)
	c.mu.Lock()
	c.calls = append(c.calls, call)
	c.mu.Unlock()
	return text, err
}

// ModelName is the model the classifier asks ("" when none is
// configured); the route cache keys decisions by it.
func (c *Classifier) ModelName() string {
	role := c.Role
	if role == "" {
		role = RoleRouter
	}
	m, _ := c.Client.Model(role)
	return m
}

// Calls returns the calls made so far.
func (c *Classifier) Calls() []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Call(nil), c.calls...)
}

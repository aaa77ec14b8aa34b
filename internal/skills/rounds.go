package skills

import "context"

// Rounds returns every evolve round's log (keys round/...), in key order.
func (b *Bank) Rounds(ctx context.Context) ([]RoundLog, error) {
	var out []RoundLog
	if err := listJSON(ctx, b, "round/", &out); err != nil {
		return nil, err
	}
	return out, nil
}

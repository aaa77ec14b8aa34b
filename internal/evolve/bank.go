package evolve

import (
	"context"

	"github.com/acecanvas/ace/internal/skills"
)

// Bank is what an evolve round reads and writes of the skill bank;
// *skills.Bank implements it (the interface keeps this package's needs
// in one place). Versions are committed with Commit only, which refuses
// any version but current+1 and accepts the same bytes again, so a
// retried commit is harmless.
type Bank interface {
	List(ctx context.Context) ([]skills.Skill, error)
	Get(ctx context.Context, name string) (skills.Skill, error)
	Commit(ctx context.Context, s skills.Skill, ch skills.Change) error
	History(ctx context.Context, name string) ([]skills.Change, error)
	Stats(ctx context.Context, name string) (skills.Stats, error)
	PutStats(ctx context.Context, st skills.Stats) error
	Records(ctx context.Context) ([]skills.TurnRecord, error)
	PutRecord(ctx context.Context, r skills.TurnRecord) error
	Coverage(ctx context.Context) (map[string]skills.CoverageEntry, error)
	PutCoverage(ctx context.Context, e skills.CoverageEntry) error
	AppendGateLog(ctx context.Context, g skills.GateLog) error
	GateLogs(ctx context.Context, round string) ([]skills.GateLog, error)
	PutRound(ctx context.Context, r skills.RoundLog) error
	Round(ctx context.Context, id string) (skills.RoundLog, error)
}

var _ Bank = (*skills.Bank)(nil)

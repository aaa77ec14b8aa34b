package evolve

import (
	"context"

	"github.com/acecanvas/ace/internal/skills"
)

// Due is whether an evolve round is due (Designer-RSI App. E: a round
// fires after RoundEvery new graded records) and the window it covers.
type Due struct {
	// Since is when the last finished round other than this one ended (ms
	// since 1970; 0: no round yet): records graded after it are new.
	Since int64 `json:"since"`
	// New counts the records graded after Since plus those not graded
	// yet (a round grades them first).
	New int  `json:"new"`
	Due bool `json:"due"`
}

// RoundIsDue reads the bank's rounds and records and says whether round
// id is due. A round that already started (a retry, or the workflow
// resumed after a crash) is always due, so it finishes.
func RoundIsDue(ctx context.Context, b *skills.Bank, id string) (Due, error) {
	rounds, err := b.Rounds(ctx)
	if err != nil {
		return Due{}, err
	}
	var d Due
	started := false
	for _, r := range rounds {
		if r.ID == id {
			started = r.StartedUnixMS != 0
			continue
		}
		if r.FinishedUnixMS > d.Since {
			d.Since = r.FinishedUnixMS
		}
	}
	records, err := b.Records(ctx)
	if err != nil {
		return d, err
	}
	_, graded := RoundDue(records, d.Since)
	for _, r := range records {
		if r.Grade == nil {
			graded++
		}
	}
	d.New, d.Due = graded, started || graded >= RoundEvery
	return d, nil
}

package workers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/acecanvas/ace/workflows"
)

// EvolveScheduleID is the Temporal schedule that starts the evolve
// workflow (Designer-RSI App. E: a round fires every 50 graded records;
// the schedule checks that often and the workflow runs a round only when
// it is due).
const EvolveScheduleID = "ace-skills-evolve"

// DefaultEvolveEvery is how often the schedule checks whether a round is
// due; ACE_EVOLVE_EVERY (a Go duration, "0" turns it off) overrides it.
const DefaultEvolveEvery = time.Hour

// EvolveEvery reads ACE_EVOLVE_EVERY; 0 means no schedule. The error
// names the variable and the form.
func EvolveEvery() (time.Duration, error) {
	v := os.Getenv("ACE_EVOLVE_EVERY")
	if v == "" {
		return DefaultEvolveEvery, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("ACE_EVOLVE_EVERY=%q: want a Go duration such as 1h or 30m, or 0 to turn the evolve schedule off", v)
	}
	return d, nil
}

// EnsureEvolveSchedule creates the evolve schedule on c unless it exists:
// every `every`, start EvolveWorkflow{Scheduled: true} on the evolve task
// queue, skipping a start while the previous run is still going. An
// existing schedule is left as it is (another worker made it); every 0
// does nothing.
func EnsureEvolveSchedule(ctx context.Context, c client.Client, every time.Duration) error {
	if every <= 0 {
		return nil
	}
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID:      EvolveScheduleID,
		Spec:    client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: every}}},
		Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP,
		Action: &client.ScheduleWorkflowAction{ID: EvolveScheduleID, Workflow: workflows.EvolveWorkflowName,
			Args: []any{workflows.EvolveInput{Scheduled: true}}, TaskQueue: workflows.QueueEvolve},
	})
	if err == nil || errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		return nil
	}
	return fmt.Errorf("create the evolve schedule %s: %w", EvolveScheduleID, err)
}

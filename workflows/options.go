package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Activity options per step. LLM steps retry for a long time with backoff:
// a model endpoint that answers 500 or 429 for minutes makes edits wait,
// not fail (the client inside the activity also retries and honours
// Retry-After). Renders heartbeat, so a dead render worker is noticed in
// HeartbeatTimeout rather than StartToCloseTimeout. Bad input never
// retries.
func stepOptions(queue string, startToClose, heartbeat time.Duration, maxAttempts int32) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		TaskQueue:              queue,
		StartToCloseTimeout:    startToClose,
		ScheduleToCloseTimeout: time.Hour,
		HeartbeatTimeout:       heartbeat,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        time.Second,
			BackoffCoefficient:     2,
			MaximumInterval:        30 * time.Second,
			MaximumAttempts:        maxAttempts,
			NonRetryableErrorTypes: nonRetryable,
		},
	}
}

var (
	optRoute   = stepOptions(QueueLLM, 3*time.Minute, 0, 0)
	optAct     = stepOptions(QueueLLM, 10*time.Minute, 0, 0)
	optJudge   = stepOptions(QueueLLM, 5*time.Minute, 0, 0)
	optApply   = stepOptions(QueueDiff, time.Minute, 0, 5)
	optRender  = stepOptions(QueueRender, 10*time.Minute, 20*time.Second, 10)
	optDiff    = stepOptions(QueueDiff, time.Minute, 0, 5)
	optExport  = stepOptions(QueueDiff, 3*time.Minute, 0, 5)
	optPublish = stepOptions(QueueDiff, 30*time.Second, 0, 0)
	// Progress events are best effort: a few tries, then the loop goes on.
	optProgress = stepOptions(QueueDiff, 10*time.Second, 0, 3)
)

// historyLimit is the event count past which the loop continues as new,
// well under Temporal's 10,240-event warning (a T=3 edit uses ~60).
var historyLimit = 2000

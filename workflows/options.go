package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Activity options per step. LLM steps retry for a long time with backoff:
// a model endpoint that answers 500 or 429 for minutes makes edits wait,
// not fail (the client inside the activity also retries and honours
// Retry-After), until ScheduleToCloseTimeout (an hour). Renders and model
// steps heartbeat, so a dead worker is noticed in HeartbeatTimeout rather
// than StartToCloseTimeout. Bad input never retries.
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

// llmRetryInterval caps the wait between attempts of a model step: an edit
// notices a recovered endpoint within about 10 s (plus the client's own
// backoff, at most MaxBackoff) instead of up to 30 s, at the cost of one
// attempt (up to five requests) per 10 s while the outage lasts.
const llmRetryInterval = 10 * time.Second

// llmHeartbeat is the HeartbeatTimeout of a model step: the activity
// beats every 5 s while it runs (activities.keepAlive), so a worker that
// dies mid-step is noticed in 30 s, not after StartToCloseTimeout.
const llmHeartbeat = 30 * time.Second

// llmStepOptions are stepOptions for a model step, retried every
// llmRetryInterval at most.
func llmStepOptions(startToClose time.Duration) workflow.ActivityOptions {
	o := stepOptions(QueueLLM, startToClose, llmHeartbeat, 0)
	o.RetryPolicy.MaximumInterval = llmRetryInterval
	return o
}

var (
	optRoute = llmStepOptions(3 * time.Minute)
	// optTurn is one model turn of the agent's step loop.
	optTurn   = llmStepOptions(10 * time.Minute)
	optJudge  = llmStepOptions(5 * time.Minute)
	optRender = stepOptions(QueueRender, 10*time.Minute, 20*time.Second, 10)
	optExport = stepOptions(QueueDiff, 3*time.Minute, 0, 5)
	// optPicture makes the report's pictures: a render, tried three times
	// (the report renders what it could not make).
	optPicture = stepOptions(QueueRender, 10*time.Minute, 20*time.Second, 3)
	// optRecord writes a turn record to the skill bank (a small write on
	// the llm queue, whose workers hold the bank).
	optRecord = stepOptions(QueueLLM, time.Minute, 0, 5)
	// optPublish publishes the result from the workflow's worker (a local
	// activity): retried for up to an hour, so a NATS restart delays
	// the result rather than losing it.
	optPublish = workflow.LocalActivityOptions{StartToCloseTimeout: 30 * time.Second, ScheduleToCloseTimeout: time.Hour,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second}}
	// optLocal runs apply, diff and the expectation check as local
	// activities: a minute each, five tries, bad input never retried.
	optLocal = workflow.LocalActivityOptions{
		StartToCloseTimeout:    time.Minute,
		ScheduleToCloseTimeout: 5 * time.Minute,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2,
			MaximumInterval: 30 * time.Second, MaximumAttempts: 5, NonRetryableErrorTypes: nonRetryable},
	}
	// Progress events are best effort: a few tries, then the loop goes on.
	optProgress = workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3}}
)

// historyLimit is the event count past which the loop continues as new,
// well under Temporal's 10,240-event warning (a T=3 edit uses ~60).
var historyLimit = 2000

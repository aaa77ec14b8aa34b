package activities

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"
)

// heartbeatEvery is how often a model step tells Temporal it is alive.
// The workflow's HeartbeatTimeout for those steps (workflows, 30 s) is a
// few beats, so a worker that dies mid-step (kill -9, a lost machine) has
// the step retried on another worker within about 30 s rather than after
// the step's StartToCloseTimeout (10 minutes for Act).
var heartbeatEvery = 5 * time.Second

// beat records one heartbeat (a variable so a test can count them).
var beat = func(ctx context.Context) { activity.RecordHeartbeat(ctx) }

// keepAlive heartbeats the running activity every heartbeatEvery until the
// returned stop is called or ctx ends; outside an activity it does nothing.
// It says only that the worker lives: a model step that hangs is still
// bounded by its StartToCloseTimeout.
func keepAlive(ctx context.Context) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	done := make(chan struct{})
	t := time.NewTicker(heartbeatEvery)
	go func() {
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				beat(ctx)
			}
		}
	}()
	return func() { close(done) }
}

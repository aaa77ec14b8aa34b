package activities

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"
)

// TestKeepAliveBeatsWhileAStepRuns: a step wrapped in keepAlive heartbeats
// on its own while it works (here 300 ms at one beat per 40 ms, in
// Temporal's test activity environment), and stops beating once it
// returns; outside an activity it does nothing.
func TestKeepAliveBeatsWhileAStepRuns(t *testing.T) {
	old := heartbeatEvery
	heartbeatEvery = 40 * time.Millisecond
	defer func() { heartbeatEvery = old }()
	var beats atomic.Int32
	oldBeat := beat
	beat = func(ctx context.Context) { beats.Add(1); oldBeat(ctx) }
	defer func() { beat = oldBeat }()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	step := func(ctx context.Context) error {
		defer keepAlive(ctx)()
		time.Sleep(300 * time.Millisecond)
		return nil
	}
	env.RegisterActivity(step)
	if _, err := env.ExecuteActivity(step); err != nil {
		t.Fatal(err)
	}
	got := beats.Load()
	time.Sleep(150 * time.Millisecond)
	if after := beats.Load(); after != got {
		t.Errorf("%d beats after the step returned", after-got)
	}
	t.Logf("%d heartbeats in a 300 ms step", got)
	if got < 3 {
		t.Errorf("%d heartbeats in 300 ms at one per 40 ms", got)
	}
	beats.Store(0)
	stop := keepAlive(context.Background())
	time.Sleep(150 * time.Millisecond)
	stop()
	if n := beats.Load(); n != 0 {
		t.Errorf("%d heartbeats outside an activity", n)
	}
}

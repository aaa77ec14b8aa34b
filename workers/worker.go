package workers

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/acecanvas/ace/activities"
	"github.com/acecanvas/ace/workflows"
)

// Queue names accepted by `ace worker --queues`, and the task queue each
// serves.
var Queues = workflows.Roles

// AllQueues is every queue, in start order.
var AllQueues = workflows.AllRoles

// EditQueues are the queues an edit's workflow uses: every queue but
// evolve. A self-hosted batch serves these only, so it neither opens a
// renderer-backed evolve runner nor creates the evolve schedule at start.
var EditQueues = []string{"edit", "llm", "render", "diff"}

// ParseQueues checks a comma-separated --queues value.
func ParseQueues(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" || s == "all" {
		return AllQueues, nil
	}
	var out []string
	for _, q := range strings.Split(s, ",") {
		q = strings.TrimSpace(q)
		if _, ok := Queues[q]; !ok {
			return nil, fmt.Errorf("unknown queue %q: use any of edit, llm, render, diff, evolve (comma-separated) or all", q)
		}
		if !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return out, nil
}

// EditWorkflowName is the registered name of workflows.EditWorkflow.
const EditWorkflowName = "EditWorkflow"

// register puts on w only what queue q needs: the workflow and its local
// activities (the steps that apply tools: a recipe's compile, each agent
// turn's calls and the replay; and diff, check, progress and publish) on
// edit, the model steps on llm, Render and Observe on render, Export on
// diff.
func register(w worker.Worker, q string, a *activities.Activities) {
	if q == "edit" {
		w.RegisterWorkflowWithOptions(workflows.EditWorkflow, workflow.RegisterOptions{Name: EditWorkflowName})
	}
	if q == "evolve" {
		w.RegisterWorkflowWithOptions(workflows.EvolveWorkflow, workflow.RegisterOptions{Name: workflows.EvolveWorkflowName})
		for name, fn := range a.Evolve.Functions() {
			w.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name})
		}
		return
	}
	fns := a.Functions()
	for _, name := range queueActivities[q] {
		w.RegisterActivityWithOptions(fns[name], activity.RegisterOptions{Name: name})
	}
}

// queueActivities lists the activities each queue's worker registers.
var queueActivities = map[string][]string{
	"edit": {workflows.ActivityAct, workflows.ActivityApplyRound, workflows.ActivityApply, workflows.ActivityDiff,
		workflows.ActivityCheck, workflows.ActivityProgress, workflows.ActivityPublish},
	"llm": {workflows.ActivityRoute, workflows.ActivityAgentTurn, workflows.ActivityJudge, workflows.ActivityCritique, workflows.ActivityWaive,
		workflows.ActivityRecordTurn},
	"render": {workflows.ActivityRender, workflows.ActivityObserve, workflows.ActivityPicture},
	"diff":   {workflows.ActivityExport},
}

// WorkerOptions tune the Temporal workers.
type WorkerOptions struct {
	// StopTimeout is how long a graceful stop waits for in-flight
	// activities to finish (they are retried elsewhere after it).
	StopTimeout time.Duration
	// RenderConcurrency caps concurrent Render activities (one Chromium
	// tab each); 0 means DefaultRenderPool.
	RenderConcurrency int
}

// RunWorkers starts one Temporal worker per queue on c and blocks until
// ctx is done, then stops them gracefully: they stop polling and wait up
// to StopTimeout for in-flight activities.
func RunWorkers(ctx context.Context, c client.Client, queues []string, a *activities.Activities, o WorkerOptions) error {
	ws, err := StartWorkers(c, queues, a, o)
	if err != nil {
		return err
	}
	<-ctx.Done()
	StopWorkers(ws)
	return nil
}

// StartWorkers starts the workers and returns them for StopWorkers.
// heartbeatSend bounds how long the SDK holds a recorded heartbeat
// before sending it (worker.Options.MaxHeartbeatThrottleInterval);
// activities record one every 5 s (activities.keepAlive).
const heartbeatSend = 5 * time.Second

func StartWorkers(c client.Client, queues []string, a *activities.Activities, o WorkerOptions) ([]worker.Worker, error) {
	if o.StopTimeout == 0 {
		o.StopTimeout = 30 * time.Second
	}
	if o.RenderConcurrency == 0 {
		o.RenderConcurrency = DefaultRenderPool()
	}
	var ws []worker.Worker
	for _, q := range queues {
		// Heartbeats go out at least every heartbeatSend: the SDK would
		// otherwise batch them over 80% of an activity's HeartbeatTimeout
		// (16 s of Render's 20 s), leaving 4 s for a loaded machine before
		// the server times the render out and retries it on another worker.
		opts := worker.Options{WorkerStopTimeout: o.StopTimeout, MaxHeartbeatThrottleInterval: heartbeatSend}
		if q == "render" {
			opts.MaxConcurrentActivityExecutionSize = o.RenderConcurrency
		}
		w := worker.New(c, Queues[q], opts)
		register(w, q, a)
		if err := w.Start(); err != nil {
			StopWorkers(ws)
			return nil, fmt.Errorf("start %s worker: %w", q, err)
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// StopWorkers stops the workers, all at once, and returns when every one
// has stopped.
func StopWorkers(ws []worker.Worker) {
	// The workers stop together: each stops polling and waits for its own
	// in-flight tasks, so one after the other only adds up their
	// shutdowns (about 0.2 s each on an idle queue).
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Go(w.Stop)
	}
	wg.Wait()
}

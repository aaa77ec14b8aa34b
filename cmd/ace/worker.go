package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/activities"
	"github.com/acecanvas/ace/workers"
)

func init() {
	var queues string
	var dispatch bool
	var renderPool int
	var drain time.Duration
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Run ACE workers for some task queues, and/or the batch dispatcher",
		Long: `Registers on each task queue only what it needs: edit (the EditWorkflow
code), llm (Route, Act, Judge; owns the model client and rate limiter),
render (Render; owns the Chromium pool), diff (Apply, Diff, Check, Export,
Publish). --dispatch also consumes ACE_JOBS and starts one workflow per job.
SIGINT/SIGTERM stop gracefully: polling stops and in-flight activities finish
(up to --drain, 30 s by default) before exit; give a pod a termination grace
period above it.`,
		Example: `  ace worker --queues llm
  ace worker --queues render,diff --render-pool 4
  ace worker --queues edit --dispatch`,
		RunE: func(cmd *cobra.Command, args []string) error {
			qs, err := workers.ParseQueues(queues)
			if err != nil {
				return badInput(err)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			shutdown, err := workers.SetupTelemetry(ctx, "ace-worker")
			if err != nil {
				return err
			}
			defer shutdown(context.WithoutCancel(ctx))
			conn, err := workers.Connect(ctx, workers.ConfigFromEnv())
			if err != nil {
				return err
			}
			defer conn.Close()
			if drain <= 0 {
				return badInput(fmt.Errorf("worker: --drain %s: want a positive duration such as 30s", drain))
			}
			renderPoolSize, workerDrain = renderPool, drain
			stopWorkers, err := startLocalWorkers(ctx, conn, qs, dispatch)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "ace worker: queues %v dispatch=%v temporal=%s nats=%s\n", qs, dispatch, conn.TemporalAddress, workers.DisplayURL(conn.NATSURL))
			<-ctx.Done()
			fmt.Fprintln(os.Stderr, "ace worker: draining in-flight activities")
			stopWorkers()
			return nil
		},
	}
	cmd.Flags().StringVar(&queues, "queues", "all", "comma-separated: edit, llm, render, diff, evolve (or all)")
	cmd.Flags().BoolVar(&dispatch, "dispatch", false, "also run the NATS dispatcher (ACE_JOBS -> EditWorkflow)")
	cmd.Flags().IntVar(&renderPool, "render-pool", workers.DefaultRenderPool(), "Chromium browsers for render workers (default: half the CPU cores)")
	cmd.Flags().DurationVar(&drain, "drain", 30*time.Second, "on SIGINT/SIGTERM, how long in-flight activities may run on before exit")
	rootCmd.AddCommand(cmd)
}

var renderPoolSize = workers.DefaultRenderPool()

// workerDrain is ace worker's --drain: how long a graceful stop waits for
// in-flight activities (workers.WorkerOptions.StopTimeout; 0: its default).
var workerDrain time.Duration

// startLocalWorkers runs workers for queues (and the dispatcher) in this
// process; the returned function stops them gracefully.
func startLocalWorkers(ctx context.Context, conn *workers.Conn, queues []string, dispatch bool) (func(), error) {
	acts, closeSteps, err := workers.NewActivities(ctx, conn, queues, renderPoolSize)
	if err != nil {
		return nil, err
	}
	return runLocalWorkers(ctx, conn, queues, acts, closeSteps, dispatch)
}

// runLocalWorkers is startLocalWorkers with the activities (their render
// pool started) made beforehand; on error it closes them.
func runLocalWorkers(ctx context.Context, conn *workers.Conn, queues []string, acts *activities.Activities, closeSteps func(), dispatch bool) (func(), error) {
	ws, err := workers.StartWorkers(conn.Temporal, queues, acts, workers.WorkerOptions{RenderConcurrency: renderPoolSize, StopTimeout: workerDrain})
	if err != nil {
		closeSteps()
		return nil, err
	}
	if slices.Contains(queues, "evolve") {
		// The skill bank evolves on a schedule (issue 19); a worker that
		// cannot make it still serves `ace skills evolve`.
		every, err := workers.EvolveEvery()
		if err == nil {
			err = workers.EnsureEvolveSchedule(ctx, conn.Temporal, every)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "ace worker: %v; evolve rounds run only when asked (ace skills evolve)\n", err)
		}
	}
	dctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	if dispatch {
		go func() { defer close(done); workers.Dispatch(dctx, conn) }()
	} else {
		close(done)
	}
	return func() {
		cancel()
		<-done
		workers.StopWorkers(ws)
		closeSteps()
	}, nil
}

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/workers"
)

func init() {
	cmd := &cobra.Command{
		Use:   "dev",
		Short: "Start the embedded stack (Temporal + NATS) and every worker, print the addresses",
		Long: `Runs, in one process, an embedded Temporal server (SQLite under ACE_DATA_DIR),
an embedded NATS server with JetStream, every worker queue and the batch
dispatcher. Other ace commands on the same ACE_DATA_DIR attach to it; tools
can use the printed addresses (export them as ACE_TEMPORAL_ADDRESS and
ACE_NATS_URL). With ACE_NATS_URL set, dev uses that NATS server (and Redis
from ACE_REDIS_URL) and embeds only Temporal: a development Temporal server
with every worker in front of shared services. Stop with Ctrl-C.`,
		Example: "  ace dev\n  ACE_DATA_DIR=/tmp/ace ace dev\n  ACE_NATS_URL=nats://127.0.0.1:4222 ACE_REDIS_URL=redis://127.0.0.1:6379 ace dev",
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			shutdown, err := workers.SetupTelemetry(ctx, "ace-dev")
			if err != nil {
				return err
			}
			defer shutdown(context.WithoutCancel(ctx))
			cfg := workers.ConfigFromEnv()
			cfg.TemporalAddress = "" // dev always runs its own Temporal server
			conn, err := workers.Connect(ctx, cfg)
			if err != nil {
				return err
			}
			defer conn.Close()
			if !conn.Stack.Owned {
				return fmt.Errorf("another ace process (pid %d) already runs the stack of %s: temporal %s, nats %s",
					conn.Stack.PID, cfg.DataDir, conn.Stack.Temporal, conn.Stack.NATS)
			}
			stopWorkers, err := startLocalWorkers(ctx, conn, workers.AllQueues, true)
			if err != nil {
				return err
			}
			fmt.Printf("ACE_TEMPORAL_ADDRESS=%s\nACE_NATS_URL=%s\nACE_DATA_DIR=%s\nworkers: %v + dispatcher\n",
				conn.TemporalAddress, workers.DisplayURL(conn.NATSURL), cfg.DataDir, workers.AllQueues)
			<-ctx.Done()
			fmt.Fprintln(os.Stderr, "ace dev: stopping")
			stopWorkers()
			return nil
		},
	}
	rootCmd.AddCommand(cmd)
}

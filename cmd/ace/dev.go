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
dispatcher, and the Temporal Web UI. Other ace commands on the same
ACE_DATA_DIR attach to it; tools can use the printed addresses (export them
as ACE_TEMPORAL_ADDRESS and ACE_NATS_URL; the temporal CLI takes the first
as --address). The ports are fixed: ACE_TEMPORAL_PORT (default 17233),
ACE_TEMPORAL_UI_PORT (18233; "off": no Web UI) and ACE_NATS_PORT (14222);
0 picks a free port. A port in use is an error naming its setting. With
ACE_NATS_URL set, dev uses that NATS server (and Redis from ACE_REDIS_URL)
and embeds only Temporal: a development Temporal server with every worker
in front of shared services. Stop with Ctrl-C.`,
		Example: "  ace dev\n  ACE_TEMPORAL_PORT=27233 ACE_TEMPORAL_UI_PORT=28233 ACE_NATS_PORT=24222 ace dev\n  ACE_DATA_DIR=/tmp/ace ace dev\n  ACE_NATS_URL=nats://127.0.0.1:4222 ACE_REDIS_URL=redis://127.0.0.1:6379 ace dev",
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			shutdown, err := workers.SetupTelemetry(ctx, "ace-dev")
			if err != nil {
				return err
			}
			defer shutdown(context.WithoutCancel(ctx))
			cfg := workers.ConfigFromEnv()
			cfg.TemporalAddress = ""         // dev always runs its own Temporal server
			cfg.Embed.AnyPortIfTaken = false // its addresses are the ones people type
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
			fmt.Printf("ACE_TEMPORAL_ADDRESS=%s\nACE_NATS_URL=%s\nACE_DATA_DIR=%s\n",
				conn.TemporalAddress, workers.DisplayURL(conn.NATSURL), cfg.DataDir)
			if conn.Stack.UI != "" {
				fmt.Printf("temporal web ui: %s/namespaces/%s/workflows\n", conn.Stack.UI, cfg.Namespace)
			}
			fmt.Printf("workers: %v + dispatcher\n", workers.AllQueues)
			<-ctx.Done()
			fmt.Fprintln(os.Stderr, "ace dev: stopping")
			stopWorkers()
			return nil
		},
	}
	rootCmd.AddCommand(cmd)
}

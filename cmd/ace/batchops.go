package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/workers"
)

// addBatchOps adds the commands that operate a batch (issue 20) to
// `ace batch`: list, show, cancel, retry and watch. They parse flags and
// print; the work is workers.ListBatches, ShowBatch, CancelDecks,
// RetryDecks and Follow.
func addBatchOps(batch *cobra.Command) {
	var asJSON bool
	connect := func(cmd *cobra.Command) (*workers.Conn, error) {
		return workers.Connect(cmd.Context(), workers.ConfigFromEnv())
	}
	// noBatch turns ErrNoBatch into the status command's error, which
	// says where the events were looked for.
	noBatch := func(err error, id string, conn *workers.Conn) error {
		if errors.Is(err, workers.ErrNoBatch) {
			return noBatchEvents(id, conn)
		}
		return err
	}

	list := &cobra.Command{
		Use:     "list",
		Short:   "List the batches with their deck counts and age",
		Example: "  ace batch list --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			conn, err := connect(cmd)
			if err != nil {
				return err
			}
			defer conn.Close()
			bs, err := workers.ListBatches(cmd.Context(), conn.JS)
			if err != nil {
				return err
			}
			if asJSON {
				if bs == nil {
					bs = []workers.BatchInfo{}
				}
				return json.NewEncoder(os.Stdout).Encode(bs)
			}
			if len(bs) == 0 {
				fmt.Fprintln(os.Stderr, "no batches (events are kept 7 days)")
				return nil
			}
			tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "BATCH\tDECKS\tDONE\tFAILED\tCANCELLED\tRUNNING\tQUEUED\tAGE")
			for _, b := range bs {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", b.Batch, b.Decks, b.Done, b.Failed, b.Cancelled, b.Running, b.Queued, age(b.Started))
			}
			return tw.Flush()
		},
	}

	show := &cobra.Command{
		Use:   "show BATCH [DECK]",
		Short: "Show a batch's decks, or one deck's iterations and steps, with their Temporal workflow ids",
		Example: `  ace batch show b3f9c2a71d0e
  ace batch show b3f9c2a71d0e northwind-qbr --json`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			conn, err := connect(cmd)
			if err != nil {
				return err
			}
			defer conn.Close()
			deck := ""
			if len(args) == 2 {
				deck = args[1]
			}
			bd, err := workers.ShowBatch(cmd.Context(), conn, args[0], deck)
			if err != nil {
				if errors.Is(err, workers.ErrNoBatch) {
					return noBatch(err, args[0], conn)
				}
				return badInput(err)
			}
			if asJSON {
				return json.NewEncoder(os.Stdout).Encode(bd)
			}
			if deck == "" {
				bd.Summary.WriteTable(os.Stdout)
				fmt.Println()
			}
			tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "DECK\tSTATUS\tSTEP\tWORKFLOW ID\tRUNS\tLATEST RUN\tWORKFLOW")
			for _, d := range bd.Decks {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", d.Deck, d.Status, dash(d.Step), d.WorkflowID, d.Runs, dash(d.RunID), dash(d.WorkflowStatus))
			}
			tw.Flush()
			if deck == "" {
				return nil
			}
			d := bd.Decks[0]
			fmt.Printf("\n%s: outcome %s, %s", d.Deck, dash(d.Outcome), plural(d.Iterations, "iteration"))
			if d.Retries > 0 {
				fmt.Printf(", retried %d time(s)", d.Retries)
			}
			fmt.Println()
			if d.Reason != "" {
				fmt.Printf("  reason: %s\n", d.Reason)
			}
			for _, it := range d.Detail {
				score := "-"
				if it.Score != nil {
					score = fmt.Sprintf("%.1f", *it.Score)
				}
				fmt.Printf("  iteration %d: score %s, gate passed %v, %d tool calls, %s\n", it.N, score, it.GatePassed, it.ToolCalls,
					(time.Duration(it.DurationMs) * time.Millisecond).Round(10*time.Millisecond))
				for _, st := range it.Steps {
					fmt.Printf("    step %d: %d applied, %d errors, changed %v, %s\n", st.Turn, st.Applied, st.Errors, st.Changed,
						(time.Duration(st.DurationMs) * time.Millisecond).Round(10*time.Millisecond))
				}
			}
			return nil
		},
	}

	printActions := func(verb, batch string, acts []workers.DeckAction) error {
		if asJSON {
			if acts == nil {
				acts = []workers.DeckAction{}
			}
			return json.NewEncoder(os.Stdout).Encode(acts)
		}
		if len(acts) == 0 {
			fmt.Fprintf(os.Stderr, "batch %s: no deck to %s\n", batch, verb)
		}
		for _, a := range acts {
			run := ""
			if a.RunID != "" {
				run = " run " + a.RunID
			}
			fmt.Printf("%s: %s (workflow %s%s)\n", a.Deck, a.Done, a.WorkflowID, run)
		}
		return nil
	}

	cancel := &cobra.Command{
		Use:   "cancel BATCH [DECK...]",
		Short: "Cancel a batch's unfinished decks (or the decks named): each stops at its next step",
		Long: `Asks Temporal to cancel each deck's workflow (id <batch>:<deck>). A deck stops at
its next step boundary and is reported with status "cancelled" (outcome
canceled): nothing is written for it and its original is never touched. A
finished deck is left as it is. With no DECK every unfinished deck is
cancelled. ace batch retry runs a cancelled deck again.`,
		Example: `  ace batch cancel b3f9c2a71d0e northwind-qbr career-tips
  ace batch cancel b3f9c2a71d0e`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			conn, err := connect(cmd)
			if err != nil {
				return err
			}
			defer conn.Close()
			acts, err := workers.CancelDecks(cmd.Context(), conn, args[0], args[1:])
			if err != nil {
				if errors.Is(err, workers.ErrNoBatch) {
					return noBatch(err, args[0], conn)
				}
				return badInput(err)
			}
			return printActions("cancel", args[0], acts)
		},
	}

	var failed bool
	retry := &cobra.Command{
		Use:   "retry BATCH (--failed | DECK...)",
		Short: "Run finished decks of a batch again, the batch id unchanged",
		Long: `Runs the decks named (or, with --failed, every deck whose status is failed)
again as new runs of the same Temporal workflow ids (<batch>:<deck>): each
deck is read again from its path, so an input fixed since is what runs; the
batch id and the other decks' results stay as they are, and the deck's new
result replaces its old one (ace batch show, status and watch; the batch
command run again writes it to its output folder). A deck still running is
refused: cancel it first.`,
		Example: `  ace batch retry b3f9c2a71d0e --failed
  ace batch retry b3f9c2a71d0e northwind-qbr`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if failed == (len(args) > 1) {
				return badInput(errors.New("give --failed or the decks to retry (ace batch show BATCH lists them), not both"))
			}
			conn, err := connect(cmd)
			if err != nil {
				return err
			}
			defer conn.Close()
			acts, err := workers.RetryDecks(cmd.Context(), conn, args[0], args[1:], failed)
			if err != nil {
				if errors.Is(err, workers.ErrNoBatch) {
					return noBatch(err, args[0], conn)
				}
				return badInput(err)
			}
			if err := printActions("retry", args[0], acts); err != nil {
				return err
			}
			if !asJSON {
				fmt.Fprintf(os.Stderr, "batch %s: ace batch watch %s follows them\n", args[0], args[0])
			}
			return nil
		},
	}
	retry.Flags().BoolVar(&failed, "failed", false, "retry every deck whose status is failed (not the cancelled ones)")

	watch := &cobra.Command{
		Use:   "watch BATCH",
		Short: "Follow a batch's progress line from any terminal until every deck finished",
		Long: `Prints the batch's live progress line, as the batch command itself does (a
redrawn bar on a terminal, a line per change otherwise), starting from the
decks already finished, and the summary table once every deck finished.
Ctrl-C stops watching; the decks go on.`,
		Example: "  ace batch watch b3f9c2a71d0e",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, _, stop := onInterrupt(cmd.Context())
			defer stop()
			conn, err := connect(cmd)
			if err != nil {
				return err
			}
			defer conn.Close()
			st, err := workers.Status(ctx, conn.JS, args[0])
			if err != nil {
				return err
			}
			if len(st.Decks) == 0 {
				return noBatchEvents(args[0], conn)
			}
			prog := newProgress(os.Stderr, time.UnixMilli(st.Started))
			st, err = workers.Follow(ctx, conn.JS, args[0], st.Keys(), prog.draw)
			prog.finish()
			if err != nil {
				if ctx.Err() != nil {
					fmt.Fprintf(os.Stderr, "stopped watching batch %s; its decks go on (ace batch watch %s)\n", args[0], args[0])
					return nil
				}
				return err
			}
			sum, err := workers.Summarize(cmd.Context(), conn.Store, st, workers.Output{})
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(os.Stdout).Encode(sum)
			}
			sum.WriteTable(os.Stdout)
			return nil
		},
	}

	for _, c := range []*cobra.Command{list, show, cancel, retry, watch} {
		c.Flags().BoolVar(&asJSON, "json", false, "print JSON on stdout")
		batch.AddCommand(c)
	}
}

// age is how long ago t was, rounded for a table ("3m", "2h", "4d").
func age(t time.Time) string {
	d := time.Since(t)
	switch {
	case t.IsZero() || t.Unix() <= 0:
		return "-"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

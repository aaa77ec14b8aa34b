// Command ace is ACE's one binary: it edits decks from an instruction or a
// recipe, runs bulk migrations, workers and the embedded dev stack, and
// offers the domain tools (convert, render, diff, route, tools, report).
//
// Each subcommand lives in its own file and registers itself on rootCmd.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

var rootCmd = &cobra.Command{
	Use:   "ace",
	Short: "ACE, the agentic canvas editor: edit and migrate slide decks",
	Long: `ACE edits real slide decks (PPTX, Figma JSON, ACE scene-graph JSON) from a
natural-language instruction or a declarative migration recipe, checks its own
work by rendering and judging it, and runs thousands of decks as durable jobs.`,
	SilenceUsage:  true,
	SilenceErrors: true,
}

// exitError carries a process exit code through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// Exit codes: 0 ok, 1 failure, 2 bad input (usage, unreadable deck or recipe),
// 3 the edit ran but did not meet its goal (expectation failed, gate blocked).
const (
	exitFailure  = 1
	exitBadInput = 2
	exitNotMet   = 3
)

func badInput(err error) error { return &exitError{code: exitBadInput, err: err} }

func main() {
	if err := rootCmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "ace:", err)
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		os.Exit(exitFailure)
	}
}

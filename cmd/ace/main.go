// Command ace is ACE's one binary: it edits decks from an instruction or a
// recipe, runs bulk migrations, workers and the embedded dev stack, and
// offers the domain tools (convert, render, diff, route, tools, report).
//
// Each subcommand lives in its own file and registers itself on rootCmd.
package main

import (
	"github.com/acecanvas/ace/internal/policy"

	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

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
// 3 the edit ran but did not meet its goal; which outcomes give 0, 1 and 3
// is policy.Outcome.ExitCode, the one mapping (README: exit codes). 4 the embedded stack a batch had attached to stopped (its owner exited)
// and the batch could not carry on by taking it over (--no-workers, or the
// servers or workers would not start here; the same command resumes),
// 128+N stopped by signal N (130 for SIGINT, Ctrl-C; 143 for SIGTERM), the
// shell convention.
const (
	exitFailure   = policy.ExitFailure
	exitBadInput  = policy.ExitBadInput
	exitNotMet    = policy.ExitNotMet
	exitStackLost = 4
)

func badInput(err error) error { return &exitError{code: exitBadInput, err: err} }

// onInterrupt returns a context cancelled by the first SIGINT or SIGTERM and
// caught, which reports that signal (nil before one arrives). After the
// first signal the default handling is back, so a second Ctrl-C ends the
// process at once instead of waiting for the clean stop. stop releases the
// handler.
func onInterrupt(parent context.Context) (ctx context.Context, caught func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			got.Store(s)
			signal.Stop(ch)
			cancel()
		case <-done:
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
	caught = func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
	return ctx, caught, stop
}

// interrupted is the error for a command stopped by sig: exit 128+N and
// one line, "<what> interrupted (<signal>): <next>", where next says what
// became of the work and how to go on.
func interrupted(sig os.Signal, what, next string) error {
	code, name := 128+int(syscall.SIGINT), "SIGINT, Ctrl-C"
	if sig == syscall.SIGTERM {
		code, name = 128+int(syscall.SIGTERM), "SIGTERM"
	}
	return &exitError{code: code, err: fmt.Errorf("%s interrupted (%s): %s", what, name, next)}
}

// usageOnce installs the usage-error mapping on the whole command tree once.
var usageOnce sync.Once

// setupUsageErrors makes cobra's own input errors exit 2 like ours: a flag
// that does not parse or is unknown (FlagErrorFunc, inherited by every
// subcommand) and a wrong number of arguments (each command's Args
// validator, wrapped). Unknown commands are caught in exitCode. It runs
// after every file's init has registered its command.
func setupUsageErrors() {
	usageOnce.Do(func() {
		rootCmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
			return badInput(fmt.Errorf("%s: %w (see '%s --help')", c.CommandPath(), err, c.CommandPath()))
		})
		var wrap func(c *cobra.Command)
		wrap = func(c *cobra.Command) {
			if v := c.Args; v != nil {
				c.Args = func(c *cobra.Command, args []string) error {
					if err := v(c, args); err != nil {
						return badInput(fmt.Errorf("%s: %w; usage: %s (see '%s --help')", c.CommandPath(), err, c.UseLine(), c.CommandPath()))
					}
					return nil
				}
			}
			// A group such as "ace recipe" is not runnable, so cobra would
			// print its help and exit 0 for "ace recipe plna": make it
			// refuse an unknown subcommand and show help only when bare.
			if c.HasParent() && c.HasSubCommands() && !c.Runnable() {
				c.Args = cobra.ArbitraryArgs
				c.RunE = func(c *cobra.Command, args []string) error {
					if len(args) == 0 {
						return c.Help()
					}
					hint := ""
					if c.SuggestionsMinimumDistance <= 0 {
						c.SuggestionsMinimumDistance = 2 // cobra's default for the root
					}
					if s := c.SuggestionsFor(args[0]); len(s) > 0 {
						hint = fmt.Sprintf(" (did you mean %s?)", strings.Join(s, " or "))
					}
					return badInput(fmt.Errorf("unknown command %q for %q%s; run '%s --help' for its commands", args[0], c.CommandPath(), hint, c.CommandPath()))
				}
			}
			for _, sub := range c.Commands() {
				wrap(sub)
			}
		}
		wrap(rootCmd)
	})
}

// exitCode maps an error from rootCmd.Execute onto the documented exit
// codes: 0 ok, 1 failure, 2 bad input, 3 goal not met.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// cobra reports a mistyped subcommand from Command.Find with this
	// wording (cobra args.go legacyArgs) and no typed error.
	if strings.HasPrefix(err.Error(), "unknown command ") {
		return exitBadInput
	}
	return exitFailure
}

// execute runs the CLI with args and returns the process exit code,
// printing the error to stderr.
func execute(args []string, stdout, stderr io.Writer) int {
	setupUsageErrors()
	rootCmd.SetArgs(args)
	rootCmd.SetOut(stdout)
	rootCmd.SetErr(stderr)
	err := rootCmd.Execute()
	if err != nil {
		msg := err.Error()
		var ee *exitError
		if !errors.As(err, &ee) && strings.HasPrefix(msg, "unknown command ") {
			msg += "; run 'ace --help' for the commands"
		}
		fmt.Fprintln(stderr, "ace:", msg)
	}
	return exitCode(err)
}

func main() {
	os.Exit(execute(os.Args[1:], os.Stdout, os.Stderr))
}

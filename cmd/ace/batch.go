package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/acecanvas/ace/activities"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/outfile"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/recipe"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workers"
)

func init() {
	var (
		recipePath, instruction, outDir, batchID, format string
		tau                                              float64
		maxIter                                          int
		asJSON, noWorkers, force, useSkills, detach      bool
	)
	cmd := &cobra.Command{
		Use:   "batch [flags] DECK... ",
		Short: "Edit many decks as durable jobs (NATS JetStream + Temporal)",
		Long: `Publishes one job per deck to the ACE_JOBS stream, lets dispatchers start one
EditWorkflow per deck (workflow id <batch>:<deck>), follows the results on
ACE_EVENTS with a progress bar, and writes each edited deck plus summary.json
and summary.txt to the output directory.

DECK is a file (.pptx, ACE .json, Figma .json), a glob, or a manifest (.txt,
one path per line). With ACE_TEMPORAL_ADDRESS / ACE_NATS_URL empty, ace runs
an embedded Temporal server and NATS server with their state in ACE_DATA_DIR
(default ~/.ace), plus every worker, in this process: rerunning the same
command after a crash resumes the batch; no deck is edited twice. A failed
deck is reported with its reason and never stops the batch.

Exit codes: 0 every deck met its goal, 1 a deck failed, 2 bad input,
3 a deck ran but did not meet its goal, 4 the embedded stack this batch had
attached to stopped and it could not take it over (the same command resumes
the batch), 130 interrupted (Ctrl-C; 143 SIGTERM; the same command resumes
the batch).

Ctrl-C: when this process runs the workers (the default, self-hosted) the
decks pause with it and the same command resumes them. Attached to workers
elsewhere (ace dev, --no-workers, a cluster) the decks would go on without
it: ace asks whether to cancel its unfinished decks and says which it did;
--detach keeps them running without asking, and so does Ctrl-C with no
terminal to ask on (the default, said when it happens). ace batch watch
ID follows them from any terminal, ace batch cancel ID stops them.

Operating a batch from any terminal: ace batch list, show ID [DECK],
cancel ID [DECK...], retry ID (--failed | DECK...), watch ID, status ID
(each with --json). These names win over deck paths: a deck file named
"list" (or any of them) is passed as ./list.

Attached to another ace process's embedded stack (ace dev, or an earlier
ace batch on the same ACE_DATA_DIR), the batch notices within a second when
that process exits, starts the stack itself from the same data directory
(or attaches to the process that did so first), runs the workers and goes
on.`,
		Example: `  ace batch --recipe testdata/recipes/rebrand.yaml testdata/decks/*.pptx -o out/
  ace batch -i "Make every title navy" decks.txt -o out/
  ace batch list
  ace batch show b3f9c2a71d0e northwind-qbr
  ace batch cancel b3f9c2a71d0e northwind-qbr
  ace batch retry b3f9c2a71d0e --failed
  ace batch watch b3f9c2a71d0e
  ace batch --recipe r.yaml ./list     # a deck file named "list"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			paths, err := expandDecks(args)
			if err != nil {
				return badInput(err)
			}
			if (recipePath == "") == (instruction == "") {
				return badInput(errors.New("give exactly one of --recipe FILE or -i \"instruction\""))
			}
			// Checked here, not by every deck's export or loop after its
			// edit ran: the values the workers accept.
			format = strings.ToLower(format)
			if format != "" && format != "pptx" && format != "json" {
				return badInput(fmt.Errorf("--format %q: use pptx or json, or leave it out to keep each deck's own", format))
			}
			if tau < 0 || tau > 5 || maxIter < 0 {
				return badInput(fmt.Errorf("--tau %g --max-iterations %d: want --tau in 0..5 and --max-iterations of 1 or more (0, or leaving a flag out, means its default: 4 and 3)", tau, maxIter))
			}
			edit := workers.Edit{Instruction: instruction, Format: format,
				Options: &acev1.EditOptions{Tau: tau, MaxIterations: int32(maxIter), Skills: useSkills}}
			if useSkills && instruction == "" {
				return badInput(errors.New("--skills needs an instruction (-i): a recipe compiles to tool calls and asks no model"))
			}
			if recipePath != "" {
				abs, err := filepath.Abs(recipePath)
				if err != nil {
					return badInput(err)
				}
				if edit.RecipeData, err = os.ReadFile(abs); err != nil {
					return badInput(fmt.Errorf("recipe: %w", err))
				}
				// A recipe that does not parse would fail every deck the
				// same way: say so once, with its positions, and start nothing.
				if _, err := recipe.Parse(recipePath, edit.RecipeData); err != nil {
					return badInput(err)
				}
				edit.RecipePath = abs
			}
			ctx, caught, stop := onInterrupt(cmd.Context())
			defer stop()
			shutdown, err := workers.SetupTelemetry(ctx, "ace-batch")
			if err != nil {
				return err
			}
			defer shutdown(context.WithoutCancel(ctx))
			err = runBatch(ctx, paths, edit, batchID, outDir, asJSON, noWorkers, force, detach)
			if sig := caught(); sig != nil && err != nil {
				var bi *batchInterrupted
				if errors.As(err, &bi) {
					if bi.note != "" {
						return interrupted(sig, "batch "+bi.batch, fmt.Sprintf("%d of %d decks finished; %s", bi.finished, bi.total, bi.note))
					}
					return interrupted(sig, "batch "+bi.batch, fmt.Sprintf("%d of %d decks finished; run the same command again to resume (finished decks are not edited again)", bi.finished, bi.total))
				}
				return interrupted(sig, "batch", "run the same command again to go on (no deck is edited twice)")
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&recipePath, "recipe", "", "migration recipe (YAML); compiles to tool calls, no model needed")
	f.StringVarP(&instruction, "instruction", "i", "", "natural-language instruction (needs a model: OPENAI_BASE_URL, ACE_AGENT_MODEL)")
	f.StringVarP(&outDir, "out", "o", "out", "directory for edited decks and the summary")
	f.StringVar(&batchID, "batch", "", "batch id (default: derived from the decks and the edit, so a rerun resumes)")
	f.StringVar(&format, "format", "", "export format: pptx or json (default: each deck's own)")
	f.Float64Var(&tau, "tau", 0, "IF score that stops the loop, 0..5 (default 4)")
	f.IntVar(&maxIter, "max-iterations", 0, "iteration budget T (default 3)")
	f.BoolVar(&asJSON, "json", false, "print the summary as JSON on stdout")
	f.BoolVar(&noWorkers, "no-workers", false, "do not run workers in this process (they run elsewhere: ace dev, ace worker)")
	f.BoolVar(&useSkills, "skills", false, "use the skill bank (ace skills list) for each deck's edit and record the edits for ace skills evolve (the cluster's bucket bank)")
	f.BoolVar(&detach, "detach", false, "attached to workers elsewhere (ace dev, --no-workers, a cluster): on Ctrl-C keep the decks running without asking whether to cancel them")
	f.BoolVar(&force, "force", false, "replace symbolic links in the output directory with the files written there (the link itself, never the file it points to)")

	status := &cobra.Command{
		Use:     "status BATCH",
		Short:   "Show a batch's progress from any terminal",
		Example: "  ace batch status b3f9c2a71d0e --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			conn, err := workers.Connect(cmd.Context(), workers.ConfigFromEnv())
			if err != nil {
				return err
			}
			defer conn.Close()
			st, err := workers.Status(cmd.Context(), conn.JS, args[0])
			if err != nil {
				return err
			}
			if len(st.Decks) == 0 {
				return noBatchEvents(args[0], conn)
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
	status.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(status)
	addBatchOps(cmd)
	rootCmd.AddCommand(cmd)
}

// noBatchEvents is the error for a batch id with no events where conn
// looks: the embedded stack's data directory, or the NATS server that
// ACE_NATS_URL names (an embedded server's own URL is a fresh port each run
// and tells the user nothing).
func noBatchEvents(id string, conn *workers.Conn) error {
	where := fmt.Sprintf("ACE_NATS_URL=%s", workers.DisplayURL(conn.NATSURL))
	if workers.ConfigFromEnv().NATSURL == "" {
		where = fmt.Sprintf("the embedded stack in ACE_DATA_DIR=%s", conn.DataDir)
	}
	return badInput(fmt.Errorf("no events for batch %q in %s: check the id (ace batch prints it when it starts, and summary.json records it) or run with the ACE_DATA_DIR / ACE_NATS_URL the batch ran with", id, where))
}

// checkModel says once, before anything is published, what would fail every
// deck the same way on this process's own workers: an instruction, or a
// recipe step for the agent, without a model; a configured model endpoint
// that does not answer.
func checkModel(ctx context.Context, edit workers.Edit) error {
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		return nil // the workers report a bad configuration per deck
	}
	c, err := llm.New(cfg)
	if err != nil {
		return nil
	}
	if !c.HasModel(llm.RoleAgent) {
		_, why := c.Model(llm.RoleAgent)
		if edit.Instruction != "" {
			return badInput(fmt.Errorf("-i needs a model (%v); or use --recipe, which runs without one", why))
		}
		if steps := instructionSteps(edit.RecipePath, edit.RecipeData); len(steps) > 0 {
			return badInput(fmt.Errorf("recipe %s: %s is an instruction for the agent and needs a model (%v); configure one or remove the step", edit.RecipePath, steps[0], why))
		}
	}
	if c.HasModel(llm.RoleAgent) || c.HasModel(llm.RoleJudge) {
		if err := c.Reachable(ctx, 10*time.Second); err != nil {
			return badInput(fmt.Errorf("batch: %w", err))
		}
	}
	return nil
}

// instructionSteps names the steps of the recipe (YAML data) that are
// instructions for the agent ("step 2 (line 5)").
func instructionSteps(path string, data []byte) []string {
	if data == nil {
		return nil
	}
	r, err := recipe.Parse(path, data)
	if err != nil {
		return nil
	}
	var out []string
	for i, st := range r.Steps {
		if st.Instruction != "" {
			out = append(out, fmt.Sprintf("step %d (line %d)", i+1, st.Pos.Line))
		}
	}
	return out
}

// describeEditChange says which parts of a batch's edit differ between the
// earlier run (was) and this one (now), in the CLI's own terms.
func describeEditChange(parts []string, was, now workers.EditPrint) string {
	format := func(f string) string {
		if f == "" {
			return "each deck's own"
		}
		return f
	}
	var out []string
	for _, p := range parts {
		switch p {
		case "recipe":
			switch {
			case was.Recipe == "":
				out = append(out, "it ran -i, not --recipe")
			case now.Recipe == "":
				out = append(out, "it ran --recipe, not -i")
			default:
				out = append(out, "the recipe's contents differ")
			}
		case "instruction":
			if was.Instruction == "" || now.Instruction == "" {
				if was.Recipe != now.Recipe {
					continue // said with the recipe: one ran -i, the other --recipe
				}
			}
			out = append(out, "the -i instruction differs")
		case "format":
			out = append(out, fmt.Sprintf("--format was %s, now %s", format(was.Format), format(now.Format)))
		case "options":
			out = append(out, "--tau or --max-iterations differ")
		}
	}
	return strings.Join(out, "; ")
}

// checkOutDir refuses an output folder that holds one of the decks: the
// edited copies would replace the originals, which ACE never modifies.
func checkOutDir(outDir string, paths []string) error {
	out, err := filepath.Abs(outDir)
	if err != nil {
		return badInput(fmt.Errorf("output directory %s: %w", outDir, err))
	}
	outInfo, err := os.Stat(out)
	if err != nil {
		return nil // not there yet: it holds no deck
	}
	for _, p := range paths {
		dir, err := os.Stat(filepath.Dir(p))
		if err == nil && os.SameFile(dir, outInfo) {
			return badInput(fmt.Errorf("output directory %s holds the deck %s: the edited copy would replace the original; pass another -o", outDir, p))
		}
	}
	return nil
}

// checkOutLinks refuses, before any deck is edited, an output directory
// where a file the batch writes (an edited deck, summary.json, summary.txt,
// report.html, reports/) is a symbolic link: writing would change the
// link's target, a file nobody named as an output. --force replaces the
// links themselves.
func checkOutLinks(outDir string, paths []string) error {
	var names []string
	for _, n := range workers.OutputNamesFor(paths) {
		names = append(names, n+".pptx", n+".json")
	}
	names = append(names, "summary.json", "summary.txt", "report.html", "reports")
	sort.Strings(names)
	for _, n := range names {
		if err := outfile.CheckLink(filepath.Join(outDir, n)); err != nil {
			return badInput(fmt.Errorf("output directory: %w", err))
		}
	}
	return nil
}

// expandDecks turns arguments (files, globs, .txt manifests) into paths.
func expandDecks(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if strings.HasSuffix(a, ".txt") {
			f, err := os.Open(a)
			if err != nil {
				return nil, fmt.Errorf("manifest: %w", err)
			}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				if line != "" && !strings.HasPrefix(line, "#") {
					if !filepath.IsAbs(line) {
						line = filepath.Join(filepath.Dir(a), line)
					}
					out = append(out, line)
				}
			}
			f.Close()
			continue
		}
		matches, err := filepath.Glob(a)
		if err != nil {
			return nil, fmt.Errorf("deck pattern %q: %w", a, err)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("deck %s: no such file", a)
		}
		out = append(out, matches...)
	}
	return out, nil
}

func runBatch(ctx context.Context, paths []string, edit workers.Edit, batchID, outDir string, asJSON, noWorkers, force, detach bool) error {
	cfg := workers.ConfigFromEnv()
	conn, err := workers.Connect(ctx, cfg)
	if err != nil {
		return err
	}
	// conn and stopWorkers change when this batch takes over a stack whose
	// owner stopped: the latest are stopped, workers first.
	var stopWorkers func()
	// stopping is closed once the teardown started before the report
	// (stopBeforeReport) has finished.
	var stopping chan struct{}
	// starting delivers the activities (their browsers) made beside
	// PrepareJobs; awaitActivities takes them.
	var starting chan preparedActivities
	awaitActivities := func() preparedActivities {
		if starting == nil {
			return preparedActivities{}
		}
		a := <-starting
		starting = nil
		return a
	}
	release := func() {
		if a := awaitActivities(); a.close != nil {
			a.close()
		}
		if stopping != nil {
			<-stopping
			stopping = nil
		}
		if stopWorkers != nil {
			stopWorkers()
			stopWorkers = nil
		}
		if conn != nil {
			conn.Close()
			conn = nil
		}
	}
	defer release()
	if err := checkOutDir(outDir, paths); err != nil {
		return err
	}
	if !force {
		if err := checkOutLinks(outDir, paths); err != nil {
			return err
		}
	}
	ownWorkers := !noWorkers && conn.Stack != nil && conn.Stack.Owned
	if noWorkers && conn.Stack != nil && conn.Stack.Owned {
		// This process just started the embedded stack, so nobody else
		// serves it: the batch would wait for ever.
		return badInput(errors.New("--no-workers needs workers elsewhere: start `ace dev` (or `ace worker`) on this ACE_DATA_DIR first, or set ACE_TEMPORAL_ADDRESS and ACE_NATS_URL to a cluster that runs them"))
	}
	if ownWorkers {
		if err := checkModel(ctx, edit); err != nil {
			return err
		}
		// Chromium starts while the decks are read and stored (about a
		// second each, on different cores); the workers and the
		// dispatcher start once the input is known to be good, so a
		// refused batch id or unreadable decks start no work.
		starting = make(chan preparedActivities, 1)
		go func() {
			var a preparedActivities
			a.acts, a.close, a.err = workers.NewActivities(ctx, conn, workers.EditQueues, renderPoolSize)
			starting <- a
		}()
	}
	batch, jobs, err := workers.PrepareJobs(ctx, conn.Store, batchID, paths, edit)
	if err != nil {
		return badInput(err)
	}
	if batchID != "" {
		// A given id that already ran other decks would resume that batch
		// and hand back its results as this command's.
		if prev, err := workers.Status(ctx, conn.JS, batch); err == nil && len(prev.Decks) > 0 {
			now := map[string]string{}
			for _, j := range jobs {
				now[j.Key] = j.Path
			}
			for k, d := range prev.Decks {
				if p, ok := now[k]; !ok || (d.Path != "" && !sameFile(p, d.Path)) {
					return badInput(fmt.Errorf("batch id %s already ran other decks (%s from %s); pass another --batch, or omit it to derive the id from the decks and the edit", batch, k, d.Path))
				}
			}
			// The same decks with another edit would resume that batch too
			// and hand back the earlier edit's results. A batch submitted
			// before edit prints were recorded has none and resumes.
			if len(jobs) > 0 && prev.Edit != nil {
				if diff := prev.Edit.Differences(jobs[0].Edit); len(diff) > 0 {
					return badInput(fmt.Errorf("batch id %s already ran these decks with a different edit (%s): reusing the id would resume that batch and hand back its results; pass another --batch, or omit --batch to derive the id from the decks and the edit",
						batch, describeEditChange(diff, *prev.Edit, jobs[0].Edit)))
				}
			}
		}
	}
	var unreadable []string
	for _, j := range jobs {
		if j.ImportErr != nil {
			unreadable = append(unreadable, fmt.Sprintf("deck %s: %v", j.Path, j.ImportErr))
		}
	}
	if len(unreadable) == len(jobs) {
		return badInput(fmt.Errorf("no deck could be read:\n  %s", strings.Join(unreadable, "\n  ")))
	}
	for _, u := range unreadable {
		fmt.Fprintf(os.Stderr, "%s\n  (reported as failed; the batch goes on with the other decks)\n", u)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return badInput(fmt.Errorf("output directory: %w", err))
	}
	if ownWorkers {
		a := awaitActivities()
		if a.err != nil {
			return a.err
		}
		if stopWorkers, err = runLocalWorkers(ctx, conn, workers.EditQueues, a.acts, a.close, true); err != nil {
			return err
		}
	}
	if err := workers.Submit(ctx, conn.JS, batch, jobs); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "batch %s: %s (ace batch status %s)\n", batch, plural(len(jobs), "deck"), batch)
	keys := make([]string, len(jobs))
	for i, j := range jobs {
		keys[i] = j.Key
	}
	began := time.Now()
	prog := newProgress(os.Stderr, began)
	var (
		st   *workers.State
		ferr error
	)
	for {
		// Attached to another process's embedded stack (ace dev, another
		// ace batch), the batch would wait for ever once that process
		// stops: watch its lock and carry on without it.
		fctx, lost, stopWatch := workers.WatchOwner(ctx, conn, stackWatchPeriod)
		st, ferr = workers.Follow(fctx, conn.JS, batch, keys, prog.draw)
		stopWatch()
		gone := lost()
		if ferr == nil || ctx.Err() != nil || gone == nil {
			break
		}
		prog.finish()
		if conn, ownWorkers, err = carryOn(ctx, cfg, conn, gone, edit, noWorkers); err != nil {
			done, failed, _, _ := st.Counts()
			ferr = &stackLostError{batch: batch, lost: gone, why: err, finished: done + failed, total: len(st.Decks)}
			break
		}
		if ownWorkers {
			if stopWorkers, err = startLocalWorkers(ctx, conn, workers.EditQueues, true); err != nil {
				done, failed, _, _ := st.Counts()
				ferr = &stackLostError{batch: batch, lost: gone, why: fmt.Errorf("start workers: %w", err), finished: done + failed, total: len(st.Decks)}
				break
			}
			fmt.Fprintf(os.Stderr, "batch %s: the workers run in this process now; the batch goes on\n", batch)
		}
		// The jobs are in the durable stream and the started workflows in
		// Temporal's database; publishing them again is what rerunning
		// the command would do (duplicates are dropped by id), and covers
		// jobs the stopped owner had not taken yet.
		if err := workers.Submit(ctx, conn.JS, batch, jobs); err != nil {
			done, failed, _, _ := st.Counts()
			ferr = &stackLostError{batch: batch, lost: gone, why: err, finished: done + failed, total: len(st.Decks)}
			break
		}
	}
	prog.finish()
	var note string
	if ferr != nil && ctx.Err() != nil && !ownWorkers && st != nil {
		// Interrupted while the decks run on workers elsewhere: they go
		// on without this process unless cancelled.
		note = attachedInterrupt(conn, batch, st, detach)
	}
	var lostErr *stackLostError
	if errors.As(ferr, &lostErr) {
		// The store went with the stack: the edited decks cannot be
		// fetched now; the same command writes them when it resumes.
		return &exitError{code: exitStackLost, err: lostErr}
	}
	if ownWorkers && ferr == nil {
		// Results are published just before each workflow closes; let the
		// local workers close them before the embedded stack stops. A deck
		// resumed after a kill closes only once the dead worker's sticky
		// task has timed out, which on a loaded machine took over 15 s.
		workers.AwaitClosed(ctx, conn.Temporal, jobs, time.Minute)
	}
	sum, err := workers.Summarize(context.WithoutCancel(ctx), conn.Store, st, workers.Output{Dir: outDir, ReplaceLinks: force})
	if gone := workers.OwnerGone(conn); err != nil && gone != nil {
		// The owner stopped after the last result and before the edited
		// decks were fetched from its store: fetch them from the stack
		// of the same data directory.
		if conn, _, err = carryOn(ctx, workers.ConfigFromEnv(), conn, gone, workers.Edit{}, false); err != nil {
			done, failed, _, _ := st.Counts()
			return &exitError{code: exitStackLost, err: &stackLostError{batch: batch, lost: gone, why: err, finished: done + failed, total: len(st.Decks)}}
		}
		sum, err = workers.Summarize(context.WithoutCancel(ctx), conn.Store, st, workers.Output{Dir: outDir, ReplaceLinks: force})
	}
	if err != nil {
		return err
	}
	if err := sum.WriteFiles(outDir, force); err != nil {
		return err
	}
	written := 0
	for _, r := range sum.Rows {
		if r.Output != "" {
			written++
		}
	}
	// The report reads only the store: the workers (their browsers) and
	// Temporal stop while it is written, and NATS after it.
	stopping = stopBeforeReport(conn, stopWorkers)
	stopWorkers = nil
	if finished := sum.Done + sum.Failed; ferr != nil && finished == 0 {
		// Stopped before any deck finished: no edited deck and no report
		// page to point at (and no browser to start for one).
		fmt.Fprintf(os.Stderr, "batch %s: no deck finished yet, so %s has no edited deck and no report (summary.json lists the %s as they stand)\n",
			batch, outDir, plural(sum.Decks, "deck"))
	} else if index, err := writeBatchReport(context.WithoutCancel(ctx), conn.Store, st, sum, outDir, edit.Instruction, edit.RecipePath, edit.RecipeData, force); err != nil {
		fmt.Fprintf(os.Stderr, "batch %s: the HTML report could not be written: %v\n", batch, err)
	} else if ferr != nil {
		fmt.Fprintf(os.Stderr, "batch %s: %d of %d decks finished so far: %s and the report of those in %s (open %s)\n",
			batch, finished, sum.Decks, plural(written, "edited deck"), outDir, index)
	} else {
		fmt.Fprintf(os.Stderr, "batch %s: edited decks and report in %s (open %s)\n", batch, outDir, index)
	}
	// Nothing below needs the workers or the stack: stop them (browsers,
	// embedded servers) before the final table, so that the process exits
	// promptly after its last output (issue 20: within 2 s), instead of
	// printing the table and then spending seconds tearing down.
	release()
	if asJSON {
		json.NewEncoder(os.Stdout).Encode(sum)
	} else {
		sum.WriteTable(os.Stdout)
	}
	if ferr != nil {
		done, failed, _, _ := st.Counts()
		return &batchInterrupted{batch: batch, finished: done + failed, total: len(st.Decks), err: ferr, note: note}
	}
	for _, r := range sum.Rows {
		if r.NotWritten != "" {
			return &exitError{code: exitFailure, err: fmt.Errorf("batch %s: deck %s was edited but not written: %s", batch, r.Deck, r.NotWritten)}
		}
	}
	var outcomes []policy.Outcome
	for _, r := range sum.Rows {
		o, _ := policy.ParseOutcome(r.Outcome)
		outcomes = append(outcomes, o)
	}
	switch policy.BatchExitCode(outcomes) {
	case policy.ExitFailure:
		failed := fmt.Sprintf("%d of %d decks failed", sum.Failed, sum.Decks)
		if sum.Cancelled > 0 {
			failed += fmt.Sprintf(", %d cancelled", sum.Cancelled)
		}
		return &exitError{code: exitFailure, err: fmt.Errorf("batch %s: %s (see %s)", batch, failed, filepath.Join(outDir, "summary.txt"))}
	case policy.ExitNotMet:
		return &exitError{code: exitNotMet, err: fmt.Errorf("batch %s: some decks did not meet their goal (see %s)", batch, filepath.Join(outDir, "summary.txt"))}
	}
	return nil
}

// preparedActivities is what workers.NewActivities returned.
type preparedActivities struct {
	acts  *activities.Activities
	close func()
	err   error
}

// stopBeforeReport stops the workers (when stopWorkers is not nil) and then
// closes conn's Temporal client and the embedded Temporal server this
// process owns, in the background; the returned channel is closed when
// both are done. Stopping Temporal takes about a second, mostly the
// frontend's drain of open long polls, which the report's writing hides.
func stopBeforeReport(conn *workers.Conn, stopWorkers func()) chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if stopWorkers != nil {
			stopWorkers()
		}
		conn.CloseTemporal()
	}()
	return done
}

// stackWatchPeriod is how often an attached batch checks that the owner of
// its embedded stack still runs (WatchOwner).
const stackWatchPeriod = 500 * time.Millisecond

// takeoverTimeout bounds the wait for a stack to carry on with after the
// owner stopped: this process's own start of the servers (about a second)
// or another process's, whose stack file it reads.
const takeoverTimeout = time.Minute

// carryOn replaces old, attached to the stack whose owner stopped (gone),
// with a connection to the stack of the same data directory: taken over by
// this process (owned true: it must run the workers now) or by another
// process that took it first (owned false). With --no-workers this process
// may only attach. On error old is closed and no connection is left.
func carryOn(ctx context.Context, cfg workers.Config, old *workers.Conn, gone *workers.StackLost, edit workers.Edit, noWorkers bool) (*workers.Conn, bool, error) {
	old.Close() // an attached stack is not stopped; the clients are
	if noWorkers && gone.Holder == 0 {
		return nil, false, errors.New("--no-workers leaves nothing in this process to run the decks: start `ace dev` again (or drop --no-workers)")
	}
	if !noWorkers && gone.Holder == 0 {
		// What would fail every deck on this process's workers (an
		// instruction without a model) is said before taking over.
		if err := checkModel(ctx, edit); err != nil {
			return nil, false, err
		}
	}
	c, err := workers.Reconnect(ctx, cfg, gone, takeoverTimeout)
	if err != nil {
		return nil, false, err
	}
	owned := c.Stack != nil && c.Stack.Owned
	switch {
	case owned && noWorkers:
		c.Close()
		return nil, false, errors.New("--no-workers leaves nothing in this process to run the decks: start `ace dev` again (or drop --no-workers)")
	case owned:
		fmt.Fprintf(os.Stderr, "batch: %v; this process took the stack over from %s (temporal %s, nats %s)\n",
			gone, c.Stack.DataDir, c.Stack.Temporal, c.Stack.NATS)
	default:
		fmt.Fprintf(os.Stderr, "batch: %v; attached to the stack of ace pid %d, which took it over: the batch goes on\n", gone, c.Stack.PID)
	}
	return c, owned, nil
}

// stackLostError is runBatch's error when the embedded stack it had
// attached to stopped and it could not carry on (exit 4): the decks' state
// is safe in the data directory and the same command resumes the batch.
type stackLostError struct {
	batch           string
	lost            *workers.StackLost
	why             error
	finished, total int
}

func (e *stackLostError) Error() string {
	return fmt.Sprintf("batch %s: %v, and this process could not carry on: %v. %d of %d decks finished; their state is kept in %s: run the same command again to resume (finished decks are not edited again)",
		e.batch, e.lost, e.why, e.finished, e.total, e.lost.DataDir)
}

func (e *stackLostError) Unwrap() error { return e.why }

// batchInterrupted is runBatch's error when following the batch stopped
// before every deck finished (Ctrl-C): the decks go on in Temporal and the
// same command resumes the batch.
type batchInterrupted struct {
	batch           string
	finished, total int
	err             error
	// note says what became of the unfinished decks of a batch attached
	// to workers elsewhere (attachedInterrupt); "" when they pause with
	// this process's workers.
	note string
}

func (e *batchInterrupted) Error() string {
	return fmt.Sprintf("batch %s interrupted with %d of %d decks finished: run the same command again to resume (%v)", e.batch, e.finished, e.total, e.err)
}

func (e *batchInterrupted) Unwrap() error { return e.err }

// attachedInterrupt decides, after Ctrl-C, what becomes of the unfinished
// decks of a batch whose workers run elsewhere (ace dev, a cluster), and
// says it: --detach keeps them running; on a terminal the user is asked
// (default no: keep them); with no terminal on stdin nothing blocks and
// the documented default, keep them running, is taken. Cancelling is
// workers.CancelDecks.
func attachedInterrupt(conn *workers.Conn, batch string, st *workers.State, detach bool) string {
	var unfinished []string
	for _, k := range st.Keys() {
		if d := st.Decks[k]; d.Phase != acev1.Phase_PHASE_DONE && d.Phase != acev1.Phase_PHASE_FAILED {
			unfinished = append(unfinished, k)
		}
	}
	if len(unfinished) == 0 {
		return "no deck was left to run"
	}
	decks := plural(len(unfinished), "unfinished deck")
	kept := fmt.Sprintf("kept its %s running on the workers they run on (%s); ace batch watch %s follows them, ace batch cancel %s stops them",
		decks, strings.Join(unfinished, ", "), batch, batch)
	switch {
	case detach:
		return "--detach: " + kept
	case !term.IsTerminal(int(os.Stdin.Fd())):
		return "no terminal to ask whether to cancel them, so the default: " + kept
	}
	fmt.Fprintf(os.Stderr, "batch %s: cancel its %s (%s)? They keep running otherwise. [y/N] ", batch, decks, strings.Join(unfinished, ", "))
	answer, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		return kept
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	acts, err := workers.CancelDecks(ctx, conn, batch, unfinished)
	if err != nil {
		return fmt.Sprintf("cancelling them failed (%v); ace batch cancel %s tries again", err, batch)
	}
	var done, left []string
	for _, a := range acts {
		if a.Acted {
			done = append(done, a.Deck)
		} else {
			left = append(left, a.Deck+": "+a.Done)
		}
	}
	msg := fmt.Sprintf("cancelled %s (%s): each stops at its next step and is reported cancelled; the originals are untouched",
		plural(len(done), "deck"), strings.Join(done, ", "))
	if len(left) > 0 {
		msg += "; not cancelled: " + strings.Join(left, "; ")
	}
	return msg
}

// progress reports a batch's state on w: on a terminal it redraws one
// status line (a bar, counts and an ETA from the mean time per finished
// deck); into a file or a pipe (CI logs) it writes a plain line each time
// the counts change, so logs stay readable.
type progress struct {
	w     io.Writer
	tty   bool
	began time.Time
	last  string
}

// finish ends the redrawn status line on a terminal.
func (p *progress) finish() {
	if p.tty {
		fmt.Fprintln(p.w)
	}
}

func newProgress(f *os.File, began time.Time) *progress {
	return &progress{w: f, tty: term.IsTerminal(int(f.Fd())), began: began}
}

func (p *progress) draw(st *workers.State) {
	done, failed, running, queued := st.Counts()
	total := len(st.Decks)
	finished := done + failed
	eta := "?"
	if finished > 0 && finished < total {
		per := time.Since(p.began) / time.Duration(finished)
		eta = (per * time.Duration(total-finished)).Round(time.Second).String()
	} else if finished == total {
		eta = "0s"
	}
	counts := fmt.Sprintf("%d/%d done %d failed %d running %d queued", done, total, failed, running, queued)
	if !p.tty {
		if counts != p.last {
			p.last = counts
			fmt.Fprintf(p.w, "batch: %s, ETA %s\n", counts, eta)
		}
		return
	}
	const width = 30
	fill := 0
	if total > 0 {
		fill = finished * width / total
	}
	fmt.Fprintf(p.w, "\r[%s%s] %s  ETA %s   ", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), counts, eta)
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/workers"
)

type routeFlags struct {
	instruction string
	encoding    string
	jsonOut     bool
	noModel     bool
	noCache     bool
	printCtx    bool
}

func init() {
	var f routeFlags
	cmd := &cobra.Command{
		Use:   `route DECK -i "instruction"`,
		Short: "Show how CARE routes an instruction and what each context mode costs in tokens",
		Long: `Route runs the CARE router (ACE §3.2, Appendix B) on DECK (.pptx, ACE .json or
Figma .json) for the instruction and prints the decision (mode, target slides,
needs_image, reason) and the tokens of every mode's context against FULL with
the reduction in percent (tiktoken o200k_base by default, counted offline).

The heuristic router always runs; when a router model is configured
(ACE_ROUTER_MODEL, or ACE_JUDGE_MODEL / ACE_AGENT_MODEL, with OPENAI_BASE_URL
and OPENAI_API_KEY) one temperature-0 call refines mode and targets. Decisions
are cached in Redis when ACE_REDIS_URL is set (in process otherwise).

Slide numbers are 1-based everywhere in the output, text and --json
(decision.targetSlides and modes[].targetSlides). A slide number beyond the
deck is clamped to the last slide (ACE App. B.1) with a warning line.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRoute(cmd.Context(), cmd.OutOrStdout(), args[0], f)
		},
	}
	cmd.Flags().StringVarP(&f.instruction, "instruction", "i", "", "the editing instruction (required)")
	cmd.Flags().StringVar(&f.encoding, "encoding", route.O200K, "token encoding: o200k_base or cl100k_base")
	cmd.Flags().BoolVar(&f.jsonOut, "json", false, "print the decision and token counts as JSON")
	cmd.Flags().BoolVar(&f.noModel, "heuristic", false, "route with the heuristic only, even when a router model is configured")
	cmd.Flags().BoolVar(&f.noCache, "no-cache", false, "do not read or write the routing cache")
	cmd.Flags().BoolVar(&f.printCtx, "print-context", false, "also print the routed context")
	rootCmd.AddCommand(cmd)
}

// modeTokens is one row of the token table.
type modeTokens struct {
	Mode      route.Mode `json:"mode"`
	Tokens    int        `json:"tokens"`
	Reduction float64    `json:"reductionPct"` // vs FULL, percent
	// ReductionStored is against the deck as stored (its canonical
	// scene-graph JSON): the paper's "full deck" baseline, percent.
	ReductionStored float64 `json:"reductionVsStoredPct"`
	Targets         []int   `json:"targetSlides,omitempty"`
	Note            string  `json:"note,omitempty"`
}

// routeDecision is route.Decision as the CLI prints it: TargetSlides are
// 1-based slide numbers, like the text output and modes[].targetSlides
// (route.Decision's own are 0-based indexes).
type routeDecision struct {
	Mode         route.Mode `json:"mode"`
	TargetSlides []int      `json:"targetSlides"` // 1-based; empty = whole deck
	NeedsImage   bool       `json:"needsImage"`
	Reason       string     `json:"reason"`
	Source       string     `json:"source"`
}

func cliDecision(d route.Decision) routeDecision {
	return routeDecision{Mode: d.Mode, TargetSlides: oneBasedSlides(d.TargetSlides), NeedsImage: d.NeedsImage, Reason: d.Reason, Source: d.Source}
}

type routeReport struct {
	Deck     string        `json:"deck"`
	Slides   int           `json:"slides"`
	Decision routeDecision `json:"decision"`
	// Warnings: slide numbers the instruction names beyond the deck.
	Warnings []string `json:"warnings,omitempty"`
	Cached   bool     `json:"cached"`
	Encoding string   `json:"encoding"`
	// StoredTokens counts the deck's canonical scene-graph JSON.
	StoredTokens int          `json:"storedTokens"`
	Modes        []modeTokens `json:"modes"`
	Context      string       `json:"context,omitempty"`
}

func runRoute(ctx context.Context, w io.Writer, path string, f routeFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if strings.TrimSpace(f.instruction) == "" {
		return badInput(fmt.Errorf(`route: no instruction: pass -i "..."`))
	}
	if _, err := route.CountTokens("", f.encoding); err != nil {
		return badInput(fmt.Errorf("route: --encoding: %w", err))
	}
	d, _, err := loadDeck("route", path)
	if err != nil {
		return err
	}
	var cl route.Classifier
	if !f.noModel {
		if cfg, err := llm.ConfigFromEnv(); err == nil {
			if client, err := llm.New(cfg); err == nil && client.HasModel(llm.RoleRouter) {
				cl = &llm.Classifier{Client: client}
			}
		}
	}
	var c cache.Cache
	if !f.noCache {
		c = cache.New(ctx, workers.ConfigFromEnv().Redis)
		defer c.Close()
	}
	rep := routeReport{Deck: path, Slides: len(d.Slides), Encoding: f.encoding}
	decision, cached := route.RouteCached(ctx, c, "", f.instruction, d, cl)
	rep.Decision, rep.Cached = cliDecision(decision), cached
	rep.Warnings = clampWarnings(f.instruction, len(d.Slides), decision)

	full, err := contextTokens(d, route.Decision{Mode: route.Full}, f.encoding)
	if err != nil {
		return err
	}
	stored, err := scenegraph.Encode(d)
	if err != nil {
		return fmt.Errorf("route: encode %s: %w", path, err)
	}
	if rep.StoredTokens, err = route.CountTokens(string(stored), f.encoding); err != nil {
		return err
	}
	for _, m := range route.Modes {
		dec := route.Decision{Mode: m}
		if m == route.Micro || m == route.Macro {
			dec.TargetSlides = decision.TargetSlides
		}
		row := modeTokens{Mode: m, Targets: oneBasedSlides(dec.TargetSlides)}
		if m == route.Micro && len(dec.TargetSlides) == 0 {
			row.Note = "no target slides"
			rep.Modes = append(rep.Modes, row)
			continue
		}
		n := full
		if m != route.Full {
			if n, err = contextTokens(d, dec, f.encoding); err != nil {
				return err
			}
		}
		row.Tokens = n
		if full > 0 {
			row.Reduction = 100 * (1 - float64(n)/float64(full))
		}
		if rep.StoredTokens > 0 {
			row.ReductionStored = 100 * (1 - float64(n)/float64(rep.StoredTokens))
		}
		rep.Modes = append(rep.Modes, row)
	}
	if f.printCtx {
		rep.Context, err = route.Context(d, decision)
		if err != nil {
			return err
		}
	}
	if f.jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	printRoute(w, rep)
	return nil
}

func contextTokens(d *scenegraph.Deck, dec route.Decision, enc string) (int, error) {
	s, err := route.Context(d, dec)
	if err != nil {
		return 0, fmt.Errorf("route: %s context: %w", dec.Mode, err)
	}
	return route.CountTokens(s, enc)
}

func oneBasedSlides(idx []int) []int {
	out := make([]int, len(idx))
	for i, v := range idx {
		out[i] = v + 1
	}
	return out
}

func printRoute(w io.Writer, r routeReport) {
	dec := r.Decision
	targets := "whole deck"
	if len(dec.TargetSlides) > 0 {
		targets = "slides " + joinInts(dec.TargetSlides)
	}
	cached := ""
	if r.Cached {
		cached = " (cached)"
	}
	fmt.Fprintf(w, "deck:       %s (%d slides)\n", r.Deck, r.Slides)
	fmt.Fprintf(w, "decision:   %s on %s, needs_image=%v, by %s%s\n", dec.Mode, targets, dec.NeedsImage, dec.Source, cached)
	fmt.Fprintf(w, "reason:     %s\n", dec.Reason)
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "warning:    %s\n", warn)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "context tokens (%s); the deck as stored (scene-graph JSON) is %d tokens:\n", r.Encoding, r.StoredTokens)
	fmt.Fprintf(w, "  %-20s %9s  %8s  %9s\n", "mode", "tokens", "vs FULL", "vs stored")
	for _, m := range r.Modes {
		mark := ""
		if m.Mode == dec.Mode {
			mark = "  <- routed"
		}
		if m.Note != "" {
			fmt.Fprintf(w, "  %-20s %9s  %8s  %9s  (%s)%s\n", m.Mode, "-", "-", "-", m.Note, mark)
			continue
		}
		red := "0.0%"
		if m.Mode != route.Full {
			red = fmt.Sprintf("-%.1f%%", m.Reduction)
		}
		fmt.Fprintf(w, "  %-20s %9d  %8s  %8.1f%%%s\n", m.Mode, m.Tokens, red, -m.ReductionStored, mark)
	}
	if r.Context != "" {
		fmt.Fprintf(w, "\nrouted context:\n%s\n", r.Context)
	}
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// Slide numbers written with digits: "slide 12", "slides 3-14", "slides 2,
// 9 and 12", "page #7", "the 12th slide" (the digit forms of the router's
// extractor, internal/route/slideref.go).
var (
	reSlideNums = regexp.MustCompile(`(?i)\b(?:slides?|pages?)\s*(?:#|no\.?\s*|number\s*)?(\d+(?:\s*(?:,\s*(?:and\s+)?|and|&|or|-|–|—|to|through|thru)\s*(?:(?:slides?|pages?)\s*)?\d+)*)`)
	reSlideOrd  = regexp.MustCompile(`(?i)\b(\d+)(?:st|nd|rd|th)\s+(?:slides?|pages?)\b`)
	reDigits    = regexp.MustCompile(`\d+`)
)

// clampWarnings names the slide numbers the instruction mentions beyond a
// deck of n slides; the router clamps them to the last slide (ACE App.
// B.1), which the user should know about. dec is the router's decision.
func clampWarnings(instruction string, n int, dec route.Decision) []string {
	var beyond []int
	for _, m := range reSlideNums.FindAllStringSubmatch(instruction, -1) {
		for _, tok := range reDigits.FindAllString(m[1], -1) {
			if v, err := strconv.Atoi(tok); err == nil && v > n {
				beyond = append(beyond, v)
			}
		}
	}
	for _, m := range reSlideOrd.FindAllStringSubmatch(instruction, -1) {
		if v, err := strconv.Atoi(m[1]); err == nil && v > n {
			beyond = append(beyond, v)
		}
	}
	slices.Sort(beyond)
	beyond = slices.Compact(beyond)
	var out []string
	for _, v := range beyond {
		what := "no slide was targeted for it"
		if slices.Contains(dec.TargetSlides, n-1) {
			what = fmt.Sprintf("it was clamped to slide %d", n)
		}
		out = append(out, fmt.Sprintf("the instruction names slide %d but the deck has %s; %s (slides are 1-based)", v, plural(n, "slide"), what))
	}
	return out
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/workers"
)

// skillsCmd is the "ace skills" group; each subcommand registers itself
// on it (skills.go: list, show, diff, history, revert).
var skillsCmd = &cobra.Command{
	Use:   "skills",
	Short: "Inspect and revert the skill bank (SKILL.md procedures the agent retrieves)",
	Long: `skills works on the skill bank: the versioned SKILL.md procedures ACE's agent
retrieves per request (Designer-RSI). Every version is kept; the current one
is the highest.

The bank is, in order: the folder --bank DIR; with ACE_NATS_URL set, the
cluster's JetStream key/value bucket "ace-skills" on that server; else the
folder $ACE_DATA_DIR/skills (~/.ace/skills by default). Opening a bank adds
the seed skills built into ace that it does not have yet, as version 1.`,
}

// skillsBank is --bank.
var skillsBank string

func init() {
	skillsCmd.PersistentFlags().StringVar(&skillsBank, "bank", "", "the skill bank folder (default: the cluster bucket when ACE_NATS_URL is set, else $ACE_DATA_DIR/skills)")
	rootCmd.AddCommand(skillsCmd)

	var listJSON bool
	list := &cobra.Command{
		Use:     "list",
		Short:   "List the skills: version, status, failures and successes, quality EMA",
		Args:    cobra.NoArgs,
		Example: "  ace skills list\n  ace skills list --json\n  ace skills list --bank ./skills",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withSkillBank(cmd, func(ctx context.Context, b *skills.Bank, where string) error {
				return runSkillsList(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr(), b, where, listJSON)
			})
		},
	}
	list.Flags().BoolVar(&listJSON, "json", false, "print every skill with its stats as JSON")

	show := &cobra.Command{
		Use:     "show NAME[@VERSION]",
		Short:   "Print a skill's SKILL.md (the current version, or VERSION)",
		Args:    cobra.ExactArgs(1),
		Example: "  ace skills show table-cell-edits\n  ace skills show table-cell-edits@1",
		RunE: func(cmd *cobra.Command, args []string) error {
			return withSkillBank(cmd, func(ctx context.Context, b *skills.Bank, where string) error {
				s, err := skillAt(ctx, b, where, args[0])
				if err != nil {
					return err
				}
				_, err = cmd.OutOrStdout().Write(s.Format())
				return err
			})
		},
	}

	diff := &cobra.Command{
		Use:   "diff NAME A B | diff NAME@A NAME@B",
		Short: "Print the unified line diff between two versions of a skill",
		Long: `diff prints what changed in SKILL.md from version A to version B, as diff -u
does. A version is a number, with or without a leading "v"; NAME alone (in the
second form) is the current version.`,
		Args:    cobra.RangeArgs(2, 3),
		Example: "  ace skills diff table-cell-edits 1 2\n  ace skills diff table-cell-edits@1 table-cell-edits",
		RunE: func(cmd *cobra.Command, args []string) error {
			refs := args
			if len(args) == 3 {
				if strings.Contains(args[0], "@") {
					return badInput(fmt.Errorf("skills diff: write NAME A B or NAME@A NAME@B, not %q", strings.Join(args, " ")))
				}
				refs = []string{args[0] + "@" + args[1], args[0] + "@" + args[2]}
			}
			return withSkillBank(cmd, func(ctx context.Context, b *skills.Bank, where string) error {
				from, err := skillAt(ctx, b, where, refs[0])
				if err != nil {
					return err
				}
				to, err := skillAt(ctx, b, where, refs[1])
				if err != nil {
					return err
				}
				fromName := fmt.Sprintf("%s@v%d", from.Name, from.Version)
				toName := fmt.Sprintf("%s@v%d", to.Name, to.Version)
				d := skills.LineDiff(string(from.Format()), string(to.Format()), fromName, toName)
				if d == "" {
					fmt.Fprintf(cmd.ErrOrStderr(), "%s and %s have the same text\n", fromName, toName)
					return nil
				}
				_, err = io.WriteString(cmd.OutOrStdout(), d)
				return err
			})
		},
	}

	var historyJSON bool
	history := &cobra.Command{
		Use:     "history NAME",
		Short:   "List a skill's versions (seed, rewrite, mint, revert...: why, which round, when) and its replay-gate runs, rejected ones included",
		Args:    cobra.ExactArgs(1),
		Example: "  ace skills history table-cell-edits",
		RunE: func(cmd *cobra.Command, args []string) error {
			return withSkillBank(cmd, func(ctx context.Context, b *skills.Bank, where string) error {
				name, v, err := parseSkillRef(args[0])
				if err != nil {
					return err
				}
				if v != 0 {
					return badInput(fmt.Errorf("skills history takes a skill NAME, not a version (%q)", args[0]))
				}
				h, err := b.History(ctx, name)
				if errors.Is(err, skills.ErrNotFound) {
					return unknownSkill(ctx, b, where, name)
				}
				if err != nil {
					return err
				}
				if err := printSkillHistory(cmd.OutOrStdout(), h, historyJSON); err != nil || historyJSON {
					return err
				}
				logs, err := b.GateLogs(ctx, "")
				if err != nil {
					return err
				}
				return printGateRuns(cmd.OutOrStdout(), name, logs)
			})
		},
	}
	history.Flags().BoolVar(&historyJSON, "json", false, "print the changes as JSON")

	var reason string
	revert := &cobra.Command{
		Use:   "revert NAME@VERSION",
		Short: "Make VERSION's text the skill's new current version",
		Long: `revert commits the text of an earlier version as a new version (current + 1),
so history keeps every version and the revert itself can be reverted. It
fails, changing nothing, if another process commits a version meanwhile.`,
		Args:    cobra.ExactArgs(1),
		Example: "  ace skills revert table-cell-edits@1 --reason \"v2 drops the header rule\"",
		RunE: func(cmd *cobra.Command, args []string) error {
			name, v, err := parseSkillRef(args[0])
			if err != nil {
				return err
			}
			if v == 0 {
				return badInput(fmt.Errorf("skills revert needs the version to go back to: NAME@VERSION, e.g. %s@1 (see ace skills history %s)", name, name))
			}
			return withSkillBank(cmd, func(ctx context.Context, b *skills.Bank, where string) error {
				cur, err := skillAt(ctx, b, where, name)
				if err != nil {
					return err
				}
				if _, err := skillAt(ctx, b, where, args[0]); err != nil {
					return err
				}
				if v == cur.Version {
					return badInput(fmt.Errorf("%s v%d is already the current version; name an earlier one (see ace skills history %s)", name, v, name))
				}
				s, err := b.Revert(ctx, name, v, reason)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: v%d now holds v%d's text (status %s; v%d was current). See the change: ace skills diff %s %d %d\n",
					name, s.Version, v, s.Status, cur.Version, name, cur.Version, s.Version)
				return nil
			})
		},
	}
	revert.Flags().StringVar(&reason, "reason", "", "why, for the history")

	skillsCmd.AddCommand(list, show, diff, history, revert)
}

// withSkillBank opens the bank the command names (--bank, ACE_NATS_URL,
// ACE_DATA_DIR), runs fn on it and closes it.
func withSkillBank(cmd *cobra.Command, fn func(ctx context.Context, b *skills.Bank, where string) error) error {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	b, where, closeBank, err := openSkillBank(ctx, skillsBank)
	if err != nil {
		return err
	}
	defer closeBank()
	return fn(ctx, b, where)
}

// openSkillBank opens the CLI's skill bank: the folder dir when given;
// else, with ACE_NATS_URL set, the bucket skills.Bucket on that server;
// else the folder $ACE_DATA_DIR/skills. It returns the bank, where it is
// (for messages) and the function that releases it.
func openSkillBank(ctx context.Context, dir string) (*skills.Bank, string, func(), error) {
	cfg := workers.ConfigFromEnv()
	if dir == "" && cfg.NATSURL != "" {
		nc, err := workers.ConnectNATS(cfg, "ace skills", 5*time.Second)
		if err != nil {
			return nil, "", nil, fmt.Errorf("skill bank: %w (or pass --bank DIR for a folder)", err)
		}
		js, err := jetstream.New(nc)
		if err != nil {
			nc.Close()
			return nil, "", nil, err
		}
		kv, err := skills.OpenBucket(ctx, js, "")
		if err != nil {
			nc.Close()
			return nil, "", nil, err
		}
		where := fmt.Sprintf("bucket %s at %s", skills.Bucket, workers.DisplayURL(cfg.NATSURL))
		b, err := skills.Open(ctx, skills.NATSObjects(kv))
		if err != nil {
			nc.Close()
			return nil, "", nil, fmt.Errorf("skill bank in %s: %w", where, err)
		}
		return b, where, nc.Close, nil
	}
	if dir == "" {
		dir = filepath.Join(cfg.DataDir, "skills")
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, "", nil, badInput(fmt.Errorf("skill bank %s is a file; --bank names a folder", dir))
	}
	b, err := skills.Open(ctx, skills.DirObjects(dir))
	if err != nil {
		return nil, "", nil, fmt.Errorf("skill bank in %s: %w", dir, err)
	}
	return b, dir, func() {}, nil
}

// parseSkillRef splits NAME[@VERSION] (VERSION a number, "v" optional);
// version 0 means the current one.
func parseSkillRef(ref string) (string, int, error) {
	name, ver, hasVer := strings.Cut(ref, "@")
	if !skills.ValidName(name) {
		return "", 0, badInput(fmt.Errorf("%q is not a skill: write NAME or NAME@VERSION, e.g. table-cell-edits@2 (names are lowercase words joined by \"-\")", ref))
	}
	if !hasVer {
		return name, 0, nil
	}
	v, err := strconv.Atoi(strings.TrimPrefix(ver, "v"))
	if err != nil || v < 1 {
		return "", 0, badInput(fmt.Errorf("%q: the version after \"@\" is a number from 1, e.g. %s@2", ref, name))
	}
	return name, v, nil
}

// skillAt resolves NAME[@VERSION] in b; an unknown skill or version is
// bad input naming what the bank has.
func skillAt(ctx context.Context, b *skills.Bank, where, ref string) (skills.Skill, error) {
	name, v, err := parseSkillRef(ref)
	if err != nil {
		return skills.Skill{}, err
	}
	vs, err := b.Versions(ctx, name)
	if err != nil {
		return skills.Skill{}, err
	}
	if len(vs) == 0 {
		return skills.Skill{}, unknownSkill(ctx, b, where, name)
	}
	if v == 0 {
		v = vs[len(vs)-1]
	}
	s, err := b.Version(ctx, name, v)
	if errors.Is(err, skills.ErrNotFound) {
		return skills.Skill{}, badInput(fmt.Errorf("skill %s has no version %d; its versions are %s", name, v, versionList(vs)))
	}
	return s, err
}

func versionList(vs []int) string {
	if len(vs) == 1 {
		return "v1"
	}
	return fmt.Sprintf("v%d to v%d", vs[0], vs[len(vs)-1])
}

// unknownSkill is the bad-input error for a name the bank lacks, listing
// the names it has.
func unknownSkill(ctx context.Context, b *skills.Bank, where, name string) error {
	all, err := b.List(ctx)
	if err != nil {
		return err
	}
	var names []string
	for _, s := range all {
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return badInput(fmt.Errorf("no skill %q: the bank in %s is empty", name, where))
	}
	return badInput(fmt.Errorf("no skill %q in the bank in %s; its skills: %s", name, where, strings.Join(names, ", ")))
}

// skillEntry is one skill of `ace skills list --json`.
type skillEntry struct {
	Name          string        `json:"name"`
	Version       int           `json:"version"`
	Status        skills.Status `json:"status"`
	Description   string        `json:"description"`
	ToolSequence  []string      `json:"toolSequence"`
	Prerequisites []string      `json:"prerequisites,omitempty"`
	Stats         skills.Stats  `json:"stats"`
}

func runSkillsList(ctx context.Context, stdout, stderr io.Writer, b *skills.Bank, where string, asJSON bool) error {
	all, err := b.List(ctx)
	if err != nil {
		return err
	}
	entries := make([]skillEntry, 0, len(all))
	for _, s := range all {
		st, err := b.Stats(ctx, s.Name)
		if err != nil {
			return err
		}
		entries = append(entries, skillEntry{s.Name, s.Version, s.Status, s.Description, s.ToolSequence, s.Prerequisites, st})
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(entries)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tSTATUS\tFAILS/SUCCESSES\tEMA\tDESCRIPTION")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\tv%d\t%s\t%d/%d\t%.2f\t%s\n", e.Name, e.Version, e.Status,
			e.Stats.Fails, e.Stats.Successes, e.Stats.QualityEMA, gist(e.Description, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%s in %s\n", plural(len(entries), "skill"), where)
	return nil
}

// gist cuts a description to at most n bytes at a comma or space, adding
// "..." when it cut.
func gist(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := s[:n]
	if i := strings.LastIndex(cut, ","); i > n/2 {
		cut = cut[:i]
	} else if i := strings.LastIndex(cut, " "); i > 0 {
		cut = cut[:i]
	}
	return cut + "..."
}

func printSkillHistory(w io.Writer, h []skills.Change, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(h)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VERSION\tKIND\tROUND\tWHEN (UTC)\tREASON")
	for _, c := range h {
		when, round := "-", c.Round
		if c.AtUnixMS != 0 {
			when = time.UnixMilli(c.AtUnixMS).UTC().Format("2006-01-02 15:04:05")
		}
		if round == "" {
			round = "-"
		}
		fmt.Fprintf(tw, "v%d\t%s\t%s\t%s\t%s\n", c.Version, c.Kind, round, when, c.Reason)
	}
	return tw.Flush()
}

// printGateRuns lists the replay-gate runs of skill name, accepted or
// not: a rejected rewrite or mint leaves no version, so this is where
// it shows (Designer-RSI App. F: rejections are logged).
func printGateRuns(w io.Writer, name string, logs []skills.GateLog) error {
	var mine []skills.GateLog
	for _, g := range logs {
		if g.Skill == name {
			mine = append(mine, g)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nreplay-gate runs (%d):\n", len(mine))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ROUND\tKIND\tVERDICT\tWHEN (UTC)\tPER-RECORD r\tREASON")
	for _, g := range mine {
		verdict := "rejected"
		if g.Accepted {
			verdict = "accepted"
		}
		var rs []string
		for _, r := range g.Records {
			rs = append(rs, fmt.Sprintf("%.2f", r.R))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", g.Round, g.Kind, verdict,
			time.UnixMilli(g.AtUnixMS).UTC().Format("2006-01-02 15:04:05"), strings.Join(rs, " "), g.Reason)
	}
	return tw.Flush()
}

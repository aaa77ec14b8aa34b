// Package critic is ACE's critic and its issue ledger: ReDeck's Adaptive
// Deck Critic (paper §3.3-3.4, App. M and Q; spec
// ../shared/spec/REDECK-AND-DESIGNER-RSI.md part B, B2 "Critic and
// scheduler", B3, B4; issue 15) adapted to editing decks someone else made.
//
// The parts:
//
//   - The probe library (probes.yaml, embedded; probes.go): 40 check groups
//     written by the project for edits, in ReDeck's six families: geometry
//     (B_geom), completeness (C), correctness (D), fidelity to the original
//     content (E), narrative (A) and visual (B_visual). Geometry checks are
//     geometric: each reads one violation kind of internal/render, so they
//     are deterministic and cost no model call. The others are model
//     checks, 3-8 per group as in App. M. ParseLibrary validates a library
//     (unique ids, every family, every renderer kind read by exactly one
//     check).
//
//   - The ledger (ledger.go): the persistent issue list L of one edit.
//     An issue has an id, family, slide, check id, evidence (text, node
//     ids, boxes), a status (open, resolved, regressed, persisted,
//     dropped), hard or soft, and the turns it was opened, last checked and
//     last changed. Ledger.Apply computes the status transitions of a turn;
//     the ledger is plain JSON for workflow payloads and deterministic.
//     Hard families are geometry, completeness and correctness, following
//     App. Q's gate sentence ("hard families B_geom, C, D fail the
//     submission gate"); see Family.Hard for the ambiguity. Dropped means
//     the issue's slide was deleted (App. Q: "no longer detected, not
//     explicitly addressed", which in an edit is a deleted slide).
//
//   - The scheduler (scheduler.go): 3-5 model checks per turn (App. M),
//     always re-checking every active issue on a modified slide with its
//     own check, otherwise ranked by the turn's edit aspects (EditsOf, read
//     from JsonDiff), regression history and the need to re-check resolved
//     issues on slides edited again. Checks of one group share one model
//     call. Geometric checks run on every rendered slide (spec C.5).
//
//   - The critic (critic.go): Critic.Turn runs a turn. Each group call gets
//     the instruction, the slide list, the group's picked checks with the
//     slides to examine, and the JsonDiff text as the IF judge gets it
//     (internal/diff; renders only for visual groups), and answers strict
//     JSON per check (pass/fail, slide, nodes, evidence). An unusable answer
//     is retried once and then recorded as a problem, its checks skipped
//     and their issues persisted (App. I; as internal/judge does, through
//     llm.Client.ChatJSON). Calls use the judge role and model
//     (ACE_JUDGE_MODEL). Only violations the origin did not have become
//     geometry issues: existing defects of the deck are not the edit's.
//
//   - Waivers (waiver.go): Critic.Waive lets a hard violation through the
//     gate only when the instruction itself requires it (issue 15: "rotate
//     by 45 degrees" past the slide edge; "put the picture behind the
//     title"): the model must quote the instruction, and the package checks
//     that the quote occurs verbatim and that the violation lies on nodes
//     the edit touched. Granted waivers live in the ledger; the gate counts
//     Ledger.Unwaived violations.
//
//   - Feedback (feedback.go): the next iteration's text for the agent, the
//     active issues (kind, slide, node ids, evidence) plus the IF critique.
//
// Only the critic writes the ledger (ReDeck §3.4); the loop
// (internal/editloop) calls Critic.Turn once per turn, Critic.Waive when
// the gate finds a violation, and hands Feedback to the agent.
package critic

// Package coldstart builds ACE's first skill bank from its own
// documentation (Designer-RSI App. G, spec part A "Cold start"):
//
//  1. Pages: docs/tools.md (as the live registry writes it: one page per
//     tool) and guides such as docs/recipes.md (one page per "## "/"### "
//     section) are cut into pages with stable ids ("tools/set_text_font",
//     "recipes/selectors") and deduplicated (SplitMarkdown, Dedup).
//  2. Themes: one model call (JSON answer, one retry when unusable) reads
//     every page's id, title and first sentence and proposes 20-30 themes,
//     each with a user-worded description and keywords (ParseThemes).
//  3. Assignment, no model: each theme gets at most PagesPerTheme pages
//     by skills.Overlap of the shared tokenizer's tokens plus a bonus for
//     the page title's words (Assign; the
//     constants there are ours, the paper leaves N open).
//  4. Generation: one call per theme, in order, shows the theme, its
//     pages, the tool whitelist (the tools those pages document or name,
//     plus the read-only tools and batch_execute) and the bank so far as
//     dedup context; the answer is a SKILL.md or "NO_SKILL: why".
//  5. Validation, no model: skills.Parse, skills.Validate against the live
//     tool names and the bank so far, and the whitelist (Check). A refused
//     answer is retried once with its problems listed, then dropped and
//     reported.
//
// The output is a folder of NAME/SKILL.md for a person to review; the
// reviewed files become internal/skills/seed. `ace skills seed` runs it.
package coldstart

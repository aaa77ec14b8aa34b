// Package diff is JsonDiff: the structural edit trace between the origin deck
// D0 and the current deck, the input of the instruction-following judge.
//
// Source: ACE paper, Appendix E. The diff compares origin against current
// (never against a ground truth), so every entry reads as "what the agent
// changed": Added, Removed, Modified, plus moved (re-parenting),
// slide_reorder, z_order and row_reorder (table rows) entries.
//
// Alignment (App. E.2): slides by stable id; the children of a matched pair
// by the cascade (0) stable id, (1) unique layer name, (2) text content,
// (3) type and order. A node whose id lives under another parent on the other
// side is one `moved` entry, not a remove plus an add (App. E.5).
//
// Compared properties (App. E.3): characters; fontFamily (all three script
// slots), fontSize, fontWeight, fontStyle, textAlignHorizontal,
// letterSpacing, lineHeight, textCase, textDecoration, text colour; the
// bounding box in slide-local px; rotation, opacity, visibility; fills,
// strokes, effects; children; per-character style overrides; slide
// transitions. ACE's scene graph holds more than the Figma export the paper
// diffed, so the diff also compares chart data, table grids, auto-layout,
// corner radii, hyperlinks, alt text, LaTeX, paragraph lists and alignment,
// and slide background, visibility, layout and notes; an edit to any of them
// would otherwise be invisible to the judge.
//
// Normalization (App. E.4): equivalent node types (FRAME, GROUP, SECTION,
// COMPONENT, INSTANCE are one class); empty text forms ("", "None", "null")
// are one; geometry is compared in slide-local coordinates; numbers within
// +-1% relative (plus 0.5 px / 0.5 degree absolute, below EMU rounding) are
// equal; colour channels within 0.01 absolute are equal.
//
// Post-processing (App. E.5): the four per-axis box deltas of a node are one
// `bbox` entry; edits of same-named siblings with the same result collapse
// into one entry "applied to N same-named siblings"; the similarity score is
// 1 - d/(d+100) with d the distinct edits; at most MaxEntries are kept.
package diff

// Package render turns a scene-graph deck into pixels and measured geometry:
// it writes each slide as HTML/CSS (HTML, pure and testable without a
// browser), lays it out and paints it in headless Chromium through a bounded
// pool of reused tabs (Pool), reads back the absolute bounds of every node,
// text line counts and overflow, and derives the layout violations V(deck) of
// the ReDeck B_geom family (Violation, DeltaViol, Gate).
//
// Where the rules come from:
//   - Auto-layout maps onto CSS flexbox as Figma documents its frames: HUG is
//     fit-content, FILL is flex-grow (primary axis) or stretch (counter axis),
//     FIXED keeps Size, SPACE_BETWEEN ignores itemSpacing, ABSOLUTE children
//     leave the flow (Figma REST API, FrameNode).
//   - Units are CSS px at 96 dpi (DESIGN.md §3); a slide is Deck.Width x
//     Deck.Height px.
//   - The violation kinds, the baseline-relative gate ρ = 1[Δviol ≤ 0] and the
//     "new violations == 0" rule follow ReDeck §3.2 and App E as summarised in
//     shared/spec/REDECK-AND-DESIGNER-RSI.md (B2, B4, C.2). The papers leave
//     the tolerances unspecified; ours are constants in violations.go, each
//     documented there.
//   - Contrast is the WCAG 2.x relative-luminance ratio (SC 1.4.3): 4.5:1, or
//     3:1 for large text (at least 18 pt, or 14 pt bold), measured against
//     the pixels rendered under the glyphs with every text hidden, so
//     photos, gradients, table cell fills and layout art count as a reader
//     sees them (contrast.go).
//
// Security: deck content never becomes markup. Every string is HTML-escaped,
// font names and path data are filtered to safe alphabets, images become
// data: URIs built from asset bytes with an allow-listed MIME type, and the
// browser's network is closed twice: a Content-Security-Policy in the shell
// page and Fetch-domain interception that fails every request whose URL is
// not data: or blob:.
package render

package route

import "fmt"

// ModeBlock is the short prose the agent's prompt puts before the routed
// context, saying what the context holds and how to read it (ACE App.
// Q.1.1, Listings 7-10; our wording).
func ModeBlock(mode Mode, slideCount int) string {
	switch mode {
	case Micro:
		return `Context mode: MICRO_SPATIAL (targeted editing).
The JSON below is the full scene graph of the target slide(s); every other slide is listed by id and number (i), with its name when it has one.
Each node's x, y, w, h is its box in px with x and y relative to its PARENT; a rotated node has rot (degrees clockwise about the box's centre) and x, y, w, h is its unrotated box. move_node and resize_node take these parent-relative values (for a rotated node, the unrotated box), so derive them from x/y, not from slide positions.
Keys: t type, n name, i slide number, bg slide background, ph placeholder role (title, body, ...), txt characters, font "family size weight", color text colour, align horizontal alignment (left when absent), tstyle more text style (case, decoration, ls letter spacing, lh line height, sup/sub, v: vertical anchor, top when absent, link), runs per-character style overrides [s, e), paras one entry per paragraph ("ul" bulleted with its bullet, "ol" numbered, l1 indent level, sp before/after px, lh line spacing, bu bullet size and colour), textbox (autoresize mode, nowrap, inset top right bottom left px, cols), fill/stroke colours "#RRGGBB" (=token when bound to a theme colour), img picture fill, op opacity, fx effects, radius corner radius, flip mirrored, clip clips its children, layout auto-layout (mode gap pad top right bottom left, main/cross alignment), sizing FILL/HUG per axis, kids children; a slide's notes are its speaker notes.
Every length and font size is in px (96 per inch; 1 pt = 4/3 px, so 18 pt = 24 px); tools take px numbers or strings such as "18pt".
The whole deck is loaded: reference any node by id; use the get_* tools for slides not shown.`
	case Macro:
		return `Context mode: MACRO_PROGRAMMATIC (batch operations).
The JSON below is a skeleton of the whole deck: node ids, types, names and text, with typography. Colours, fills and strokes are left out.
How to read it: a node without t is a TEXT node; f is a key into the fonts table ("family size weight", size in px; 1 pt = 4/3 px); runs are [start, end, font key] overrides on character offsets; ph is a placeholder role. A table lists rows of cells as [id, text] or [id, text, font key], with the cells' usual font as the table's f (a table with merged cells lists its cells as nodes with cell = [row, column]). A node with "+": N has N descendants without any text (icons, decorations) that are not listed. A slide's notes are its speaker notes (cut at 300 characters; get_node_info of the slide gives them whole).
Nodes on target slides carry b = [x, y, w, h], their box in slide coordinates (px), for reasoning about layout and overlap; a rotated node also has rot (degrees clockwise about the centre of b, its unrotated box).
Find EVERY node the instruction applies to and emit a tool call for each; batch them in one batch_execute.
The whole deck is loaded: reference any node by id; use get_node_info when you need a colour, a box or a folded node the skeleton omits.`
	case Systemic:
		return `Context mode: SYSTEMIC_TOKEN (design-token operations).
The JSON below summarises the deck's design system: theme colours and fonts, every colour in use (as fill, stroke, text or slide background) and every font, with the slides that use them.
Prefer replace_color for deck-wide colour changes and set_text_font for typeface changes; target colours and fonts by value rather than listing nodes.
Slides are given by 1-based number. The whole deck is loaded: get_all_slides lists slide ids; use the get_* tools to inspect nodes.`
	case Full:
		return `Context mode: FULL.
The JSON below is the whole deck: design tokens and the full scene graph of every slide. Node x and y are relative to the parent; w and h are sizes in px, as are font sizes (1 pt = 4/3 px); a rotated node has rot (degrees clockwise about its centre) and x, y, w, h is its unrotated box.`
	}
	return fmt.Sprintf(`Presentation overview.
The presentation has %d slide(s) and is already loaded; no document structure is provided.
Use get_all_slides to list slide ids, then get_node_info or scan_text_nodes to inspect what you need. Export a slide image only when visual context is essential.`, slideCount)
}

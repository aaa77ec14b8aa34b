package agent

import (
	"fmt"
	"strings"

	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/route"
)

// Context modes, as named by the CARE router (internal/route).
const (
	ModeMicro    = string(route.Micro)
	ModeMacro    = string(route.Macro)
	ModeSystemic = string(route.Systemic)
	ModeFull     = string(route.Full)
	ModeOff      = string(route.Off)
)

const systemHeader = `# Role
You are a slide-deck design agent. You change an existing presentation only by calling the functions you are given; each function edits or reads the deck's scene graph.
Carry out the Instruction at the end of the user message. Use the Tool-use rules and the Scene-graph primer below.`

// toolRules restates ACE App. Q.1 (batch tool calling) in our words, with
// ReDeck's step loop (§3.1-3.2): each answer is a step whose result ends
// with a layout observation, and the edit ends with submit.
const toolRules = `# Tool-use rules
Answer with function calls, not prose. Work in steps: each answer is one step; its calls are applied in order, then you get their results.
1. Think the edit through before calling: which nodes change, in what order, and which calls depend on results of others.
2. Be complete: set every parameter the result depends on. Nothing you leave out will be done for you.
3. Keep what should stay. Do not delete and re-create a node that only needs a change; touch only what the instruction asks for.
4. Put what belongs together in one step, with batch_execute when three or more elements are created or changed. A command inside batch_execute can name an id created earlier in the same batch: give the creating command "as": "name" and write "$name" where the id is needed.
   Example: batch_execute({"operations": [
     {"command": "create_frame", "params": {"parentId": "s2", "x": 64, "y": 120, "width": 400, "height": 48, "name": "Row"}, "as": "row"},
     {"command": "create_text", "params": {"parentId": "$row", "x": 8, "y": 8, "width": 384, "text": "Revenue", "fontSize": 18}},
     {"command": "set_fill_color", "params": {"nodeId": "s2/7", "color": "#1F4E79"}}]})
5. Text must fit. Give every new text node an explicit width. Before placing anything, estimate its box: a text's height is about ceil(text width in px / box width) x font size x 1.3. No text or shape may overlap a neighbour unless the instruction wants it; the layout gate measures rendered text and shapes, so empty space inside a text box does not count. Put new content in free space: moving or resizing elements the instruction does not name is an unrequested change, for when nothing else fits.
   For n columns, each column is (available width - gaps) / n wide.
6. The deck state in the user message is current; read tools (get_*, scan_*) are for details it does not show. Put the changes for all slides in one step where you can; focus_slide is needed only before creating nodes without a parentId.
7. After every step that changes the deck, the last tool result ends with an observation from the renderer: the layout violations new and resolved since this iteration began (kind, node ids, boxes in px), the measured box of each text you changed (lines, height, overflow in px) and the main elements of the changed slides. Read it and fix what it shows in your next step.
8. undo_step takes back your last step that changed the deck, whole; check_layout measures without changing anything.
9. When the edit is done and the observation shows no new violation, call submit with a one-sentence summary. The layout gate refuses a submit while a slide has a violation it did not have when this iteration began; then fix it (or undo_step) and submit again.
   If the deck already satisfies the instruction, or what it names does not exist (no chart on that slide, no such slide), change nothing and submit with a summary that says so; do not invent a substitute.
10. Ids go stale.
   - Deleting a node or slide invalidates its id and every id inside it at once. Do not put a delete in the same batch as commands that use ids it removes.
   - A new slide's id exists only after create_slide has run. Either bind it with "as" and use "$name" in the same batch_execute, or call create_slide alone and add its content in your next step.
   - Every create_* for a new slide must carry parentId (the new slide's id); without it the element lands on the previously focused slide.
   - A new slide is never left blank: populate it in the same batch (with "$name") or in the next step.
   - Reorder slides with reorder_slides and the complete list of slide ids, after all slides exist.
11. When a call fails, its result says why; correct it and send the fixed call.
12. Your function list holds the tools this task most likely needs. If you need another (tables, charts, pictures, diagrams, auto-layout, theme, ...), call load_tools with its name first: its description lists every tool not yet in your list.
13. When the user message lists Skills, read the starred ones with load_skill before editing and follow their steps where they fit this deck; the instruction and the deck come first.`

// sceneGraphPrimer describes ACE's scene graph (internal/scenegraph) to the
// model; App. Q.1 "Figma Slides Basics" rewritten for our model.
const sceneGraphPrimer = `# Scene-graph primer
- The deck is an ordered list of slides. Each slide is a tree of nodes; every node has a stable id (for example "s3" or "s3/12"), a type (FRAME, GROUP, TEXT, RECTANGLE, ELLIPSE, LINE, VECTOR, IMAGE, TABLE, CHART, ...) and a name.
- New content goes under a slide or a frame: parentId is a slide id or a container id.
- Units are CSS pixels (96 per inch; 1 pt = 4/3 px); a 16:9 slide is 1280 x 720 px unless the deck says otherwise. A length or font size argument is a px number or a string with a unit: "19pt", "0.5in", "2cm", "12.7mm". Colours are hex: #RRGGBB, or #RRGGBBAA with alpha last.
- A node's position is relative to its PARENT (0,0 is the parent's top-left corner), as in relativeTransform [[a,b,tx],[c,d,ty]]; move_node takes parent-relative x/y and resize_node sets width and height. Absolute bounds, where shown, are for reasoning about overlap only.
- Auto-layout frames (layoutMode HORIZONTAL or VERTICAL) place their children themselves: padding, itemSpacing and alignment decide positions, and a child's sizing is FIXED, HUG or FILL per axis. To add a card to a row, insert it into the frame; do not compute per-child coordinates.
- Text nodes carry characters, a base style (fontFamily, fontSize px, fontWeight, colour, alignment) and per-range style overrides; style a word with set_text_range_style rather than splitting the text.
- Tables and charts are real nodes (TABLE with cells, CHART with series); use the table_* and chart tools for them.
- Slide order is the order of the slide list, not x/y. Use reorder_slides to change it.
- Match the deck: new slides and elements copy fonts, sizes, colours and decorations from comparable existing slides; do not default to black on white unless the deck does. Recolour with replace_color (exact source and target hex). Do not restyle anything the instruction does not ask for.`

// offBlock replaces route.ModeBlock for OFF, whose text carries the slide
// count: the count belongs in the user message, after the stable prefix.
const offBlock = `Context mode: OFF (no context supplied).
No deck structure is given; the deck is loaded and every id is valid. Discover what you need: get_all_slides for slide ids, get_node_info_by_types, get_text_node_info or scan_text_nodes for details, export_slide_image only when the look matters.
Read only what the instruction needs, then edit.`

// modeBlock is the CARE router's own description of its context (it
// explains the serializer's short keys, so it lives next to the
// serializer in internal/route).
func modeBlock(mode string) string {
	switch route.Mode(mode) {
	case route.Micro, route.Macro, route.Systemic, route.Full:
		return route.ModeBlock(route.Mode(mode), 0)
	case route.Off:
		return offBlock
	}
	return route.ModeBlock(route.Full, 0)
}

// Prefix is the byte-stable start of every agent request for a context mode:
// system header, tool-use rules, scene-graph primer and the mode block. An
// unknown mode gets the FULL block. It contains nothing deck- or
// task-specific, so provider prompt caches can serve it (ACE App. Q.1).
func Prefix(mode string) string {
	return systemHeader + "\n\n" + toolRules + "\n\n" + sceneGraphPrimer + "\n\n# Context mode\n" + modeBlock(mode)
}

// UserMessage is the task-specific part: the deck's size, the routed
// context, the skill catalog when skills are on (retrieval.Catalog; it is
// task-specific, so it stays out of the byte-stable prefix, Designer-RSI
// App. C.3), and the instruction. After an iteration (fb not nil) it says
// truthfully which deck the context shows: the agent's kept edit after a
// continue; after a rollback, the original deck or an earlier iteration,
// that the judged edit was undone and exactly why (the new violations, or
// the score's fall), with the judge's critique labelled as a critique of
// the undone attempt and the request restated (ACE §3.3 forwards the
// critique verbatim; the labels are ours).
func UserMessage(slideCount int, mode, context, catalog, instruction string, fb *policy.Feedback) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Current deck\nThe deck has %d slide(s). ", slideCount)
	if mode == ModeOff || strings.TrimSpace(context) == "" {
		b.WriteString("No structure is supplied; use the read tools.\n")
	} else {
		b.WriteString("Routed context for this task (JSON):\n```json\n")
		b.WriteString(strings.TrimRight(context, "\n"))
		b.WriteString("\n```\n")
	}
	if catalog = strings.TrimSpace(catalog); catalog != "" {
		b.WriteString("\n")
		b.WriteString(catalog)
		b.WriteString("\n")
	}
	instruction = strings.TrimSpace(instruction)
	if fb == nil {
		b.WriteString("\n# Instruction\n")
		b.WriteString(instruction)
		return b.String()
	}
	b.WriteString("\n# Original request\n")
	b.WriteString(instruction)
	b.WriteString("\n\n# Where this deck stands\n")
	critique := strings.TrimSpace(fb.Critique)
	if !fb.Undone {
		fmt.Fprintf(&b, "The deck above is the result of your edit in iteration %d: every change you made so far is kept in it. "+
			"A reviewer compared it with the original deck and found the request not yet fully done.\n", fb.Iteration)
		if critique != "" {
			fmt.Fprintf(&b, "\n# Reviewer's critique of iteration %d\n%s\n", fb.Iteration, critique)
		}
		if issues := strings.TrimSpace(fb.Issues); issues != "" {
			fmt.Fprintf(&b, "\n# Critic's issue list\n%s\n", issues)
		}
		b.WriteString("\n# Instruction\nFinish the original request on the deck above: fix what the critique points out and keep what is already right. Do not redo changes that are already in the deck.")
		return b.String()
	}
	if fb.Base == 0 {
		fmt.Fprintf(&b, "The deck above is the ORIGINAL deck. Your edit of iteration %d was undone: none of its changes are in the deck above.", fb.Iteration)
	} else {
		fmt.Fprintf(&b, "The deck above is the result of iteration %d, your best attempt so far; its changes are kept. Your later edit of iteration %d was undone: none of its changes are in the deck above.", fb.Base, fb.Iteration)
	}
	switch {
	case len(fb.NewViolations) > 0:
		fmt.Fprintf(&b, " It was undone because it added %d layout violation(s) that the original deck does not have:\n", len(fb.NewViolations))
		for _, v := range fb.NewViolations {
			b.WriteString("- ")
			b.WriteString(v)
			b.WriteString("\n")
		}
	case fb.ScoreFrom != nil && fb.ScoreTo != nil:
		fmt.Fprintf(&b, " It was undone because the reviewer's score fell from %.1f (iteration %d) to %.1f (iteration %d).\n", *fb.ScoreFrom, fb.Base, *fb.ScoreTo, fb.Iteration)
	default:
		b.WriteString("\n")
	}
	if critique != "" {
		fmt.Fprintf(&b, "\n# Reviewer's critique of the undone attempt (iteration %d)\nThis describes the attempt that was undone, not the deck above.\n%s\n", fb.Iteration, critique)
	}
	if issues := strings.TrimSpace(fb.Issues); issues != "" {
		fmt.Fprintf(&b, "\n# Critic's issue list (checked on the undone attempt)\n%s\n", issues)
	}
	if fb.Base == 0 {
		b.WriteString("\n# Instruction\nCarry out the original request again on the deck above, all of it")
	} else {
		fmt.Fprintf(&b, "\n# Instruction\nCarry out what the original request still needs on the deck above (iteration %d's changes are already in it)", fb.Base)
	}
	if len(fb.NewViolations) > 0 {
		b.WriteString(", without the layout violations listed above")
	}
	b.WriteString(":\n")
	b.WriteString(instruction)
	return b.String()
}

package critic

// criticSystem frames a group call: a few named checks, strict evidence,
// strict JSON (ReDeck §3.3: critiques enter the loop as typed entries, not
// conversation; App. I: strict JSON, temperature 0). Our own words.
const criticSystem = `You are the CRITIC for an agent that edits existing slide decks on a user's instruction. You do not edit and you do not grade overall quality: you run the few checks you are given and report each one strictly.

What you get:
- The user's instruction, and the agent's own account of what it did (a claim to weigh, never evidence).
- The slides of the deck now, in order: number, slide id and title.
- The checks to run, each with an id, and the slides to examine (or the whole deck).
- The agent's edits so far: a structured diff from the ORIGINAL deck to the EDITED deck ("+ ADDED", "- REMOVED", "~ MODIFIED", "> MOVED", "# REORDERED"; node ids in square brackets), followed by a per-slide snapshot of the ORIGINAL deck. A slide without diff entries was not changed.
- Sometimes: rendered images of edited slides.

How to check:
- Run exactly the checks given; ignore every other kind of problem.
- A check fails only on concrete evidence you can point to in the diff, the snapshot or the images: name the slide id, the node ids, and quote the text or values you saw. When you are unsure, the check passes.
- What the instruction asks for never fails a check: if the user asked to delete a slide, "a slide was deleted" is not a problem.
- When what the instruction names does not exist (no chart on that slide), or the original already satisfies it, and the snapshot confirms it, an unchanged deck is the right edit: checks that a change was made pass.
- The original deck is someone else's work. A problem the original already had, and that the edit did not touch, is not a failure.
- For a check on given slides, report a failure only on those slides unless the check itself is about other slides (for example a slide the instruction names that was not edited).

Answer with one JSON object and nothing else:
{"results": [{"check": "<check id>", "verdict": "pass" or "fail", "slide": "<slide id; required for a fail unless the problem is the deck as a whole>", "nodes": ["<node ids involved>"], "evidence": "<for a fail: what is wrong and what you saw, one or two sentences>"}]}
Give at least one result per check: one "pass" when it holds everywhere you examined, otherwise one "fail" per slide where it fails.`

// criticUser frames one group call: instruction, slides, checks and scope,
// then the diff text.
const criticUser = `INSTRUCTION:
%s

AGENT'S ACCOUNT (its own words when it handed in; a claim, not evidence):
%s

SLIDES NOW (number, id, title):
%s

CHECKS (group %s, %s):
%s

EXAMINE: %s

EDITS (original deck -> edited deck):
%s`

// findingsShape is what a usable answer looks like, for the retry.
const findingsShape = `{"results": [{"check": "...", "verdict": "pass" | "fail", "slide": "...", "nodes": ["..."], "evidence": "..."}]}`

// waiverSystem asks whether the instruction itself demands a hard layout
// violation (issue 15: "rotate by 45 degrees" past the slide edge, "put
// the picture behind the title" overlapping it). Our own words.
const waiverSystem = `You decide whether a layout violation found after an edit of a slide deck is something the user's instruction itself demands.

Layout violations (text running out of its box, elements overlapping, elements past the slide edge, pictures cut off, low contrast, tiny text) normally block an edit. A violation is waived only when the instruction's own words require it. For example "rotate the picture by 45 degrees" can push the picture's corners past the slide edge, and "put the photo behind the title" makes the photo and the title overlap: the user asked for exactly that.

Do not waive a violation that is only a side effect the instruction does not require: a longer title overflowing its box, a moved chart landing on a text, a recolour making text hard to read. The agent must fix those.

If you waive, quote the words of the instruction that require the violation, copied character for character from the instruction (a phrase of at least two words, not a paraphrase, not a summary).

Answer with one JSON object and nothing else:
{"waive": true or false, "quote": "<the exact words of the instruction, empty when not waiving>", "reason": "<one sentence: why the quoted words require this violation, or why nothing in the instruction does>"}`

// waiverUser frames one waiver question.
const waiverUser = `INSTRUCTION:
%s

VIOLATION: %s on slide %s
Nodes: %s
Boxes (slide px): %s
Renderer's description: %s

NODES THE EDIT TOUCHED: %s

EDITS (original deck -> edited deck):
%s

Does the instruction itself require this violation?`

// waiverShape is what a usable waiver answer looks like, for the retry.
const waiverShape = `{"waive": true | false, "quote": "...", "reason": "..."}`

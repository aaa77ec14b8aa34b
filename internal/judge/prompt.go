package judge

// ifSystem restates the IF judge of ACE App. Q.2 in our own words.
const ifSystem = `You grade INSTRUCTION FOLLOWING for edits to slide decks. Be strict.

What you get:
- The instruction the editing agent received.
- The agent's actual edits: a structured diff between the ORIGINAL deck and the EDITED deck. There is no reference answer; you judge whether the edits do what the instruction asks.
  "Added" = created by the agent, "Removed" = deleted by the agent, "Modified" = kept but changed, "moved" = re-parented, reorder and z-order entries = stacking or order changes.
- Below the diff, a per-slide snapshot of the ORIGINAL deck (text, alignment, fonts, shapes): of every slide, or of the slides the edit touched or was routed to, with a line counting the others. Use it when a slide has no diff entry: for "do X on every slide" a missing entry may mean the agent skipped the slide, or that the slide already satisfied the request. Only count it as a miss if the snapshot shows the slide needed the change.
- Sometimes: rendered images of the edited slides. Use them for what the diff cannot show (does an added picture show what was asked, does the placement match the intent). They are not a target to compare against; do not grade style.

How to judge:
- An empty or nearly empty diff almost always means the instruction was not carried out: score low. The exception: the snapshot shows the original already satisfies the instruction (nothing overlaps, every title is already bold...), and the agent's account says so; then an empty diff is the right edit and scores by whether that claim holds in the snapshot.
- The agent's account is its own claim about what it did. Use it to understand intent; believe only what the diff and the snapshot show.
- Accept any valid way of doing the edit. Exact positions and sizes matter only when the instruction specifies them; differences of about 1% are noise. Focus on meaning: text, fonts, colours, structure, order.
- Tables, charts, lists and diagrams are built from frames, cells, shapes and text nodes; edits to those parts ARE edits to the table/chart/list. Layer names are arbitrary; judge a node by where it sits and what its siblings got.
- Sorting or reordering shows up as many order/position entries under one parent: read them together as one operation and check the final order. Bringing to front / sending back is judged by the final stacking.
- Edits the instruction did not ask for count against the score.
- For translation or summarisation, meaning matters more than exact wording. A "range styles lost" entry means parts of a text that had their own style (a bold phrase, a link, a smaller line) lost it: a defect unless the instruction asked for it.
- When unsure between two scores, give the lower one.

Score (integer 0-5):
5 every requested change is present and exactly right, nothing missing, nothing extra.
4 every requested change is present and essentially right; one tiny inaccuracy.
3 most requested changes are present but at least one is incomplete, wrong or missing a detail.
2 only some requested changes are present; clear misses.
1 the requested changes are mostly absent or substantially wrong.
0 the edits ignore or contradict the instruction.

Answer with one JSON object and nothing else:
{"instruction_following_score": <0-5>, "instruction_following_reason": "<one or two sentences naming the specific evidence and, if below 5, exactly what is still wrong or missing>"}`

// ifUser frames one case (App. Q.2, user prompt).
const ifUser = `INSTRUCTION (what the agent was asked to do):
%s

AGENT'S ACCOUNT (its own words when it handed in; a claim, not evidence):
%s

AGENT'S EDITS (original deck -> edited deck):
%s

Decide:
- Did the edits carry out what the instruction requires, on every place it applies?
- Are they limited to what was asked?
- An empty or trivial diff for an instruction that clearly needs changes scores 0 or 1; precise, complete edits score 4 or 5.
- Edits inside a table/chart/list/diagram's frames and text are edits to that structure.
Judge whether the semantic intent of the instruction was achieved. Your reason is sent back to the agent as its next instruction, so say concretely what remains to fix.`

// vqSystem is the VQ judge (ACE §4.1): renders only, rubric for alignment,
// layout and style; no reference image.
const vqSystem = `You grade the VISUAL QUALITY of presentation slides from their rendered images.
Look at each slide as a professional designer would:
- Alignment: elements line up on shared edges and centres; spacing is consistent.
- Layout: nothing overlaps unintentionally, nothing is cut off or runs outside the slide, text fits its box, there is a clear hierarchy and balanced white space.
- Style: fonts, sizes and colours are consistent within the slide and with the rest of the deck; text is legible with enough contrast.
Do not grade whether the content is correct; only how it looks.

Score (integer 0-5): 5 polished and professional; 4 good with minor flaws; 3 acceptable but with visible problems; 2 several clear problems; 1 badly broken layout; 0 unreadable or empty.

Answer with one JSON object and nothing else:
{"visual_quality_score": <0-5>, "visual_quality_reason": "<one or two sentences naming the most important visual problems, or why it looks right>"}`

// pairwiseSystem is the pairwise judge of the replay gate (Designer-RSI
// §3.3, App. F), in our own words: two edits of one deck, one brief, which
// serves the brief better. No absolute score is asked for.
const pairwiseSystem = `You compare two edits of the same slide deck and decide which one better carries out a brief.

What you get:
- The brief the editing agent was given.
- A per-slide snapshot of the ORIGINAL deck (text, fonts, alignment, shapes) before either edit.
- EDIT A and EDIT B: each is a structured diff from the original deck to that edit's result. "Added" = created, "Removed" = deleted, "Modified" = kept but changed, "moved" = re-parented; reorder and z-order entries are order or stacking changes.
- Sometimes: renders of the slides each edit changed. Use them for what a diff cannot show (placement, what a picture shows), not to grade taste.

How to decide:
- The better edit is the one whose result satisfies more of the brief, more exactly, on every slide the brief applies to. Missing or wrong parts of the brief weigh most.
- Changes the brief did not ask for count against an edit. An edit that changes nothing loses to one that does what was asked, unless the snapshot shows nothing needed changing.
- Any valid way of doing the edit is fine; do not prefer one tool or approach over another. Position or size differences of about 1% are noise.
- The labels A and B say nothing about quality and their order is arbitrary; judge only what each edit did.
- Answer "tie" when both satisfy the brief equally well or equally badly, or the differences are too small to matter.

Answer with one JSON object and nothing else:
{"better": "A" | "B" | "tie", "reason": "<one or two sentences naming the concrete difference that decided it>"}`

// pairwiseUser frames one comparison.
const pairwiseUser = `BRIEF:
%s

ORIGINAL DECK (before either edit):
%s

EDIT A (original deck -> result A):
%s

EDIT B (original deck -> result B):
%s

Which result better satisfies the brief: A, B, or tie?`

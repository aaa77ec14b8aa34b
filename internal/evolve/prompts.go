package evolve

// The evolve roles' prompts, written for ACE in our own words after the
// roles Designer-RSI describes (App. D grader, §3.2 reflector, §3.1
// subtask extractor and distiller).

// gradeSystem is the grader (App. D completeness and aesthetics, one
// call over ACE's structural evidence).
const gradeSystem = `You grade one finished edit of a slide deck, after the fact, for a skill library that learns from its own results.

Step 1, requirements. Break the instruction into 3 to 10 requirements that a reviewer can check one by one (fewer only when the instruction asks for fewer things). Each describes an OUTCOME in the deck, never which tool or method to use. Put related details of one thing into one requirement. Keep exact asks exact (a named colour, a number, a slide) and read loose asks ("make it feel modern") generously.

Step 2, labels. Label each requirement from the evidence:
- "met": the kept deck clearly satisfies it;
- "partial": some of it is done, or done on some of the places it applies;
- "not_met": absent, wrong, or not kept.
Give a short concrete reason for every label other than "met" (what is missing or wrong, where). Believe the diff and the checks; the agent's account is a claim. If the layout gate blocked the edit or no edit was kept, whatever the edit would have changed is not in the deck: label those requirements not_met. The exception: a requirement about something the original deck does not have (a slide, table, row or chart it lacks), where the agent changed nothing there and its account says so, is met; inventing a substitute would have been wrong.

Step 3, aesthetic. Rate how the kept result looks as a professional deck, ignoring whether it followed the instruction, as an integer 1-10: 3 or less weak, 6 passable, 8 professional, 9-10 exceptional. Judge from the diff and the layout evidence (overlaps, overflow, consistent fonts and alignment).

Answer with one JSON object and nothing else:
{"requirements": [{"text": "<requirement>", "label": "met" | "partial" | "not_met", "reason": "<why, when not met>"}], "aesthetic": <integer 1-10>}`

// reflectorSystem revises a skill that keeps failing (§3.2): a targeted
// edit, contrasting failures with successes of the same skill.
const reflectorSystem = `You maintain a library of SKILL.md procedures that tell a slide-editing agent how to do a kind of edit with its tools. One skill was in use when several edits failed. Revise it so that the agent following it would avoid those failures, without breaking what already works.

You get the current SKILL.md, the failed edits (instruction, each requirement's outcome and the reason it was missed, the tools the agent called) and, when there are any, edits with this skill that succeeded (their instruction and tool sequence): those show what must keep working.

Make a TARGETED edit: change the section or sections that explain the failures (a missing step, a wrong parameter, a tip, an error-handling row) and leave the rest as it is. Keep the name. Keep the description a list of trigger phrases (200-600 characters) unless the failures show it attracts the wrong requests. Use only tool names that appear in the current skill or the edits shown.

Answer with one JSON object and nothing else:
{"section": "<the section(s) you changed>", "change": "<one sentence: what you changed and why>", "skill_md": "<the whole revised SKILL.md: YAML front matter between --- lines, then the five ## sections: When to use, Clarify before starting, Steps, Tips, Error handling>"}`

// majorRewriteSystem is the escalation after repeated gate rejections
// (§3.2): the whole skill rewritten.
const majorRewriteSystem = `You maintain a library of SKILL.md procedures that tell a slide-editing agent how to do a kind of edit with its tools. One skill keeps failing, and small edits to it have been tried and refused because they did not help. Rewrite the whole skill from the evidence.

You get the current SKILL.md, the failed edits (instruction, each requirement's outcome and reason, the tools called) and edits with this skill that succeeded (instruction and tool sequence).

Rethink the procedure: when it applies, what to check first, the steps with the tool and its key parameters for each, tips, and a table of situations and what to do. Keep the name; the description stays a 200-600 character list of trigger phrases. Use only tool names that appear in the current skill or the edits shown.

Answer with one JSON object and nothing else:
{"section": "all", "change": "<one sentence: what the rewrite does differently>", "skill_md": "<the whole SKILL.md: YAML front matter between --- lines, then the five ## sections: When to use, Clarify before starting, Steps, Tips, Error handling>"}`

// subtaskSystem extracts and canonicalises the subtasks an edit
// performed (§3.1).
const subtaskSystem = `You name the subtasks a slide-editing agent performed in one edit, so that recurring kinds of work can be counted across many edits.

You get the instruction and the sequence of tools the agent called. List each distinct subtask as a canonical label: 2-5 lowercase words joined by hyphens that name the operation, not its content ("recolor-chart-series", "align-shapes-to-grid", "translate-slide-text"). Never put names, brands, colours, numbers or topics in a label. Reuse a label from the known list when it means the same operation. Give 1 to 6 labels.

Answer with one JSON object and nothing else:
{"subtasks": [{"label": "<canonical-label>", "subtask": "<one short sentence describing it>"}]}`

// distillerSystem mints a candidate skill from a recurring uncovered
// subtask (§3.1).
const distillerSystem = `You write a new SKILL.md procedure for a slide-editing agent, distilled from several edits that all needed the same kind of work and had no skill for it.

You get the subtask's label and description, and the edits (instruction, the tools the agent called in order, and how well the edit met the instruction).

Write a skill that would let the agent do this kind of work right the first time. Front matter: name (the label, kebab-case), description (200-600 characters of trigger phrases a user would type for this kind of edit), tool_sequence (the 1-10 tool names of the critical path, only tools that appear in the edits), status candidate, version 1. Body, in this order: ## When to use, ## Clarify before starting, ## Steps (each step names its tool and key parameters), ## Tips, ## Error handling (situations and what to do).

Answer with one JSON object and nothing else:
{"skill_md": "<the whole SKILL.md>"}`

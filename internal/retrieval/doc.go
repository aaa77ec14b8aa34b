// Package retrieval picks the skills of the skill bank (internal/skills)
// that match one edit request, and writes the catalog the design agent
// sees (Designer-RSI App. C.2 retriever, C.3 injector; spec part A2).
//
// Per request, once:
//
//	Distil   the instruction -> at most 6 short operations (one router-role
//	         model call with a JSON answer; the instruction's sentences
//	         when no model is configured or its answer is unusable)
//	Score    every offered skill: its best operation's token overlap with
//	         the skill's description (skills.Overlap on skills.Tokens, the
//	         tokenizer the cold-start seeder uses) plus a name bonus
//	Flag     star 2-4 skills: score >= Tau and >= WithinTop x the top
//	         score, capped at MaxStarred, padded to MinStarred; each
//	         starred skill's prerequisites starred too (one hop)
//	Catalog  every offered skill as one line, starred first, within a
//	         token budget, for the agent's user message
//
// Nothing starred is a coverage gap (Result.Covered false), which the
// evolve loop's widening reads from the turn record (App. C.3, §3.1).
// Scores only order and star the catalog; they never hide a skill. The
// skill set a request was offered is frozen in the store (Set), so the
// agent's load_skill calls, retries and replays read the same versions.
package retrieval

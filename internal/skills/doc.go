// Package skills is ACE's procedural memory (Designer-RSI, spec part A):
// a bank of natural-language SKILL.md procedures that tell the design
// agent how to carry out a kind of deck edit with ACE's tools.
//
// A skill is one SKILL.md file: YAML front matter (name, description of
// trigger phrases, tool sequence, prerequisites, status, version) and a
// Markdown body with five sections (when to use, clarify before starting,
// steps, tips, error handling), as Designer-RSI App. C.1 and A3 describe.
// The description is the only text retrieval scores (App. C.2), so it is
// written as the phrases a user would type.
//
// This package holds the format (Parse, Format), the shared tokenizer
// (Tokens: the cold-start seeder and retrieval use the same one, App. G),
// and validation (Validate: tool names exist, no near-duplicates, every
// body section present). The bank's storage, statistics and history live
// beside it.
package skills

// Package agent is ACE's design agent: it assembles the prompt, offers the
// tool catalogue as OpenAI function definitions, runs one model round that
// returns a batch of tool calls, applies them, and runs follow-up rounds
// only when the model has to see something first (results of read tools,
// ids of slides it just created, or errors to correct).
//
// The prompt follows the ACE paper's design agent (App. Q.1) in our own
// words: a fixed system text, tool-use principles including the
// batch_execute rules, scene-graph basics and the context-mode block chosen
// by the CARE router. Those four parts form a prefix that depends only on
// the mode, so it is byte-identical across iterations and decks and a
// provider's prompt cache can serve it; everything deck- or task-specific
// (slide count, routed context, instruction, critique) comes after it in the
// user message.
package agent

// Package runner runs ACE's edit loop in process: route, act, apply,
// render, diff, judge, then continue, roll back or stop (ACE Algorithm 1;
// DESIGN.md §4), recording every iteration (scores, critique, gate,
// violations, tool errors, model calls with tokens and cost, timings) in a
// Record.
//
// The steps are methods of Steps, each taking one input struct and
// returning one output struct with snapshot refs (internal/store), never
// whole decks, so the Temporal activities can call the very same functions
// and the loop is testable without Temporal. The decision after each
// iteration and the final pick are internal/policy's Next and Select; this
// package holds no policy of its own.
package runner

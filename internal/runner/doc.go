// Package runner holds the edit loop's steps as plain functions (Steps:
// route, act, apply, diff, render with the gate, judge, check, export)
// and runs the loop in process (Run: editloop.Run over those steps with
// direct calls, for `ace edit`).
//
// Each step takes one input struct and returns one output struct of
// package editloop, with decks, tool calls, diff texts and pictures as
// store refs (internal/store), never by value. The Temporal activities
// (package activities) call these very functions, so `ace edit` and an
// EditWorkflow run the same code and the same loop. This package holds no
// policy: the sequence is editloop's, the decisions internal/policy's.
package runner

// Package judge scores an edit without a ground truth, as the ACE paper's
// self-correction loop does (§3.3, §4.1, App. Q.2):
//
//   - the instruction-following (IF) judge reads the instruction, the
//     JsonDiff of origin vs current (with the origin's per-slide snapshot
//     appended by internal/diff) and, only when the diff touches visual
//     content, renders of the changed slides; it answers strict JSON
//     {instruction_following_score 0-5, instruction_following_reason}, gets
//     one retry when the answer does not parse, and is otherwise "missing";
//   - the visual-quality (VQ) judge looks at renders of the changed slides
//     only; it is reported and never a stopping signal;
//   - the geometry gate (ReDeck's baseline-relative rule) passes when the
//     renderer finds no layout violation the origin did not have.
//
// The loop decision on top of these (tau, T, strict-peak rollback,
// the feedback after a rollback) lives in internal/policy.
package judge

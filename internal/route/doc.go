// Package route is CARE, content-aware context routing: it decides how much
// of a deck the design agent sees for an instruction, and serializes that
// slice.
//
// Source: ACE paper §3.2, Appendix B (control flow, heuristic H, the LLM
// router, single-slide reclassification), Appendix K and Table 21 (what each
// representation carries), Appendix Q.1.1 (the mode blocks).
//
// A deterministic heuristic H always runs (Heuristic); one temperature-0
// model call may then refine mode and targets (Route), each field adopted
// only if it validates, else H's; needs_image comes only from H. The
// serializers (Context) emit compact JSON carrying exactly the properties of
// Table 21 for the chosen mode; CountTokens measures them offline.
package route

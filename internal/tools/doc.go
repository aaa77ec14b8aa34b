// Package tools is ACE's action space: the 100 semantic tools an agent or a
// compiled recipe uses to change a deck, and batch_execute, which applies an
// ordered list of them as one atomic commit (ACE §3.1, Appendix A, Table 7).
//
// Every tool has a name from the field's Figma-agent tool servers
// (create_frame, set_fill_color, set_layout_mode, ...), a module with the
// paper's counts (content 56, slide 13, chart 7, dataChart 4, smartArt 4,
// table 4, connection 3, importExport 3, unsplash 2, batch 1, math 1), a
// description written for a model, a JSON Schema (draft 2020-12) for its
// arguments, and an executor that works on a working copy of the deck.
//
// Apply is the one entry point that changes a deck: it clones the input,
// validates each call's arguments against the tool's schema, runs the
// executors in order, re-lays-out the auto-layout containers a call touched,
// validates the result and returns a new deck. On any failure it returns a
// *BatchError naming the failing command and leaves the input untouched.
//
// Units: positions and sizes in CSS px (the scene graph's unit), font sizes in
// px, angles in degrees clockwise, colours as "#RRGGBB" or "#RRGGBBAA".
package tools

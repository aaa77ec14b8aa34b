// Package scenegraph is ACE's document model: a deck of slides, each a tree of
// nodes with auto-layout, in Figma's vocabulary (frames, fills, HUG/FILL/FIXED,
// relativeTransform, characterStyleOverrides).
//
// Where the rules come from:
//   - The hierarchy, auto-layout and the node/paint/type-style field names follow
//     the Figma REST API file format (GET /v1/files/:key), so a Figma import is a
//     near-identity mapping and a model that has read Figma JSON reads ours.
//   - The hierarchical scene graph over a flat OOXML shape tree is the ACE paper's
//     representation (ACE §3.1, Figure 3): a child's transform is relative to its
//     parent and an auto-layout parent reflows its children.
//   - Units are CSS px at 96 dpi (DESIGN.md §3): 1 px = 9525 EMU = 0.75 pt.
//     A 16:9 PPTX slide is 1280x720 px; a Figma Slides slide is 1920x1080 px.
//   - Colours are RGBA with channels in 0..1, as in Figma.
//
// A deck is serialized by Encode into canonical JSON: equal decks give equal
// bytes, and Hash (SHA-256 of those bytes) addresses the snapshot in the store.
// Decode parses with limits and Validate reports every problem with its JSON
// path, so bad input gets one clear error per problem and never a panic.
//
// The package has no I/O and imports neither Temporal nor any server library.
package scenegraph

// Package pptx reads and writes PowerPoint .pptx files (PresentationML,
// ECMA-376 Part 1 §19, packaged as OPC, Part 2) to and from the scene graph,
// with round-trip preservation: whatever an edit did not touch is written
// back byte-identical.
//
// Why our own reader and writer: the free Go libraries model a presentation
// as their own object tree and regenerate the XML from it on save. That is
// fine for building a deck, but it drops every element the library does not
// model (extLst data, SmartArt, comments, custom XML, embedded fonts) and
// rewrites untouched slides. github.com/casibase/goppt v1.0.0 (Apache-2.0)
// was evaluated from its documentation: it builds, parses and renders decks
// through such an object model (p := ppt.New(); slide.CreateRichTextShape()
// ...) and offers no way to write an untouched part or element back as it
// was, which is the requirement that decides (DESIGN.md §7: untouched slides
// export byte-identical). unioffice is not free. So this package parses each
// XML part into a light tree that remembers the byte range of every element
// (xmltree.go) and, on export, copies unchanged elements and parts verbatim
// and re-serializes only what the scene graph says changed.
//
// Import: presentation (slide size, order, sections), slide -> layout ->
// master inheritance of placeholder geometry and text styles, the theme
// (colour scheme -> Deck.Tokens.Colors, major/minor fonts per script slot ->
// Tokens.Fonts), shapes (p:sp, p:pic, p:grpSp, p:graphicFrame tables and
// charts, p:cxnSp), text with resolved run styles, backgrounds, notes,
// hyperlinks and alt text. Units: EMU -> px at 96 dpi (1 px = 9525 EMU);
// DrawingML font sizes (hundredths of a point) -> px (pt * 96/72).
//
// Ids: a slide is "s<N>" for ppt/slides/slide<N>.xml and a shape
// "s<N>/<cNvPr id>" (a repeated id gets "#2", ...), a table cell
// "s<N>/<id>/r<row>c<col>"; re-importing the same file gives the same ids.
//
// Safety: limits on part count, decompressed size and XML depth (Limits);
// external relationships are recorded and never fetched; a non-zip,
// truncated or invalid part gives an error naming the part.
package pptx

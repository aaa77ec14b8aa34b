package pptx

import (
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// theme writes design-token changes back into the theme parts of the
// package: a changed palette entry (dk1, lt1, accent1, ...) rewrites that
// slot of a:clrScheme, a changed major/minor font rewrites a:fontScheme. So
// a re-themed deck (tokens and the ThemeColor paints that follow them) keeps
// every untouched a:schemeClr reference pointing at the new colour.
func (ex *exporter) theme() {
	old := ex.im.deck.Tokens
	now := ex.d.Tokens
	var slots []string
	for _, s := range schemeSlots {
		c, ok := now.Colors[s]
		if o, had := old.Colors[s]; ok && (!had || !c.Near(o, 0.5/255)) {
			slots = append(slots, s)
		}
	}
	fontsChanged := now.Fonts != old.Fonts && (now.Fonts.Major.Latin != "" || now.Fonts.Minor.Latin != "")
	if len(slots) == 0 && !fontsChanged {
		return
	}
	done := map[string]bool{}
	for _, m := range ex.im.masters {
		rels, _ := ex.im.p.relsOf(m.part)
		tr, ok := relByType(rels, relTheme)
		if !ok || done[tr.Target] {
			continue
		}
		done[tr.Target] = true
		doc, err := ex.im.p.xml(tr.Target)
		if err != nil {
			ex.warn(tr.Target, "theme not updated: %v", err)
			continue
		}
		el := doc.root().child(nsA, "themeElements")
		cs := el.child(nsA, "clrScheme")
		for _, s := range slots {
			slot := cs.child(nsA, s)
			if slot == nil {
				cs.kids = append(cs.kids, rawNode(`<a:`+s+`><a:srgbClr val="`+hex6(now.Colors[s])+`"/></a:`+s+`>`))
				cs.dirty = true
				continue
			}
			slot.kids = []*xnode{rawNode(`<a:srgbClr val="` + hex6(now.Colors[s]) + `"/>`)}
			slot.dirty = true
		}
		if fontsChanged {
			fs := el.child(nsA, "fontScheme")
			set := func(f *xnode, want, was sg.ScriptFonts) {
				for _, s := range []struct{ tag, v, o string }{{"latin", want.Latin, was.Latin}, {"ea", want.EastAsian, was.EastAsian}, {"cs", want.Complex, was.Complex}} {
					if s.v == s.o {
						continue
					}
					if e := f.child(nsA, s.tag); e != nil {
						e.setAttr("typeface", s.v)
					}
				}
			}
			set(fs.child(nsA, "majorFont"), now.Fonts.Major, old.Fonts.Major)
			set(fs.child(nsA, "minorFont"), now.Fonts.Minor, old.Fonts.Minor)
		}
		if err := ensurePrefixes(doc.root(), tr.Target); err != nil {
			ex.warn(tr.Target, "theme not updated: %v", err)
			continue
		}
		fixDirty(doc)
		ex.out.put(tr.Target, doc.bytes())
	}
}

package pptx

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

const (
	ctSlide = "application/vnd.openxmlformats-officedocument.presentationml.slide+xml"
	ctChart = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
)

// ErrGeneratedXML marks an export that produced XML it cannot parse back:
// a fault of the exporter on this deck, not of the file system or the
// network, so retrying the export gives the same error.
var ErrGeneratedXML = errors.New("generated XML is invalid")

// Export writes the deck as a .pptx. See ExportDetailed.
func Export(d *sg.Deck, assets sg.AssetSource) ([]byte, error) {
	b, _, err := ExportDetailed(d, assets)
	return b, err
}

// ExportDetailed writes the deck as a .pptx and lists what it approximated.
//
// A deck imported from a .pptx (Source.Format "pptx") is written over its
// original package, read from assets by Source.Ref: every part and every
// shape whose scene-graph subtree is unchanged (NodeDigest equals
// Source.Digest) is written byte-identical; an edited shape is patched in
// place (only the changed aspects: geometry, fill, line, text, ...), keeping
// the XML children and extLst data ACE does not model; deleted shapes and
// slides are removed with their relationships, new ones get fresh shape ids
// and new slides use the layout named by Slide.Layout (else one that fits
// their placeholders, see layoutFor) and get a notes slide for their
// speaker notes; a copy of an imported slide (duplicate_slide keeps the
// Source of what it copies) is that slide's XML under a new part name,
// with its own notes slide, charts and diagrams, patched where the copy
// differs (copySlide); slide order updates p:sldIdLst; new media get
// relationships and content types. Unknown parts
// (comments, notes, custom XML, embedded fonts) pass through. Changed
// palette or font tokens are written into the theme; changed speaker notes
// into the notes slide. Only edited slides are parsed again, so exporting a
// lightly edited large deck costs little more than copying it.
//
// Any other deck is written as a fresh minimal package: a theme built from
// the deck's tokens, one master, the layouts of PowerPoint's default
// template (Title Slide, Title and Content, ..., Blank) and the slides;
// frames and groups become p:grpSp, charts real chart parts (data cached
// inline), placement is taken from relativeTransform as it stands (run
// auto-layout before exporting).
//
// Errors: the original package missing from assets (keep the blobs Import
// returned), a damaged part of the original, or a prefix conflict in an
// edited part. Approximations (stacked fills, layer opacity, clipping,
// formulas as text) are warnings, not errors.
func ExportDetailed(d *sg.Deck, assets sg.AssetSource) ([]byte, []Warning, error) {
	if d == nil {
		return nil, nil, fmt.Errorf("export: nil deck")
	}
	// An invalid deck (NaN geometry, dangling asset refs, cycles) could
	// only produce a damaged file: refuse it with the validator's report.
	if err := sg.Validate(d); err != nil {
		return nil, nil, fmt.Errorf("export %s: %w", d.Name, err)
	}
	var orig []byte
	name := d.Name
	if d.Source != nil && d.Source.Format == "pptx" && d.Source.Ref != "" && assets != nil {
		b, err := assets.AssetBytes(d.Source.Ref)
		if err != nil {
			return nil, nil, fmt.Errorf("export %s: the original .pptx it was imported from is not available (%v): keep the deck's .assets folder beside its .json (ace convert and ace edit write one), or convert again from the .pptx", d.Name, err)
		}
		orig = b
		name = d.Source.Name
	} else {
		orig = skeleton(d)
		name = "generated.pptx"
	}
	im, err := newImporter(orig, name, DefaultLimits)
	if err != nil {
		return nil, nil, fmt.Errorf("export: original package: %w", err)
	}
	// Only edited slides are imported again; unchanged ones are copied.
	im.only = map[string]bool{}
	for _, s := range d.Slides {
		if s != nil && s.Source != nil && s.Source.Format == "pptx" && sg.NodeDigest(s) != s.Source.Digest {
			im.only[s.Source.Part] = true
		}
	}
	if err := im.run(); err != nil {
		return nil, nil, fmt.Errorf("export: original package: %w", err)
	}
	ex := &exporter{im: im, d: d, assets: assets, out: newOutPkg(im.p), mediaPart: map[string]string{}, slidePart: map[string]string{}, chartDone: map[string]bool{}}
	for part, ref := range im.media {
		ex.mediaPart[ref] = part
	}
	if err := ex.run(); err != nil {
		return nil, ex.warns, err
	}
	b, err := ex.out.write()
	if err != nil {
		return nil, ex.warns, fmt.Errorf("export %s: %w", d.Name, err)
	}
	return b, ex.warns, nil
}

type exporter struct {
	im        *importer
	d         *sg.Deck
	assets    sg.AssetSource
	out       *outPkg
	warns     []Warning
	mediaPart map[string]string // asset ref -> media part
	slidePart map[string]string // slide node id -> slide part (after export)
	// chartDone lists the original chart parts already written for a
	// node (patched in place); another node showing the same part gets
	// a copy.
	chartDone map[string]bool
}

func (ex *exporter) warn(part, format string, args ...any) {
	ex.warns = append(ex.warns, Warning{Part: part, Msg: fmt.Sprintf(format, args...)})
}

type plannedSlide struct {
	node *sg.Node
	si   *slideInfo // nil for a new slide
	part string
	// copy, for a new slide that copies an imported one (duplicate_slide
	// keeps the Source of what it copied): that slide's XML, cloned
	// before any edit, to be written under part (see copySlide).
	copy *slideCopy
}

func (ex *exporter) run() error {
	im := ex.im
	for i, s := range ex.d.Slides {
		if s == nil {
			return fmt.Errorf("export: slide %d is nil", i)
		}
	}
	owner := ex.slideOwners()
	used := map[string]bool{}
	var plan []plannedSlide
	for _, s := range ex.d.Slides {
		var si, orig *slideInfo
		if s.Source != nil && s.Source.Format == "pptx" {
			if cand, ok := im.bySlide[s.Source.Part]; ok {
				if owner[cand.part] == s {
					si = cand
					used[cand.part] = true
				} else if !cand.stub {
					orig = cand
				}
			}
		}
		ps := plannedSlide{node: s, si: si}
		if si != nil {
			ps.part = si.part
			if s.ID != si.node.ID && !si.stub {
				// The imported slide is gone and a copy of it takes its
				// part: the copy's nodes find their elements by Source.
				ex.adoptShapes(si, si, s, nil)
			}
		} else {
			ps.part = ex.out.freeName("ppt/slides", "slide", ".xml")
			ex.out.put(ps.part, nil) // reserve the name
			if orig != nil {
				ps.copy = ex.cloneSlide(orig, s, ps.part)
			}
		}
		ex.slidePart[s.ID] = ps.part
		plan = append(plan, ps)
	}
	// Deleted slides go first, so their media and notes can be dropped.
	deleted := map[string]bool{}
	for _, si := range im.slides {
		if !used[si.part] {
			ex.deleteSlide(si)
			deleted[si.part] = true
		}
	}
	if len(deleted) > 0 {
		if err := ex.dropJumpsTo(deleted); err != nil {
			return err
		}
	}
	for _, ps := range plan {
		var err error
		if ps.copy != nil {
			err = ex.copySlide(ps.copy, ps.node)
		} else if ps.si == nil {
			err = ex.newSlide(ps.node, ps.part)
		} else if !ps.si.stub && (sg.NodeDigest(ps.node) != ps.node.Source.Digest || ps.node.Source.Digest != ps.si.node.Source.Digest) {
			err = ex.patchSlide(ps.si, ps.node)
		}
		if err != nil {
			return err
		}
	}
	if ex.d.Source != nil && ex.d.Source.Format == "pptx" {
		ex.theme()
	}
	return ex.presentation(plan)
}

// deleteSlide removes a slide part, its relationships and its notes slide.
func (ex *exporter) deleteSlide(si *slideInfo) {
	ex.out.del(si.part)
	ex.out.del(relsPart(si.part))
	if si.notes != "" {
		ex.out.del(si.notes)
		ex.out.del(relsPart(si.notes))
	}
}

// dropJumpsTo removes hyperlinks (and their relationships) from remaining
// slides that jump to deleted slides, which would otherwise leave a
// relationship to a missing part (PowerPoint offers to repair such files).
func (ex *exporter) dropJumpsTo(deleted map[string]bool) error {
	for _, si := range ex.im.slides {
		if deleted[si.part] {
			continue
		}
		var ids []string
		for _, r := range si.rels {
			if r.Type == relSlide && !r.External && deleted[r.Target] {
				ids = append(ids, r.ID)
			}
		}
		if len(ids) == 0 {
			continue
		}
		doc, err := ex.im.p.xml(si.part)
		if err != nil {
			return err
		}
		drop := map[string]bool{}
		for _, id := range ids {
			drop[id] = true
			ex.out.relsFor(si.part).remove(id)
		}
		var walk func(n *xnode)
		walk = func(n *xnode) {
			kept := n.kids[:0]
			for _, k := range n.kids {
				if k.kind == kElem && (k.local == "hlinkClick" || k.local == "hlinkMouseOver" || k.local == "hlinkHover") && drop[k.attrNS(nsR, "id")] {
					n.dirty = true
					continue
				}
				if k.kind == kElem {
					walk(k)
				}
				kept = append(kept, k)
			}
			n.kids = kept
		}
		walk(doc.root())
		ex.warn(si.part, "hyperlinks to deleted slides removed")
		if si.stub {
			fixDirty(doc)
			ex.out.put(si.part, doc.bytes())
		}
	}
	return nil
}

// presentation rewrites p:sldIdLst, the presentation's relationships and
// the section list when slides were added, removed or reordered.
func (ex *exporter) presentation(plan []plannedSlide) error {
	im := ex.im
	same := len(plan) == len(im.slides)
	for i := 0; same && i < len(plan); i++ {
		same = plan[i].si == im.slides[i]
	}
	if same {
		return nil
	}
	presRels := ex.out.relsFor(im.presPart)
	for _, si := range im.slides {
		if !ex.out.exists(si.part) {
			presRels.remove(si.relID)
		}
	}
	maxID := 255
	for _, si := range im.slides {
		if v, err := strconv.Atoi(si.sldID); err == nil && v > maxID {
			maxID = v
		}
	}
	var lst strings.Builder
	lst.WriteString("<p:sldIdLst>")
	newIDs := map[string]string{} // slide node id -> sldId
	for _, ps := range plan {
		sid, rid := "", ""
		if ps.si != nil {
			sid, rid = ps.si.sldID, ps.si.relID
		} else {
			maxID++
			sid = strconv.Itoa(maxID)
			rid = presRels.add(relSlide, ps.part, false)
		}
		newIDs[ps.node.ID] = sid
		lst.WriteString(`<p:sldId id="` + sid + `" r:id="` + rid + `"/>`)
	}
	lst.WriteString("</p:sldIdLst>")
	root := im.pres
	if err := ensurePrefixes(root, im.presPart); err != nil {
		return err
	}
	old := root.child(nsP, "sldIdLst")
	repl := rawNode(lst.String())
	if old != nil {
		root.replaceKid(old, repl)
	} else {
		root.insertOrdered(repl, []string{"sldMasterIdLst", "notesMasterIdLst", "handoutMasterIdLst", "sldIdLst", "sldSz", "notesSz"})
	}
	ex.sections(plan, newIDs)
	// Custom shows list slides by relationship id: drop deleted ones.
	for _, show := range root.path(nsP, "custShowLst").all(nsP, "custShow") {
		lst := show.child(nsP, "sldLst")
		if lst == nil {
			continue
		}
		kept := lst.kids[:0]
		for _, k := range lst.kids {
			if k.is(nsP, "sld") && presRels.removed[k.attrNS(nsR, "id")] {
				lst.dirty = true
				continue
			}
			kept = append(kept, k)
		}
		lst.kids = kept
	}
	doc := im.p.parsed[im.presPart]
	fixDirty(doc)
	ex.out.put(im.presPart, doc.bytes())
	return nil
}

// sections drops deleted slides from p14:sectionLst and puts new slides in
// the section of the slide before them.
func (ex *exporter) sections(plan []plannedSlide, ids map[string]string) {
	var lists []*xnode
	for _, ext := range ex.im.pres.path(nsP, "extLst").all(nsP, "ext") {
		if sl := ext.child(nsP14, "sectionLst"); sl != nil {
			lists = append(lists, sl)
		}
	}
	if len(lists) == 0 {
		return
	}
	secOf := map[string]*xnode{} // sldId -> section's sldIdLst
	prefix := "p14"
	for _, sl := range lists {
		for _, sec := range sl.all(nsP14, "section") {
			l := sec.child(nsP14, "sldIdLst")
			if l == nil {
				continue
			}
			prefix = l.prefix
			var kids []*xnode
			for _, k := range l.kids {
				if k.is(nsP14, "sldId") {
					keep := false
					for _, ps := range plan {
						if ps.si != nil && ps.si.sldID == k.av("id") {
							keep = true
						}
					}
					if !keep {
						continue
					}
					secOf[k.av("id")] = l
				}
				kids = append(kids, k)
			}
			if len(kids) != len(l.kids) {
				l.kids = kids
				l.dirty = true
			}
		}
	}
	var prev *xnode
	for _, ps := range plan {
		sid := ids[ps.node.ID]
		if ps.si != nil {
			prev = secOf[sid]
			continue
		}
		target := prev
		if target == nil {
			for _, sl := range lists {
				if secs := sl.all(nsP14, "section"); len(secs) > 0 {
					target = secs[0].child(nsP14, "sldIdLst")
					break
				}
			}
		}
		if target != nil {
			target.kids = append(target.kids, rawNode(`<`+prefix+`:sldId id="`+sid+`"/>`))
			target.dirty = true
			secOf[sid] = target
			prev = target
		}
	}
}

// mediaFor returns the relationship id, from part, of an image asset,
// writing the media part when the package does not hold it yet.
func (ex *exporter) mediaFor(part, ref string) (string, error) {
	mp, ok := ex.mediaPart[ref]
	if !ok || !ex.out.exists(mp) {
		if ex.assets == nil {
			return "", fmt.Errorf("asset %s: no asset source", short(ref))
		}
		data, err := ex.assets.AssetBytes(ref)
		if err != nil {
			return "", err
		}
		mime := ""
		if a, ok := ex.d.Assets[ref]; ok {
			mime = a.MimeType
		}
		if mime == "" {
			mime = mimeOf(data)
		}
		ext := extByMime(mime)
		mp = ex.out.freeName("ppt/media", "image", ext)
		ex.out.put(mp, data)
		ex.out.ctDef[strings.TrimPrefix(ext, ".")] = mime
		ex.mediaPart[ref] = mp
	}
	return ex.out.relsFor(part).add(relImage, mp, false), nil
}

// writerFor makes the fresh-XML writer of one slide part.
func (ex *exporter) writerFor(part string, maxID *int) *writer {
	w := &writer{deck: ex.d, part: part}
	w.nextID = func() int { *maxID++; return *maxID }
	w.rel = func(typ, target string, external bool) string { return ex.out.relsFor(part).add(typ, target, external) }
	w.media = func(ref string) (string, error) { return ex.mediaFor(part, ref) }
	w.chart = func(n *sg.Node) (string, error) { return ex.chartFor(part, w, n) }
	w.slideP = func(id string) string { return ex.slidePart[id] }
	w.warn = func(format string, args ...any) { ex.warn(part, format, args...) }
	return w
}

// newSlide writes a slide the package did not have, on the layout
// layoutFor picks, with its speaker notes in a notes slide of its own
// (newNotes): new slides' notes are kept as every slide's are.
func (ex *exporter) newSlide(s *sg.Node, part string) error {
	lay := ex.layoutFor(s)
	if lay == "" {
		return fmt.Errorf("export: slide %s: the package has no slide layout to base a new slide on", s.ID)
	}
	maxID := 1
	w := ex.writerFor(part, &maxID)
	ex.out.relsFor(part).add(relSlideLayout, lay, false)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n")
	b.WriteString(`<p:sld xmlns:a="` + nsA + `" xmlns:r="` + nsR + `" xmlns:p="` + nsP + `"`)
	if s.Slide != nil && s.Slide.Hidden {
		b.WriteString(` show="0"`)
	}
	b.WriteString(`><p:cSld`)
	if s.Name != "" {
		b.WriteString(` name="` + esc(s.Name) + `"`)
	}
	b.WriteString(`>`)
	if len(visiblePaints(s.Fills)) > 0 {
		b.WriteString(`<p:bg><p:bgPr>` + w.fillXML(w.boxFills(s.Fills, s.Size)) + `<a:effectLst/></p:bgPr></p:bg>`)
	}
	b.WriteString(`<p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`)
	for _, c := range s.Children {
		if !inheritedNode(c, "") {
			b.WriteString(w.shapeXML(c, slideMap))
		}
	}
	b.WriteString(`</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr>`)
	if s.Slide != nil && s.Slide.Transition != nil {
		tmp := &xnode{kind: kElem}
		setTransition(tmp, s.Slide.Transition)
		for _, k := range tmp.kids {
			b.WriteString(k.text)
		}
	}
	b.WriteString(`</p:sld>`)
	ex.out.put(part, []byte(b.String()))
	ex.out.ctOver[part] = ctSlide
	if s.Slide != nil && s.Slide.Notes != "" {
		return ex.newNotes(part, s)
	}
	return nil
}

// layoutFor picks the layout part of a new slide: the layout named by
// Slide.Layout (exactly, else ignoring case and surrounding space); else,
// for a slide without a known layout name, the first layout whose type
// (p:sldLayout/@type, ECMA-376 §19.7.15) fits the slide's placeholders
// (phProfile.layoutTypes: title and body -> "obj", Title and Content; only
// a title -> "titleOnly"; none -> "blank"), else the first layout with
// the same placeholders; else the first slide's layout, else the first
// layout. "" when the package has no layout.
func (ex *exporter) layoutFor(s *sg.Node) string { return ex.im.layoutFor(s) }

// layoutFor is exporter.layoutFor on the package im read; Underlay draws
// a new slide's art from the same choice.
func (im *importer) layoutFor(s *sg.Node) string {
	want := ""
	if s.Slide != nil {
		want = s.Slide.Layout
	}
	var all []string
	for _, p := range im.p.order {
		if strings.HasPrefix(p, "ppt/slideLayouts/") && path.Ext(p) == ".xml" {
			all = append(all, p)
		}
	}
	layouts := make([]*layout, len(all))
	for i, p := range all {
		layouts[i], _ = im.layout(p) // nil for a damaged layout: never picked
	}
	if want != "" {
		for i, l := range layouts {
			if l != nil && l.name == want {
				return all[i]
			}
		}
		for i, l := range layouts {
			if l != nil && strings.EqualFold(strings.TrimSpace(l.name), strings.TrimSpace(want)) {
				return all[i]
			}
		}
	}
	// By placeholders: a layout of a fitting type, else one with the same
	// placeholders (custom layouts have no type).
	prof := slideProfile(s)
	for _, typ := range prof.layoutTypes() {
		for i, l := range layouts {
			if l != nil && layoutType(l) == typ {
				return all[i]
			}
		}
	}
	for i, l := range layouts {
		if l != nil && layoutProfile(l) == prof {
			return all[i]
		}
	}
	if len(im.slides) > 0 && im.slides[0].lay != nil {
		return im.slides[0].lay.part
	}
	if len(all) > 0 {
		return all[0]
	}
	return ""
}

// phProfile is what placeholders a slide or layout has: a centred title
// or subtitle (a title slide), a title, a picture, and how many content
// or text placeholders. Footer, date, slide number and header
// placeholders do not count.
type phProfile struct {
	center, title, pic bool
	bodies             int
}

func (p *phProfile) add(role string) {
	switch role {
	case "title":
		p.title = true
	case "ctrTitle", "subTitle":
		p.center = true
	case "pic":
		p.pic = true
	case "dt", "ftr", "sldNum", "hdr", "sldImg":
	default: // body, obj, tbl, chart, dgm, media, clipArt
		p.bodies++
	}
}

// slideProfile reads the placeholders of a slide's own nodes (not those
// imported from its layout or master).
func slideProfile(s *sg.Node) phProfile {
	var p phProfile
	s.Walk(func(n, _ *sg.Node, _ int) bool {
		if n == s {
			return true
		}
		if inheritedNode(n, "") {
			return false
		}
		if n.Placeholder != nil {
			role := n.Placeholder.Role
			if role == "" {
				role = "obj"
			}
			p.add(role)
		}
		return true
	})
	return p
}

// layoutProfile reads the placeholders of a layout.
func layoutProfile(l *layout) phProfile {
	var p phProfile
	for _, e := range l.phs {
		p.add(phType(phOf(e)))
	}
	return p
}

// layoutTypes lists the layout types (ST_SlideLayoutType, ECMA-376
// §19.7.15) that fit a placeholder profile, best first: a centred title or
// subtitle -> Title Slide; a title with a picture -> Picture with Caption;
// a title with one, two or more content or text placeholders -> Title and
// Content (or Google's "tx"), Two Content (or "twoColTx"), Comparison; a
// title alone -> Title Only; content without a title -> Title and
// Content; nothing -> Blank.
func (p phProfile) layoutTypes() []string {
	switch {
	case p.center:
		return []string{"title"}
	case p.title && p.pic:
		return []string{"picTx", "obj", "tx"}
	case p.title && p.bodies >= 3:
		return []string{"twoTxTwoObj", "twoObj", "twoColTx", "obj", "tx"}
	case p.title && p.bodies == 2:
		return []string{"twoObj", "twoColTx", "obj", "tx"}
	case p.title && p.bodies == 1:
		return []string{"obj", "tx"}
	case p.title:
		return []string{"titleOnly"}
	case p.bodies > 0 || p.pic:
		return []string{"obj", "tx"}
	}
	return []string{"blank"}
}

// layoutType is a layout's p:sldLayout/@type, "cust" when absent
// (ECMA-376 §19.3.1.39).
func layoutType(l *layout) string {
	if t := l.doc.root().av("type"); t != "" {
		return t
	}
	return "cust"
}

func short(ref string) string {
	if len(ref) > 12 {
		return ref[:12]
	}
	return ref
}

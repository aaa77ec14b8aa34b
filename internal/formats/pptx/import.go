package pptx

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Warning is something import or export approximated or dropped, with the
// part it concerns.
type Warning struct {
	Part string `json:"part,omitempty"`
	Msg  string `json:"message"`
}

func (w Warning) String() string {
	if w.Part == "" {
		return w.Msg
	}
	return w.Part + ": " + w.Msg
}

// Import reads a .pptx into the scene graph with DefaultLimits. See
// ImportDetailed.
func Import(data []byte, name string) (*sg.Deck, sg.Blobs, error) {
	d, b, _, err := ImportDetailed(data, name, DefaultLimits)
	return d, b, err
}

// ImportDetailed reads a .pptx (PresentationML, ECMA-376 Part 1 §19) into a
// scene-graph deck. The returned blobs hold every media part by SHA-256 ref
// (also listed in Deck.Assets) and the original package bytes under
// Deck.Source.Ref, which Export reads back to write untouched parts
// byte-identical. Warnings list what was approximated.
//
// Errors name the file and the part: not a zip, truncated, a missing
// required part ([Content_Types].xml, the presentation, a slide's layout),
// invalid XML, a limit exceeded, or a value the scene graph refuses
// (sg.ValidateValues: a coordinate outside ST_Coordinate, with the node and
// field named).
func ImportDetailed(data []byte, name string, lim Limits) (*sg.Deck, sg.Blobs, []Warning, error) {
	return ImportWithOptions(data, name, Options{Limits: lim})
}

// Options tune ImportWithOptions.
type Options struct {
	Limits Limits // zero value: DefaultLimits
	// Inherited adds the shapes a slide shows from its layout and master
	// (logos, rules, background art; never placeholders) as locked nodes at
	// the back of the slide, with ids "s<N>/master/<id>" and
	// "s<N>/layout/<id>" and Source.Part naming the layout or master part.
	// They are for rendering: Export never writes them into the slide (they
	// stay in the layout), so deleting or moving them has no effect.
	// p:sld/@showMasterSp and p:sldLayout/@showMasterSp are honoured.
	Inherited bool
}

// ImportWithOptions is ImportDetailed with options.
func ImportWithOptions(data []byte, name string, o Options) (*sg.Deck, sg.Blobs, []Warning, error) {
	im, err := newImporter(data, name, o.Limits)
	if err != nil {
		return nil, nil, nil, err
	}
	im.inherited = o.Inherited
	if err := im.run(); err != nil {
		return nil, nil, nil, err
	}
	// A coordinate beyond ST_Coordinate (a hand-made or damaged file) or
	// a character XML cannot hold would only fail at export, far from its
	// cause: refuse it here, naming the shape and the field.
	if err := sg.ValidateValues(im.deck); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return im.deck, im.blobs, im.warns, nil
}

type importer struct {
	p        *pkg
	name     string
	deck     *sg.Deck
	blobs    sg.Blobs
	warns    []Warning
	presPart string
	pres     *xnode
	defText  *xnode
	masters  map[string]*master
	layouts  map[string]*layout
	slides   []*slideInfo
	bySlide  map[string]*slideInfo // slide part -> info
	media    map[string]string     // media part -> asset ref
	shapes   map[string]*shapeInfo // node id -> element, for export
	// equations are the mc:AlternateContent elements imported as MATH
	// nodes (mathShape); export treats them as shape slots.
	equations map[*xnode]bool
	sldIDs    map[string]string // p:sldId/@id -> slide node id
	themeOf   map[string]*theme
	warnSeen  map[string]bool
	// fatal is the first error found where the importer cannot stop at
	// once (a picture over the bounds of sg.PictureTooLargeError); run
	// returns it.
	fatal error
	// only, when set, names the slide parts to import in full; the others
	// get a stub (export needs nothing of a slide it copies unchanged).
	only map[string]bool
	// inherited: add layout and master decoration shapes to slides.
	inherited bool
}

type master struct {
	part     string
	doc      *xnode
	th       *theme
	clrMap   map[string]string
	txStyles *xnode
	phs      []*xnode
	bg       *xnode
}

type layout struct {
	part string
	name string
	doc  *xnode
	m    *master
	phs  []*xnode
	bg   *xnode
}

// slideInfo is what export needs to find a slide's XML again.
type slideInfo struct {
	part   string
	doc    *xnode
	spTree *xnode
	node   *sg.Node
	lay    *layout
	rels   []rel
	sldID  string // p:sldId/@id
	relID  string // r:id in presentation.xml
	maxID  int    // highest cNvPr id in the slide
	notes  string // notes slide part, if any
	cc     *colorCtx
	stub   bool // not imported (see importer.only)
}

// shapeInfo ties a node to its element and the coordinate mapping of its
// parent, so export can patch the element in place.
type shapeInfo struct {
	elem  *xnode
	node  *sg.Node
	slide *slideInfo
	m     emuMap
	kind  string // sp, pic, grpSp, graphicFrame, cxnSp, tc, other
	// parent is the p:spTree or p:grpSp holding elem; childMap the child
	// space of a group.
	parent   *xnode
	childMap emuMap
}

// emuMap maps a container's child EMU coordinates to its local px:
// px = (emu - off) * scale / 9525 (a:chOff / a:chExt of p:grpSpPr).
type emuMap struct {
	offX, offY     int64
	scaleX, scaleY float64
}

var slideMap = emuMap{scaleX: 1, scaleY: 1}

func (m emuMap) x(emu int64) float64 { return float64(emu-m.offX) * m.scaleX / sg.EMUPerPx }
func (m emuMap) y(emu int64) float64 { return float64(emu-m.offY) * m.scaleY / sg.EMUPerPx }
func (m emuMap) w(emu int64) float64 { return float64(emu) * m.scaleX / sg.EMUPerPx }
func (m emuMap) h(emu int64) float64 { return float64(emu) * m.scaleY / sg.EMUPerPx }

func newImporter(data []byte, name string, lim Limits) (*importer, error) {
	if lim.MaxParts == 0 {
		lim = DefaultLimits
	}
	p, err := openPackage(data, name, lim)
	if err != nil {
		return nil, err
	}
	im := &importer{
		p: p, name: name, blobs: sg.Blobs{},
		masters: map[string]*master{}, layouts: map[string]*layout{}, bySlide: map[string]*slideInfo{},
		media: map[string]string{}, shapes: map[string]*shapeInfo{}, equations: map[*xnode]bool{}, sldIDs: map[string]string{},
		themeOf: map[string]*theme{}, warnSeen: map[string]bool{},
	}
	ref := im.blobs.Put(data)
	base := strings.TrimSuffix(path.Base(name), path.Ext(name))
	im.deck = &sg.Deck{
		ID:     "pptx-" + ref[:16],
		Name:   base,
		Source: &sg.DeckSource{Format: "pptx", Name: name, Ref: ref},
	}
	return im, nil
}

func (im *importer) warn(part, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if im.warnSeen[part+"\x00"+msg] {
		return
	}
	im.warnSeen[part+"\x00"+msg] = true
	im.warns = append(im.warns, Warning{Part: part, Msg: msg})
}

func (im *importer) run() error {
	p := im.p
	if !p.has("[Content_Types].xml") {
		return fmt.Errorf("%s: missing part [Content_Types].xml; this zip is not an OPC package (.pptx)", im.name)
	}
	if _, err := p.xml("[Content_Types].xml"); err != nil {
		return err
	}
	pkgRels, err := p.relsOf("")
	if err != nil {
		return err
	}
	if !p.has("_rels/.rels") {
		return fmt.Errorf("%s: missing part _rels/.rels (package relationships)", im.name)
	}
	od, ok := relByType(pkgRels, relOfficeDoc)
	if !ok {
		// strict OOXML uses a purl.oclc.org type; accept any officeDocument
		for _, r := range pkgRels {
			if strings.HasSuffix(r.Type, "/officeDocument") {
				od, ok = r, true
			}
		}
	}
	if !ok {
		return fmt.Errorf("%s: _rels/.rels has no officeDocument relationship; not a presentation", im.name)
	}
	im.presPart = od.Target
	doc, err := p.xml(im.presPart)
	if err != nil {
		return err
	}
	im.pres = doc.root()
	if im.pres.local == "presentation" && strings.Contains(im.pres.ns, "purl.oclc.org") {
		return fmt.Errorf("%s: part %s is Strict Open XML (%s), which is not supported; save the file as a standard PowerPoint Presentation (.pptx)", im.name, im.presPart, im.pres.ns)
	}
	if !im.pres.is(nsP, "presentation") {
		return fmt.Errorf("%s: part %s: root is <%s>, want p:presentation (is this a Word or Excel file?)", im.name, im.presPart, qname(im.pres.prefix, im.pres.local))
	}
	im.defText = im.pres.child(nsP, "defaultTextStyle")
	sz := im.pres.child(nsP, "sldSz")
	cx, cy := inum(sz.av("cx")), inum(sz.av("cy"))
	if cx <= 0 || cy <= 0 {
		cx, cy = 12192000, 6858000
		im.warn(im.presPart, "no valid p:sldSz; assumed 16:9 (13.333 x 7.5 in)")
	}
	im.deck.Width, im.deck.Height = sg.EMUToPx(cx), sg.EMUToPx(cy)
	presRels, err := p.relsOf(im.presPart)
	if err != nil {
		return err
	}
	// Theme tokens come from the first master's theme.
	for _, mid := range im.pres.path(nsP, "sldMasterIdLst").all(nsP, "sldMasterId") {
		r, ok := relByID(presRels, mid.attrNS(nsR, "id"))
		if !ok {
			return fmt.Errorf("%s: part %s: slide master relationship %q not found", im.name, im.presPart, mid.attrNS(nsR, "id"))
		}
		m, err := im.master(r.Target)
		if err != nil {
			return err
		}
		if im.deck.Tokens.Colors == nil {
			im.tokens(m)
		}
	}
	for i, sid := range im.pres.path(nsP, "sldIdLst").all(nsP, "sldId") {
		rid := sid.attrNS(nsR, "id")
		r, ok := relByID(presRels, rid)
		if !ok {
			return fmt.Errorf("%s: part %s: slide %d's relationship %q not found in %s", im.name, im.presPart, i+1, rid, relsPart(im.presPart))
		}
		if !p.has(r.Target) {
			return fmt.Errorf("%s: missing part %s (slide %d listed in %s)", im.name, r.Target, i+1, im.presPart)
		}
		var si *slideInfo
		if im.only != nil && !im.only[r.Target] {
			si, err = im.stubSlide(r.Target, i)
		} else {
			si, err = im.slide(r.Target, i)
		}
		if err == nil {
			err = im.fatal
		}
		if err != nil {
			return err
		}
		si.sldID, si.relID = sid.av("id"), rid
		im.sldIDs[si.sldID] = si.node.ID
		im.slides = append(im.slides, si)
		im.deck.Slides = append(im.deck.Slides, si.node)
	}
	if im.fatal != nil {
		return im.fatal
	}
	im.sections()
	im.resolveLinks()
	for _, s := range im.deck.Slides {
		stampDigests(s)
	}
	return nil
}

// stampDigests records NodeDigest on every node carrying a Source, deepest
// first (a parent's digest covers its children's).
func stampDigests(n *sg.Node) {
	for _, c := range n.Children {
		stampDigests(c)
	}
	if n.Source != nil {
		n.Source.Digest = sg.NodeDigest(n)
	}
}

func (im *importer) tokens(m *master) {
	t := &im.deck.Tokens
	t.Colors = map[string]sg.Color{}
	for k, v := range m.th.colors {
		t.Colors[k] = v
	}
	t.Fonts = sg.FontTokens{Major: m.th.major, Minor: m.th.minor}
	cc := &colorCtx{th: m.th, clrMap: m.clrMap}
	ts := map[string]sg.TypeStyle{}
	for key, el := range map[string]string{"title": "titleStyle", "body": "bodyStyle", "other": "otherStyle"} {
		src := m.txStyles.child(nsP, el)
		if src == nil {
			continue
		}
		tc := &textCtx{im: im, cc: cc, th: m.th, lists: []*xnode{im.defText, src}}
		ts[key] = tc.runStyle(0, nil)
	}
	if len(ts) > 0 {
		t.TextStyles = ts
	}
}

func (im *importer) theme(part string) (*theme, error) {
	if t, ok := im.themeOf[part]; ok {
		return t, nil
	}
	doc, err := im.p.xml(part)
	if err != nil {
		return nil, err
	}
	t := parseTheme(doc)
	im.themeOf[part] = t
	return t, nil
}

// partAndRel parses part and returns it with the target of its required
// relationship of type rel; kind and relName name both in the error.
func (im *importer) partAndRel(part, rel, kind, relName string) (*xnode, string, error) {
	doc, err := im.p.xml(part)
	if err != nil {
		return nil, "", err
	}
	rels, err := im.p.relsOf(part)
	if err != nil {
		return nil, "", err
	}
	r, ok := relByType(rels, rel)
	if !ok {
		return nil, "", fmt.Errorf("%s: part %s: %s has no %s relationship", im.name, part, kind, relName)
	}
	return doc, r.Target, nil
}

func (im *importer) master(part string) (*master, error) {
	if m, ok := im.masters[part]; ok {
		return m, nil
	}
	doc, themePart, err := im.partAndRel(part, relTheme, "slide master", "theme")
	if err != nil {
		return nil, err
	}
	th, err := im.theme(themePart)
	if err != nil {
		return nil, err
	}
	root := doc.root()
	m := &master{part: part, doc: doc, th: th, clrMap: map[string]string{}, txStyles: root.child(nsP, "txStyles")}
	for _, a := range root.child(nsP, "clrMap").attrs {
		m.clrMap[a.local] = a.value
	}
	if len(m.clrMap) == 0 {
		m.clrMap = map[string]string{"bg1": "lt1", "tx1": "dk1", "bg2": "lt2", "tx2": "dk2"}
	}
	csld := root.child(nsP, "cSld")
	m.bg = csld.child(nsP, "bg")
	m.phs = placeholders(csld.child(nsP, "spTree"))
	im.masters[part] = m
	return m, nil
}

func (im *importer) layout(part string) (*layout, error) {
	if l, ok := im.layouts[part]; ok {
		return l, nil
	}
	doc, masterPart, err := im.partAndRel(part, relSlideMaster, "slide layout", "slide master")
	if err != nil {
		return nil, err
	}
	m, err := im.master(masterPart)
	if err != nil {
		return nil, err
	}
	csld := doc.root().child(nsP, "cSld")
	l := &layout{part: part, name: csld.av("name"), doc: doc, m: m, bg: csld.child(nsP, "bg")}
	l.phs = placeholders(csld.child(nsP, "spTree"))
	im.layouts[part] = l
	return l, nil
}

// placeholders lists the shapes with a p:ph in a shape tree, groups included.
func placeholders(tree *xnode) []*xnode {
	var out []*xnode
	for _, e := range tree.elems() {
		if e.local == "grpSp" {
			out = append(out, placeholders(e)...)
			continue
		}
		if phOf(e) != nil {
			out = append(out, e)
		}
	}
	return out
}

// nvPr returns the p:nvPr of a shape element of any kind.
func nvPr(e *xnode) *xnode {
	for _, k := range e.elems() {
		if strings.HasPrefix(k.local, "nv") && strings.HasSuffix(k.local, "Pr") {
			return k.child(nsP, "nvPr")
		}
	}
	return nil
}

// cNvPr returns the p:cNvPr of a shape element of any kind.
func cNvPr(e *xnode) *xnode {
	for _, k := range e.elems() {
		if strings.HasPrefix(k.local, "nv") && strings.HasSuffix(k.local, "Pr") {
			return k.child(nsP, "cNvPr")
		}
	}
	return nil
}

func phOf(e *xnode) *xnode { return nvPr(e).child(nsP, "ph") }

// phType returns the placeholder type, "obj" when absent (ECMA-376 §19.3.1.36).
func phType(ph *xnode) string {
	if t := ph.av("type"); t != "" {
		return t
	}
	return "obj"
}

// matchPlaceholder finds the layout or master shape a slide placeholder
// inherits from: same idx first, then same type (title~ctrTitle,
// body~subTitle~obj).
func matchPlaceholder(phs []*xnode, ph *xnode, byTypeOnly bool) *xnode {
	if ph == nil {
		return nil
	}
	t := phType(ph)
	if idx, ok := ph.attr("idx"); ok && !byTypeOnly {
		for _, c := range phs {
			if v, ok2 := phOf(c).attr("idx"); ok2 && v == idx {
				return c
			}
		}
	}
	for _, c := range phs {
		if phType(phOf(c)) == t {
			return c
		}
	}
	family := func(t string) string {
		switch t {
		case "title", "ctrTitle":
			return "title"
		case "body", "subTitle", "obj", "tbl", "chart", "dgm", "media", "clipArt", "pic":
			return "body"
		}
		return t
	}
	for _, c := range phs {
		if family(phType(phOf(c))) == family(t) {
			return c
		}
	}
	return nil
}

// slideID is the stable id of a slide part: "s<N>" for .../slide<N>.xml.
func slideID(part string, index int) string {
	if num := partNumber(part); num >= 0 {
		return "s" + strconv.Itoa(num)
	}
	return "s" + strconv.Itoa(index+1) + "x"
}

// stubSlide records what export needs of a slide it will copy unchanged:
// its id, layout, relationships and notes part.
func (im *importer) stubSlide(part string, index int) (*slideInfo, error) {
	rels, err := im.p.relsOf(part)
	if err != nil {
		return nil, err
	}
	si := &slideInfo{part: part, rels: rels, stub: true,
		node: &sg.Node{ID: slideID(part, index), Type: sg.TypeSlide, Source: &sg.Source{Format: "pptx", Part: part}}}
	if lr, ok := relByType(rels, relSlideLayout); ok && im.p.has(lr.Target) {
		if si.lay, err = im.layout(lr.Target); err != nil {
			return nil, err
		}
	}
	if nr, ok := relByType(rels, relNotesSlide); ok && im.p.has(nr.Target) {
		si.notes = nr.Target
	}
	im.bySlide[part] = si
	return si, nil
}

func (im *importer) slide(part string, index int) (*slideInfo, error) {
	doc, err := im.p.xml(part)
	if err != nil {
		return nil, err
	}
	root := doc.root()
	if !root.is(nsP, "sld") {
		return nil, fmt.Errorf("%s: part %s: root is <%s>, want p:sld", im.name, part, qname(root.prefix, root.local))
	}
	rels, err := im.p.relsOf(part)
	if err != nil {
		return nil, err
	}
	lr, ok := relByType(rels, relSlideLayout)
	if !ok {
		return nil, fmt.Errorf("%s: part %s: slide has no slide layout relationship (required by ECMA-376 §19.3.1.38)", im.name, part)
	}
	if !im.p.has(lr.Target) {
		return nil, fmt.Errorf("%s: missing part %s (layout of %s)", im.name, lr.Target, part)
	}
	lay, err := im.layout(lr.Target)
	if err != nil {
		return nil, err
	}
	id := slideID(part, index)
	csld := root.child(nsP, "cSld")
	si := &slideInfo{part: part, doc: doc, spTree: csld.child(nsP, "spTree"), lay: lay, rels: rels}
	si.cc = slideColors(root, lay)
	n := &sg.Node{
		ID: id, Type: sg.TypeSlide, Name: csld.av("name"), Transform: sg.Identity,
		Size:   sg.Vector{X: im.deck.Width, Y: im.deck.Height},
		Source: &sg.Source{Format: "pptx", Part: part},
		Slide:  &sg.SlideProps{Layout: lay.name, Hidden: root.av("show") == "0"},
	}
	si.node = n
	im.bySlide[part] = si
	// Background: the slide's own, else the layout's, else the master's.
	// A background that paints nothing (p:bgPr with a:noFill) shows the
	// next one down, as LibreOffice draws it: decks written by tools that
	// "clear" a slide's background this way keep text coloured for the
	// master's (Iphone16Pro: light green text on the theme's dark bg2).
	for _, bg := range []struct {
		el   *xnode
		part string
	}{{csld.child(nsP, "bg"), part}, {lay.bg, lay.part}, {lay.m.bg, lay.m.part}} {
		if bg.el != nil {
			n.Fills = im.background(bg.el, bg.part, si.cc)
			if len(visiblePaints(n.Fills)) > 0 {
				break
			}
		}
	}
	n.Slide.Transition = transition(root)
	if nr, ok := relByType(rels, relNotesSlide); ok && im.p.has(nr.Target) {
		si.notes = nr.Target
		n.Slide.Notes = im.notesText(nr.Target)
	}
	ctx := &shapeCtx{im: im, si: si, part: part, cc: si.cc, ids: map[string]int{}, slideNo: index + 1}
	n.Children = ctx.tree(si.spTree, slideMap, id)
	si.maxID = ctx.maxID
	// The shape tree's own p:nvGrpSpPr holds an id too (usually 1): new
	// shapes on a slide without shapes must not reuse it (ECMA-376
	// §19.3.1.12: cNvPr ids are unique within the slide).
	if nv := cNvPr(si.spTree); nv != nil {
		if v, err := strconv.Atoi(nv.av("id")); err == nil && v > si.maxID {
			si.maxID = v
		}
	}
	if im.inherited {
		n.Children = append(im.inheritedShapes(si, root, index), n.Children...)
	}
	return si, nil
}

// slideColors is the colour context of a slide: its layout's theme and the
// master's colour map, or the slide's p:clrMapOvr (ECMA-376 §19.3.1.7).
func slideColors(root *xnode, lay *layout) *colorCtx {
	cc := &colorCtx{th: lay.m.th, clrMap: lay.m.clrMap}
	if ov := root.path(nsP, "clrMapOvr").child(nsA, "overrideClrMapping"); ov != nil {
		cc.clrMap = map[string]string{}
		for _, a := range ov.attrs {
			cc.clrMap[a.local] = a.value
		}
	}
	return cc
}

// inheritedShapes are the master's then the layout's decorations shown on
// the slide whose p:sld element is root (nil for a slide that has no part
// yet), honouring p:sld/@showMasterSp and p:sldLayout/@showMasterSp.
func (im *importer) inheritedShapes(si *slideInfo, root *xnode, index int) []*sg.Node {
	if root != nil && root.av("showMasterSp") == "0" {
		return nil
	}
	lay := si.lay
	var deco []*sg.Node
	if lay.doc.root().av("showMasterSp") != "0" {
		deco = append(deco, im.decorations(si, index, lay.m.part, lay.m.doc, "master")...)
	}
	return append(deco, im.decorations(si, index, lay.part, lay.doc, "layout")...)
}

// decorations imports the non-placeholder shapes of a layout or master as
// locked nodes of the slide at index (see Options.Inherited). Their slide
// number fields show that slide's number, as PowerPoint draws them.
func (im *importer) decorations(si *slideInfo, index int, part string, doc *xnode, kind string) []*sg.Node {
	tree := doc.root().path(nsP, "cSld", "spTree")
	shown := &xnode{kind: kElem}
	for _, k := range tree.kids {
		if k.kind == kElem && shapeTags[k.local] && phOf(k) == nil {
			shown.kids = append(shown.kids, k)
		}
	}
	if len(shown.kids) == 0 {
		return nil
	}
	rels, err := im.p.relsOf(part)
	if err != nil {
		im.warn(part, "decorations skipped: %v", err)
		return nil
	}
	owner := &slideInfo{part: part, rels: rels, lay: si.lay, cc: si.cc}
	first := 1
	if v, ok := im.pres.attr("firstSlideNum"); ok {
		first = int(inum(v))
	}
	ctx := &shapeCtx{im: im, si: owner, part: part, cc: si.cc, ids: map[string]int{}, slideNum: first + index, slideNo: index + 1}
	nodes := ctx.tree(shown, slideMap, si.node.ID+"/"+kind)
	for _, n := range nodes {
		n.Walk(func(c, _ *sg.Node, _ int) bool { c.Locked = true; return true })
	}
	return nodes
}

// transition reads p:transition (directly or inside mc:AlternateContent's
// fallback).
func transition(root *xnode) *sg.Transition {
	tr := root.child(nsP, "transition")
	if tr == nil {
		for _, ac := range root.all(nsMC, "AlternateContent") {
			if t := ac.child(nsMC, "Fallback").child(nsP, "transition"); t != nil {
				tr = t
			}
		}
	}
	if tr == nil {
		return nil
	}
	t := &sg.Transition{Type: "none"}
	if k := tr.elems(); len(k) > 0 {
		t.Type = k[0].local
		t.Direction = k[0].av("dir")
	}
	switch tr.av("spd") {
	case "slow":
		t.DurationMs = 1000
	case "med":
		t.DurationMs = 750
	case "fast":
		t.DurationMs = 500
	}
	if d := tr.av("dur"); d != "" {
		t.DurationMs = num(d)
	}
	return t
}

// notesText returns the text of the notes slide's body placeholder.
func (im *importer) notesText(part string) string {
	doc, err := im.p.xml(part)
	if err != nil {
		im.warn(part, "notes slide unreadable: %v", err)
		return ""
	}
	for _, sp := range doc.root().path(nsP, "cSld", "spTree").all(nsP, "sp") {
		if ph := phOf(sp); ph != nil && phType(ph) == "body" {
			var paras []string
			for _, p := range sp.path(nsP, "txBody").all(nsA, "p") {
				paras = append(paras, paraText(p))
			}
			return strings.Join(paras, "\n")
		}
	}
	return ""
}

// paraText is the text of an a:p with each a:br as U+2028, the line
// separator slide text uses too (notesParagraphs writes it back as a:br).
func paraText(p *xnode) string {
	var b strings.Builder
	for _, k := range p.kids {
		if k.kind == kElem && k.local == "br" {
			b.WriteRune(lineSep)
		} else if k.kind == kElem {
			b.WriteString(k.allText())
		}
	}
	return b.String()
}

// background turns p:bg (p:bgPr fill or p:bgRef theme reference) into paints.
func (im *importer) background(bg *xnode, part string, cc *colorCtx) []sg.Paint {
	if pr := bg.child(nsP, "bgPr"); pr != nil {
		ps, _ := im.fill(pr, part, cc)
		return ps
	}
	if ref := bg.child(nsP, "bgRef"); ref != nil {
		pc, _ := cc.colorChild(ref)
		idx := int(inum(ref.av("idx")))
		sub := &colorCtx{th: cc.th, clrMap: cc.clrMap, phClr: &pc}
		var style *xnode
		switch {
		case idx >= 1001 && idx-1001 < len(cc.th.bgs):
			style = cc.th.bgs[idx-1001]
		case idx >= 1 && idx-1 < len(cc.th.fills):
			style = cc.th.fills[idx-1]
		}
		if style != nil {
			wrap := &xnode{kind: kElem, kids: []*xnode{style}}
			ps, _ := im.fill(wrap, part, sub)
			return ps
		}
		return []sg.Paint{paintOf(pc)}
	}
	return nil
}

// sections reads the PowerPoint 2010 section list (p14:sectionLst in the
// presentation's extLst).
func (im *importer) sections() {
	for _, ext := range im.pres.path(nsP, "extLst").all(nsP, "ext") {
		sl := ext.child(nsP14, "sectionLst")
		if sl == nil {
			continue
		}
		for _, sec := range sl.all(nsP14, "section") {
			s := sg.Section{Name: sec.av("name")}
			for _, sid := range sec.child(nsP14, "sldIdLst").all(nsP14, "sldId") {
				if id, ok := im.sldIDs[sid.av("id")]; ok {
					s.SlideIDs = append(s.SlideIDs, id)
					if sl, _ := im.deck.SlideByID(id); sl != nil {
						sl.Slide.Section = s.Name
					}
				}
			}
			im.deck.Sections = append(im.deck.Sections, s)
		}
	}
}

// resolveLinks turns slide-jump hyperlinks (recorded as part names) into
// slide ids, dropping jumps to slides that are not in the deck.
func (im *importer) resolveLinks() {
	fix := func(l *sg.Link) *sg.Link {
		if l == nil || l.NodeID == "" {
			return l
		}
		if si, ok := im.bySlide[l.NodeID]; ok {
			return &sg.Link{NodeID: si.node.ID}
		}
		if l.URL != "" {
			return &sg.Link{URL: l.URL}
		}
		return nil
	}
	im.deck.Walk(func(n, _ *sg.Node, _ int) bool {
		n.Link = fix(n.Link)
		if n.Style != nil {
			n.Style.Link = fix(n.Style.Link)
		}
		for k, st := range n.StyleOverrideTable {
			st.Link = fix(st.Link)
			n.StyleOverrideTable[k] = st
		}
		return true
	})
}

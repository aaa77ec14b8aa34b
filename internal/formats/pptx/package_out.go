package pptx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
)

// outPkg is the package being written: the original parts in their zip order
// (copied raw unless replaced or deleted) followed by new parts.
type outPkg struct {
	orig    *pkg
	order   []string
	data    map[string][]byte
	deleted map[string]bool
	ctDef   map[string]string // new Default extension -> content type
	ctOver  map[string]string // new Override part -> content type
	rels    map[string]*relsEdit
}

func newOutPkg(orig *pkg) *outPkg {
	return &outPkg{orig: orig, order: append([]string(nil), orig.order...), data: map[string][]byte{}, deleted: map[string]bool{},
		ctDef: map[string]string{}, ctOver: map[string]string{}, rels: map[string]*relsEdit{}}
}

func (o *outPkg) exists(part string) bool {
	if o.deleted[part] {
		return false
	}
	if _, ok := o.data[part]; ok {
		return true
	}
	return o.orig.has(part)
}

// put sets a part's bytes, adding it at the end when new.
func (o *outPkg) put(part string, b []byte) {
	if !o.orig.has(part) {
		if _, ok := o.data[part]; !ok {
			o.order = append(o.order, part)
		}
	}
	delete(o.deleted, part)
	o.data[part] = b
}

func (o *outPkg) del(part string) {
	o.deleted[part] = true
	delete(o.ctOver, part)
}

// freeName returns dir/base<N>ext with N above every existing number.
func (o *outPkg) freeName(dir, base, ext string) string {
	max := 0
	for _, p := range o.order {
		if path.Dir(p) == dir && strings.HasPrefix(path.Base(p), base) {
			if n := partNumber(p); n > max {
				max = n
			}
		}
	}
	return dir + "/" + base + strconv.Itoa(max+1) + ext
}

// relsEdit edits one part's relationships, keeping the untouched ones as
// written.
type relsEdit struct {
	part    string
	doc     *xnode
	rels    []rel
	removed map[string]bool
	added   []rel
	next    int
	// retargeted is set when an entry of doc points elsewhere now.
	retargeted bool
}

func (o *outPkg) relsFor(part string) *relsEdit {
	if r, ok := o.rels[part]; ok {
		return r
	}
	var doc *xnode
	var rels []rel
	rp := relsPart(part)
	if o.orig.has(rp) {
		if d, err := o.orig.xml(rp); err == nil {
			doc = d
			rels, _ = o.orig.relsOf(part)
		}
	}
	return o.setRels(part, doc, rels)
}

// setRels starts the relationships of part from doc, its parsed .rels,
// holding rels (targets resolved; nil doc for none).
func (o *outPkg) setRels(part string, doc *xnode, rels []rel) *relsEdit {
	r := &relsEdit{part: part, doc: doc, rels: rels, removed: map[string]bool{}, next: 1}
	for _, x := range r.rels {
		if n, err := strconv.Atoi(strings.TrimPrefix(x.ID, "rId")); err == nil && n >= r.next {
			r.next = n + 1
		}
	}
	o.rels[part] = r
	return r
}

// retarget points relationship id at target (a part name).
func (r *relsEdit) retarget(id, target string) {
	for i := range r.rels {
		if r.rels[i].ID == id && !r.rels[i].External {
			r.rels[i].Target = target
		}
	}
	if r.doc == nil {
		return
	}
	for _, e := range r.doc.root().all(nsRels, "Relationship") {
		if e.av("Id") == id {
			e.setAttr("Target", relativeTarget(r.part, target))
			r.retargeted = true
		}
	}
}

// add returns the id of a relationship to target (a part name, or a URL when
// external), reusing an identical one.
func (r *relsEdit) add(typ, target string, external bool) string {
	for _, x := range append(append([]rel{}, r.rels...), r.added...) {
		if x.Type == typ && x.Target == target && x.External == external && !r.removed[x.ID] {
			return x.ID
		}
	}
	id := "rId" + strconv.Itoa(r.next)
	r.next++
	r.added = append(r.added, rel{ID: id, Type: typ, Target: target, External: external})
	return id
}

// addID adds a relationship under a given id (one copied from another
// part, which its XML names), keeping later ids above it.
func (r *relsEdit) addID(id, typ, target string, external bool) {
	r.added = append(r.added, rel{ID: id, Type: typ, Target: target, External: external})
	if n, err := strconv.Atoi(strings.TrimPrefix(id, "rId")); err == nil && n >= r.next {
		r.next = n + 1
	}
}

func (r *relsEdit) remove(id string) { r.removed[id] = true }

func (r *relsEdit) changed() bool { return len(r.added) > 0 || len(r.removed) > 0 || r.retargeted }

func (r *relsEdit) live() []rel {
	var out []rel
	for _, x := range append(append([]rel{}, r.rels...), r.added...) {
		if !r.removed[x.ID] {
			out = append(out, x)
		}
	}
	return out
}

// bytes serializes the relationships part, keeping untouched entries.
func (r *relsEdit) bytes() []byte {
	if r.doc == nil {
		var b bytes.Buffer
		b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n")
		b.WriteString(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
		for _, x := range r.added {
			b.WriteString(relXML(r.part, x))
		}
		b.WriteString(`</Relationships>`)
		return b.Bytes()
	}
	root := r.doc.root()
	var kids []*xnode
	for _, k := range root.kids {
		if k.is(nsRels, "Relationship") && r.removed[k.av("Id")] {
			continue
		}
		kids = append(kids, k)
	}
	for _, x := range r.added {
		kids = append(kids, rawNode(relXML(r.part, x)))
	}
	root.kids = kids
	root.dirty = true
	fixDirty(r.doc)
	return r.doc.bytes()
}

func relXML(source string, x rel) string {
	target := x.Target
	mode := ""
	if x.External {
		mode = ` TargetMode="External"`
	} else {
		target = relativeTarget(source, x.Target)
	}
	return `<Relationship Id="` + esc(x.ID) + `" Type="` + esc(x.Type) + `" Target="` + esc(target) + `"` + mode + `/>`
}

// contentTypes rewrites [Content_Types].xml for added and deleted parts.
func (o *outPkg) contentTypes() error {
	if len(o.ctDef) == 0 && len(o.ctOver) == 0 && len(o.deleted) == 0 {
		return nil
	}
	doc, err := o.orig.xml("[Content_Types].xml")
	if err != nil {
		return err
	}
	root := doc.root()
	have := map[string]bool{}
	var kids []*xnode
	for _, k := range root.kids {
		if k.is(nsCT, "Override") {
			p := strings.TrimPrefix(k.av("PartName"), "/")
			if o.deleted[p] {
				continue
			}
			have["o:"+p] = true
		}
		if k.is(nsCT, "Default") {
			have["d:"+strings.ToLower(k.av("Extension"))] = true
		}
		kids = append(kids, k)
	}
	for _, ext := range sortedKeys(o.ctDef) {
		if !have["d:"+ext] {
			kids = append(kids, rawNode(`<Default Extension="`+esc(ext)+`" ContentType="`+esc(o.ctDef[ext])+`"/>`))
		}
	}
	for _, p := range sortedKeys(o.ctOver) {
		if !have["o:"+p] && !o.deleted[p] {
			kids = append(kids, rawNode(`<Override PartName="/`+esc(p)+`" ContentType="`+esc(o.ctOver[p])+`"/>`))
		}
	}
	root.kids = kids
	root.dirty = true
	fixDirty(doc)
	o.data["[Content_Types].xml"] = doc.bytes()
	return nil
}

// dropOrphans deletes the parts the edit left unreferenced: parts reachable
// from the package relationships (_rels/.rels) in the original but not any
// more, with their own relationships. A replaced chart, picture or embedded
// workbook would otherwise stay in the file with the old data and colours,
// invisible in PowerPoint yet readable by anyone who unzips the deck. Parts
// that were already unreferenced in the original are kept as they were
// (ECMA-376 Part 2 §9: a package's parts are found through relationships).
func (o *outPkg) dropOrphans() error {
	was, err := o.reachable(func(part string) ([]rel, error) { return o.orig.relsOf(part) })
	if err != nil {
		return err
	}
	now, err := o.reachable(func(part string) ([]rel, error) {
		if o.deleted[part] {
			return nil, nil
		}
		if r, ok := o.rels[part]; ok {
			return r.live(), nil
		}
		if o.orig.has(part) || part == "" {
			return o.orig.relsOf(part)
		}
		return nil, nil
	})
	if err != nil {
		return err
	}
	for _, part := range sortedKeys(was) {
		if now[part] || o.deleted[part] || !o.exists(part) {
			continue
		}
		o.del(part)
		if rp := relsPart(part); o.exists(rp) {
			o.del(rp)
		}
	}
	return nil
}

// reachable walks internal relationships from the package root and returns
// every part name reached.
func (o *outPkg) reachable(relsOf func(part string) ([]rel, error)) (map[string]bool, error) {
	seen := map[string]bool{}
	queue := []string{""}
	for len(queue) > 0 {
		part := queue[0]
		queue = queue[1:]
		rels, err := relsOf(part)
		if err != nil {
			return nil, err
		}
		for _, r := range rels {
			if r.External || seen[r.Target] {
				continue
			}
			seen[r.Target] = true
			queue = append(queue, r.Target)
		}
	}
	return seen, nil
}

// write produces the zip. Parts nobody changed are copied with their
// original compressed bytes.
func (o *outPkg) write() ([]byte, error) {
	if err := o.dropOrphans(); err != nil {
		return nil, err
	}
	for _, part := range sortedKeys(o.rels) { // sorted: the zip's part order must not depend on map order
		r := o.rels[part]
		if r.changed() && !o.deleted[part] {
			o.put(relsPart(part), r.bytes())
		}
	}
	if err := o.contentTypes(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range o.order {
		if o.deleted[name] {
			continue
		}
		if b, ok := o.data[name]; ok {
			f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)})
			if err != nil {
				return nil, err
			}
			if _, err := f.Write(b); err != nil {
				return nil, err
			}
			continue
		}
		zf := o.orig.files[name]
		if zf == nil {
			return nil, fmt.Errorf("part %s: no content", name)
		}
		if err := zw.Copy(zf); err != nil {
			return nil, fmt.Errorf("part %s of the original package is damaged (%v); repair the file in PowerPoint and import it again", name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

package pptx

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// OOXML namespace URIs (ECMA-376 Part 1 §8-§21, Part 2 for packages).
const (
	nsA    = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsP    = "http://schemas.openxmlformats.org/presentationml/2006/main"
	nsR    = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsC    = "http://schemas.openxmlformats.org/drawingml/2006/chart"
	nsMC   = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	nsP14  = "http://schemas.microsoft.com/office/powerpoint/2010/main"
	nsRels = "http://schemas.openxmlformats.org/package/2006/relationships"
	nsCT   = "http://schemas.openxmlformats.org/package/2006/content-types"
)

type xkind uint8

const (
	kElem xkind = iota
	kText
	kOther // comment, processing instruction, directive: kept as raw bytes
	kRaw   // a fragment produced by the exporter, written as is
)

// xnode is one node of a parsed XML part. Every node parsed from a part
// remembers the byte range [start, end) it came from, so serializing an
// element nobody changed copies the original bytes exactly; only elements
// marked dirty are written from their fields. This is what lets export keep
// untouched shapes byte-identical while editing their neighbours.
type xnode struct {
	kind   xkind
	prefix string // namespace prefix as written ("a", "p", "" for default)
	local  string
	ns     string // resolved namespace URI
	attrs  []xattr
	kids   []*xnode
	text   string // kText: unescaped character data; kRaw: the fragment
	src    []byte // the part the node was parsed from (nil for new nodes)
	start  int
	end    int
	dirty  bool
}

type xattr struct {
	prefix, local, ns, value string
}

// xmlLimits bound one XML part.
type xmlLimits struct {
	maxDepth int
}

// parseXML parses a whole part into a tree rooted at a synthetic document
// node whose kids are the prolog and the root element. Errors name the part
// and the line.
func parseXML(part string, src []byte, lim xmlLimits) (*xnode, error) {
	dec := xml.NewDecoder(bytes.NewReader(src))
	dec.Strict = true
	doc := &xnode{kind: kElem, src: src, start: 0, end: len(src)}
	stack := []*xnode{doc}
	scopes := []map[string]string{{"xml": "http://www.w3.org/XML/1998/namespace"}}
	lookup := func(prefix string) string {
		for i := len(scopes) - 1; i >= 0; i-- {
			if u, ok := scopes[i][prefix]; ok {
				return u
			}
		}
		return ""
	}
	for {
		off := int(dec.InputOffset())
		tok, err := dec.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, fmt.Errorf("part %s: invalid XML at line %d: %s", part, se.Line, se.Msg)
			}
			return nil, fmt.Errorf("part %s: invalid XML: %v", part, err)
		}
		end := int(dec.InputOffset())
		parent := stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) > lim.maxDepth {
				return nil, fmt.Errorf("part %s: XML nested deeper than %d elements; the part is malformed or hostile", part, lim.maxDepth)
			}
			scope := map[string]string{}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" {
					scope[a.Name.Local] = a.Value
				} else if a.Name.Space == "" && a.Name.Local == "xmlns" {
					scope[""] = a.Value
				}
			}
			scopes = append(scopes, scope)
			n := &xnode{kind: kElem, prefix: t.Name.Space, local: t.Name.Local, src: src, start: off}
			n.ns = lookup(n.prefix)
			n.attrs = make([]xattr, len(t.Attr))
			for i, a := range t.Attr {
				xa := xattr{prefix: a.Name.Space, local: a.Name.Local, value: a.Value}
				if a.Name.Space != "" && a.Name.Space != "xmlns" {
					xa.ns = lookup(a.Name.Space)
				}
				n.attrs[i] = xa
			}
			parent.kids = append(parent.kids, n)
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) < 2 {
				return nil, fmt.Errorf("part %s: invalid XML: unexpected end tag </%s>", part, qname(t.Name.Space, t.Name.Local))
			}
			if parent.prefix != t.Name.Space || parent.local != t.Name.Local {
				return nil, fmt.Errorf("part %s: invalid XML: element <%s> closed by </%s>", part, qname(parent.prefix, parent.local), qname(t.Name.Space, t.Name.Local))
			}
			parent.end = end
			stack = stack[:len(stack)-1]
			scopes = scopes[:len(scopes)-1]
		case xml.CharData:
			parent.kids = append(parent.kids, &xnode{kind: kText, text: string(t), src: src, start: off, end: end})
		default:
			parent.kids = append(parent.kids, &xnode{kind: kOther, src: src, start: off, end: end})
		}
	}
	if len(stack) != 1 {
		return nil, fmt.Errorf("part %s: invalid XML: element <%s> is never closed (truncated part?)", part, qname(stack[len(stack)-1].prefix, stack[len(stack)-1].local))
	}
	if doc.root() == nil {
		return nil, fmt.Errorf("part %s: no XML root element", part)
	}
	return doc, nil
}

func qname(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + ":" + local
}

// root returns the document element of a document node.
func (n *xnode) root() *xnode {
	for _, k := range n.kids {
		if k.kind == kElem {
			return k
		}
	}
	return nil
}

func (n *xnode) is(ns, local string) bool {
	return n != nil && n.kind == kElem && n.local == local && n.ns == ns
}

// child returns the first element child with that namespace and local name.
func (n *xnode) child(ns, local string) *xnode {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.kind == kElem && k.local == local && k.ns == ns {
			return k
		}
	}
	return nil
}

// path follows a chain of child elements, all in namespace ns.
func (n *xnode) path(ns string, locals ...string) *xnode {
	for _, l := range locals {
		n = n.child(ns, l)
	}
	return n
}

// elems returns the element children.
func (n *xnode) elems() []*xnode {
	if n == nil {
		return nil
	}
	out := make([]*xnode, 0, len(n.kids))
	for _, k := range n.kids {
		if k.kind == kElem {
			out = append(out, k)
		}
	}
	return out
}

// all returns the element children with that name.
func (n *xnode) all(ns, local string) []*xnode {
	if n == nil {
		return nil
	}
	var out []*xnode
	for _, k := range n.kids {
		if k.kind == kElem && k.local == local && k.ns == ns {
			out = append(out, k)
		}
	}
	return out
}

// attr returns the value of an unprefixed attribute.
func (n *xnode) attr(local string) (string, bool) {
	if n == nil {
		return "", false
	}
	for _, a := range n.attrs {
		if a.local == local && a.prefix == "" {
			return a.value, true
		}
	}
	return "", false
}

// av returns an unprefixed attribute or "".
func (n *xnode) av(local string) string { v, _ := n.attr(local); return v }

// attrNS returns the value of a namespaced attribute (e.g. r:id).
func (n *xnode) attrNS(ns, local string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.attrs {
		if a.local == local && a.ns == ns {
			return a.value
		}
	}
	return ""
}

// setAttr sets or adds an unprefixed attribute and marks the element dirty.
func (n *xnode) setAttr(local, value string) {
	n.dirty = true
	for i := range n.attrs {
		if n.attrs[i].local == local && n.attrs[i].prefix == "" {
			n.attrs[i].value = value
			return
		}
	}
	n.attrs = append(n.attrs, xattr{local: local, value: value})
}

// delAttr removes an unprefixed attribute.
func (n *xnode) delAttr(local string) {
	for i := range n.attrs {
		if n.attrs[i].local == local && n.attrs[i].prefix == "" {
			n.attrs = append(n.attrs[:i], n.attrs[i+1:]...)
			n.dirty = true
			return
		}
	}
}

// allText concatenates the character data of the subtree.
func (n *xnode) allText() string {
	var b strings.Builder
	var rec func(*xnode)
	rec = func(x *xnode) {
		for _, k := range x.kids {
			switch k.kind {
			case kText:
				b.WriteString(k.text)
			case kElem:
				rec(k)
			}
		}
	}
	if n != nil {
		rec(n)
	}
	return b.String()
}

// newElem makes an element to be inserted into a parsed tree.
func newElem(prefix, local, ns string, attrs ...string) *xnode {
	n := &xnode{kind: kElem, prefix: prefix, local: local, ns: ns, dirty: true}
	for i := 0; i+1 < len(attrs); i += 2 {
		n.attrs = append(n.attrs, xattr{local: attrs[i], value: attrs[i+1]})
	}
	return n
}

// rawNode wraps an XML fragment the exporter generated.
func rawNode(frag string) *xnode { return &xnode{kind: kRaw, text: frag} }

// parentIn returns the element of the tree under root whose child is n
// (nil when n is not in it).
func (n *xnode) parentIn(root *xnode) *xnode {
	for _, k := range root.kids {
		if k == n {
			return root
		}
		if k.kind == kElem {
			if p := n.parentIn(k); p != nil {
				return p
			}
		}
	}
	return nil
}

// clone returns a deep copy of the tree under n and records, in m, the
// copy of every node. The copies keep the source bytes (shared, never
// written to), so an untouched copy serializes exactly as n did; edits to
// the copy leave n as it was.
func (n *xnode) clone(m map[*xnode]*xnode) *xnode {
	c := *n
	c.attrs = append([]xattr(nil), n.attrs...)
	c.kids = make([]*xnode, len(n.kids))
	for i, k := range n.kids {
		c.kids[i] = k.clone(m)
	}
	m[n] = &c
	return &c
}

// markDirty marks n dirty so it is re-serialized from its fields.
func (n *xnode) markDirty() { n.dirty = true }

// write serializes the node. Untouched nodes copy their original bytes.
func (n *xnode) write(w *bytes.Buffer) {
	switch n.kind {
	case kRaw:
		w.WriteString(n.text)
		return
	case kText:
		if n.src != nil && !n.dirty {
			w.Write(n.src[n.start:n.end])
			return
		}
		xml.EscapeText(w, []byte(n.text))
		return
	case kOther:
		w.Write(n.src[n.start:n.end])
		return
	}
	if n.src != nil && !n.dirty {
		w.Write(n.src[n.start:n.end])
		return
	}
	if n.local == "" { // document node
		for _, k := range n.kids {
			k.write(w)
		}
		return
	}
	w.WriteByte('<')
	w.WriteString(qname(n.prefix, n.local))
	for _, a := range n.attrs {
		w.WriteByte(' ')
		w.WriteString(qname(a.prefix, a.local))
		w.WriteString(`="`)
		escapeAttr(w, a.value)
		w.WriteByte('"')
	}
	if len(n.kids) == 0 {
		w.WriteString("/>")
		return
	}
	w.WriteByte('>')
	for _, k := range n.kids {
		k.write(w)
	}
	w.WriteString("</")
	w.WriteString(qname(n.prefix, n.local))
	w.WriteByte('>')
}

// bytes serializes the node into a new slice.
func (n *xnode) bytes() []byte {
	var b bytes.Buffer
	n.write(&b)
	return b.Bytes()
}

func escapeAttr(w *bytes.Buffer, s string) {
	for _, r := range s {
		switch r {
		case '&':
			w.WriteString("&amp;")
		case '<':
			w.WriteString("&lt;")
		case '>':
			w.WriteString("&gt;")
		case '"':
			w.WriteString("&quot;")
		case '\n':
			w.WriteString("&#xA;")
		case '\r':
			w.WriteString("&#xD;")
		case '\t':
			w.WriteString("&#x9;")
		default:
			w.WriteRune(r)
		}
	}
}

// esc escapes text for element content or attribute values in generated
// fragments.
func esc(s string) string {
	var b bytes.Buffer
	escapeAttr(&b, s)
	return b.String()
}

// dirtyPath marks every ancestor on the way to a changed node dirty; callers
// pass the chain from the root down.
func dirtyPath(chain ...*xnode) {
	for _, n := range chain {
		if n != nil {
			n.dirty = true
		}
	}
}

// replaceKid swaps old for repl among n's children (appends when old is
// absent) and marks n dirty.
func (n *xnode) replaceKid(old, repl *xnode) {
	n.dirty = true
	for i, k := range n.kids {
		if k == old {
			if repl == nil {
				n.kids = append(n.kids[:i], n.kids[i+1:]...)
			} else {
				n.kids[i] = repl
			}
			return
		}
	}
	if repl != nil {
		n.kids = append(n.kids, repl)
	}
}

// insertOrdered inserts c among n's element children keeping the schema
// order given by order (local names); unknown names sort last.
func (n *xnode) insertOrdered(c *xnode, order []string) {
	n.dirty = true
	rank := func(local string) int {
		for i, o := range order {
			if o == local {
				return i
			}
		}
		return len(order)
	}
	r := rank(c.local)
	if c.kind == kRaw {
		r = rank(rawLocal(c.text))
	}
	for i, k := range n.kids {
		kl := k.local
		if k.kind == kRaw {
			kl = rawLocal(k.text)
		} else if k.kind != kElem {
			continue
		}
		if rank(kl) > r {
			n.kids = append(n.kids[:i], append([]*xnode{c}, n.kids[i:]...)...)
			return
		}
	}
	n.kids = append(n.kids, c)
}

// rawLocal returns the local name of a fragment's first element.
func rawLocal(frag string) string {
	s := strings.TrimLeft(frag, " \t\r\n<")
	end := strings.IndexAny(s, " />\t\r\n")
	if end < 0 {
		end = len(s)
	}
	s = s[:end]
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// fixDirty marks every element with a changed descendant dirty, so write
// re-serializes the path down to the change and copies the rest.
func fixDirty(n *xnode) bool {
	any := n.dirty || n.kind == kRaw
	for _, k := range n.kids {
		if fixDirty(k) {
			any = true
		}
	}
	if any && n.kind == kElem {
		n.dirty = true
	}
	return any
}

// escText escapes character data of element content (quotes stay as they
// are, as PowerPoint writes them).
func escText(s string) string {
	if !strings.ContainsAny(s, "&<>\r") {
		return s
	}
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#xD;")
	return r.Replace(s)
}

package pptx

import (
	"path"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// checkPackage verifies OPC consistency of an exported package, the things
// PowerPoint repairs files for: every internal relationship targets a part
// that exists, every r:id used in a slide is a relationship of that slide,
// every part has a content type and every content-type override names an
// existing part.
func checkPackage(t *testing.T, out []byte) {
	t.Helper()
	parts := zipParts(t, out)
	p, err := openPackage(out, "exported.pptx", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ctDoc, err := p.xml("[Content_Types].xml")
	if err != nil {
		t.Fatal(err)
	}
	defaults, overrides := map[string]bool{}, map[string]bool{}
	for _, e := range ctDoc.root().elems() {
		switch e.local {
		case "Default":
			defaults[strings.ToLower(e.av("Extension"))] = true
		case "Override":
			name := strings.TrimPrefix(e.av("PartName"), "/")
			overrides[name] = true
			if _, ok := parts[name]; !ok {
				t.Errorf("content type override for missing part %s", name)
			}
		}
	}
	for name := range parts {
		if name == "[Content_Types].xml" || strings.HasSuffix(name, "/") {
			continue
		}
		if !overrides[name] && !defaults[strings.TrimPrefix(strings.ToLower(path.Ext(name)), ".")] {
			t.Errorf("part %s has no content type", name)
		}
	}
	for name := range parts {
		if !strings.HasSuffix(name, ".rels") {
			continue
		}
		src := strings.TrimSuffix(strings.Replace(name, "_rels/", "", 1), ".rels")
		if name == "_rels/.rels" {
			src = ""
		}
		rels, err := p.relsOf(src)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		ids := map[string]bool{}
		for _, r := range rels {
			ids[r.ID] = true
			if !r.External {
				if _, ok := parts[r.Target]; !ok {
					t.Errorf("%s: relationship %s targets missing part %s", name, r.ID, r.Target)
				}
			}
		}
		if strings.HasPrefix(src, "ppt/slides/") {
			doc, err := p.xml(src)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			var walk func(n *xnode)
			walk = func(n *xnode) {
				for _, a := range n.attrs {
					if a.ns == nsR && !ids[a.value] {
						t.Errorf("%s: r:%s=%q names no relationship", src, a.local, a.value)
					}
				}
				for _, k := range n.elems() {
					walk(k)
				}
			}
			walk(doc.root())
		}
	}
}

// TestDeletedJumpTarget: deleting the slide a hyperlink jumps to removes the
// link and its relationship, leaving a consistent package.
func TestDeletedJumpTarget(t *testing.T) {
	d, blobs, err := Import(readDeck(t, "career-tips.pptx"), "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	// s2 links to s25 (the presentation design slide).
	target := ""
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		for _, st := range n.StyleOverrideTable {
			if st.Link != nil && st.Link.NodeID != "" {
				target = st.Link.NodeID
			}
		}
		return true
	})
	if target == "" {
		t.Fatal("career-tips has no slide jump")
	}
	for i, s := range d.Slides {
		if s.ID == target {
			d.Slides = append(d.Slides[:i], d.Slides[i+1:]...)
			break
		}
	}
	out, warns, err := ExportDetailed(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("deleted %s; warnings %v", target, warns)
	checkPackage(t, out)
	if _, _, err := Import(out, "deleted.pptx"); err != nil {
		t.Fatal(err)
	}
}

package pptx

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Limits bound what Import accepts, so a zip bomb or a hostile package fails
// fast with a clear error instead of exhausting memory.
type Limits struct {
	MaxParts      int   // zip entries
	MaxPartBytes  int64 // decompressed size of one part
	MaxTotalBytes int64 // decompressed size of all parts together
	MaxXMLDepth   int   // element nesting in one XML part
}

// DefaultLimits accept any ordinary deck (the largest real decks we test are
// a few MB with a few hundred parts) with a wide margin.
var DefaultLimits = Limits{
	MaxParts:      20_000,
	MaxPartBytes:  512 << 20,
	MaxTotalBytes: 2 << 30,
	MaxXMLDepth:   256,
}

// Relationship types (ECMA-376 Part 1 §15).
const (
	relOfficeDoc   = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
	relSlide       = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide"
	relSlideLayout = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout"
	relSlideMaster = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideMaster"
	relTheme       = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme"
	relImage       = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image"
	relHyperlink   = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink"
	relNotesSlide  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide"
	relChart       = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart"
)

// rel is one relationship of a part. External targets (TargetMode
// "External") are recorded as written and never fetched.
type rel struct {
	ID, Type, Target string
	External         bool
}

// pkg is an opened OPC package: the zip entries in their original order with
// lazily read, size-checked contents.
type pkg struct {
	name   string
	zr     *zip.Reader
	order  []string
	files  map[string]*zip.File
	data   map[string][]byte
	rels   map[string][]rel
	lim    Limits
	total  int64
	parsed map[string]*xnode
}

func openPackage(data []byte, name string, lim Limits) (*pkg, error) {
	if len(data) < 4 || !bytes.HasPrefix(data, []byte("PK")) {
		return nil, fmt.Errorf("%s: not a .pptx file: it does not start with a zip signature (PK); save it as PowerPoint .pptx, not .ppt or .key", name)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the zip container (%v); the file is truncated or damaged", name, err)
	}
	if len(zr.File) > lim.MaxParts {
		return nil, fmt.Errorf("%s: %d zip entries, over the limit of %d parts", name, len(zr.File), lim.MaxParts)
	}
	p := &pkg{name: name, zr: zr, files: map[string]*zip.File{}, data: map[string][]byte{}, rels: map[string][]rel{}, lim: lim, parsed: map[string]*xnode{}}
	var declared uint64
	for _, f := range zr.File {
		n := strings.TrimPrefix(f.Name, "/")
		if _, dup := p.files[n]; dup {
			return nil, fmt.Errorf("%s: part %s appears twice in the zip", name, n)
		}
		if f.UncompressedSize64 > uint64(lim.MaxPartBytes) {
			return nil, fmt.Errorf("%s: part %s declares %d bytes uncompressed, over the limit of %d per part (zip bomb?)", name, n, f.UncompressedSize64, lim.MaxPartBytes)
		}
		p.files[n] = f
		p.order = append(p.order, n)
		declared += f.UncompressedSize64
	}
	if declared > uint64(lim.MaxTotalBytes) {
		return nil, fmt.Errorf("%s: parts declare %d bytes uncompressed, over the limit of %d (zip bomb?)", name, declared, lim.MaxTotalBytes)
	}
	return p, nil
}

func (p *pkg) has(part string) bool { _, ok := p.files[part]; return ok }

// read returns a part's bytes, enforcing the per-part and total limits on the
// actual decompressed size (declared sizes can lie).
func (p *pkg) read(part string) ([]byte, error) {
	return p.readUpTo(part, p.lim.MaxPartBytes)
}

// overLimitError is readUpTo's answer for a part over the caller's limit:
// Bytes is its declared size, or its real size (counted, not kept) when
// the zip entry understates it.
type overLimitError struct {
	part  string
	bytes int64
}

func (e *overLimitError) Error() string {
	return fmt.Sprintf("part %s is %d bytes, over the limit", e.part, e.bytes)
}

// readUpTo is read with a tighter per-part limit (a picture's bound): a
// part over it, by its declared or its real size, is an *overLimitError,
// and no more than limit+1 of its bytes are held in memory.
func (p *pkg) readUpTo(part string, limit int64) ([]byte, error) {
	if b, ok := p.data[part]; ok {
		if int64(len(b)) > limit {
			return nil, &overLimitError{part, int64(len(b))}
		}
		return b, nil
	}
	f, ok := p.files[part]
	if !ok {
		return nil, fmt.Errorf("%s: missing part %s", p.name, part)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: part %s: %v", p.name, part, err)
	}
	defer rc.Close()
	max := min(limit, p.lim.MaxPartBytes)
	if f.UncompressedSize64 > uint64(max) && limit < p.lim.MaxPartBytes {
		return nil, &overLimitError{part, int64(f.UncompressedSize64)}
	}
	if rest := p.lim.MaxTotalBytes - p.total; rest < max {
		max = rest
	}
	b, err := io.ReadAll(io.LimitReader(rc, max+1))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%s: part %s is truncated; the file was cut short", p.name, part)
		}
		return nil, fmt.Errorf("%s: part %s: %v", p.name, part, err)
	}
	if int64(len(b)) > max {
		if max == limit && limit < p.lim.MaxPartBytes {
			// The zip entry understated the size: count the rest (up to
			// the package's per-part limit) without keeping it.
			n, _ := io.Copy(io.Discard, io.LimitReader(rc, p.lim.MaxPartBytes))
			return nil, &overLimitError{part, int64(len(b)) + n}
		}
		return nil, fmt.Errorf("%s: part %s decompresses to more than %d bytes, over the size limit (zip bomb?)", p.name, part, max)
	}
	p.total += int64(len(b))
	p.data[part] = b
	return b, nil
}

// xml parses a part (cached).
func (p *pkg) xml(part string) (*xnode, error) {
	if d, ok := p.parsed[part]; ok {
		return d, nil
	}
	b, err := p.read(part)
	if err != nil {
		return nil, err
	}
	d, err := parseXML(part, b, xmlLimits{maxDepth: p.lim.MaxXMLDepth})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	p.parsed[part] = d
	return d, nil
}

// relsPart names the relationships part of a part ("" for the package).
func relsPart(part string) string {
	dir, file := path.Split(part)
	return dir + "_rels/" + file + ".rels"
}

// relsOf returns a part's relationships with targets resolved to part names
// (external targets unchanged). A part without a .rels has none.
func (p *pkg) relsOf(part string) ([]rel, error) {
	if r, ok := p.rels[part]; ok {
		return r, nil
	}
	rp := relsPart(part)
	if !p.has(rp) {
		p.rels[part] = nil
		return nil, nil
	}
	doc, err := p.xml(rp)
	if err != nil {
		return nil, err
	}
	var out []rel
	for _, e := range doc.root().all(nsRels, "Relationship") {
		r := rel{ID: e.av("Id"), Type: e.av("Type"), Target: e.av("Target"), External: e.av("TargetMode") == "External"}
		if !r.External {
			r.Target = resolveTarget(part, r.Target)
		}
		out = append(out, r)
	}
	p.rels[part] = out
	return out, nil
}

// resolveTarget turns a relative relationship target into a part name.
func resolveTarget(source, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(path.Clean(target), "/")
	}
	return strings.TrimPrefix(path.Clean(path.Join(path.Dir(source), target)), "/")
}

// relTarget finds a relationship by id.
func relByID(rels []rel, id string) (rel, bool) {
	for _, r := range rels {
		if r.ID == id {
			return r, true
		}
	}
	return rel{}, false
}

// relByType finds the first relationship of a type.
func relByType(rels []rel, typ string) (rel, bool) {
	for _, r := range rels {
		if r.Type == typ {
			return r, true
		}
	}
	return rel{}, false
}

// partNumber extracts the trailing number of a part name
// ("ppt/slides/slide12.xml" -> 12), or -1.
func partNumber(part string) int {
	base := strings.TrimSuffix(path.Base(part), path.Ext(part))
	i := len(base)
	for i > 0 && base[i-1] >= '0' && base[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(base[i:])
	if err != nil {
		return -1
	}
	return n
}

// relativeTarget writes target as a path relative to the source part's
// directory, as PowerPoint does.
func relativeTarget(source, target string) string {
	from := strings.Split(path.Dir(source), "/")
	to := strings.Split(target, "/")
	i := 0
	for i < len(from) && i < len(to)-1 && from[i] == to[i] {
		i++
	}
	var parts []string
	for j := i; j < len(from); j++ {
		if from[j] != "" && from[j] != "." {
			parts = append(parts, "..")
		}
	}
	parts = append(parts, to[i:]...)
	return strings.Join(parts, "/")
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

package scenegraph

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ScalePath scales SVG path data (a VectorPath.Path, in the node's local px
// space) by sx horizontally and sy vertically, the way Figma rewrites a
// vector's paths when the node is resized. Every command of SVG 1.1 §8.3
// is handled, absolute and relative: x coordinates and horizontal lengths
// scale by sx, y by sy; an arc's radii scale with their axes and its
// rotation and flags are kept (exact unless the scale is non-uniform and
// the arc rotated). Numbers are written with at most 3 decimals. Errors:
// a command letter outside the grammar, a command missing numbers, or a
// number that is not finite or lands outside ±MaxCoordinatePx once scaled.
func ScalePath(d string, sx, sy float64) (string, error) {
	p := pathScanner{s: d}
	var out strings.Builder
	cmd := byte(0)
	space := false // a number follows a number, not its command letter
	for {
		p.skipSep()
		if p.i >= len(p.s) {
			break
		}
		c := p.s[p.i]
		if isPathCommand(c) {
			cmd = c
			p.i++
			if out.Len() > 0 {
				out.WriteByte(' ')
			}
			out.WriteByte(c)
			space = false
			if c == 'Z' || c == 'z' {
				continue
			}
		} else if cmd == 0 || cmd == 'Z' || cmd == 'z' {
			return "", fmt.Errorf("path %q: number at offset %d without a command", clip(d), p.i)
		}
		// One parameter group of the current command (commands repeat
		// implicitly while numbers follow).
		kinds, ok := pathParams[cmd|0x20]
		if !ok {
			return "", fmt.Errorf("path %q: unknown command %q", clip(d), cmd)
		}
		for _, kind := range kinds {
			var v float64
			var err error
			if kind == 'f' {
				v, err = p.flag()
			} else {
				v, err = p.number()
			}
			if err != nil {
				return "", fmt.Errorf("path %q: command %c needs %d numbers: %v", clip(d), cmd, len(kinds), err)
			}
			in := v
			switch kind {
			case 'x':
				v *= sx
			case 'y':
				v *= sy
			}
			if !finite(v) || v > MaxCoordinatePx || v < -MaxCoordinatePx {
				return "", fmt.Errorf("path %q: %g scaled by %gx%g gives %g, outside the coordinate range of a slide file, ±%.0f px (ECMA-376 Part 1 §20.1.10.16 ST_Coordinate)", clip(d), in, sx, sy, v, MaxCoordinatePx)
			}
			if space {
				out.WriteByte(' ')
			}
			space = true
			out.WriteString(strconv.FormatFloat(roundTo(v, 3), 'f', -1, 64))
		}
		// An implicit repeat of M is a line-to (SVG 1.1 §8.3.2).
		switch cmd {
		case 'M':
			cmd = 'L'
		case 'm':
			cmd = 'l'
		}
	}
	return out.String(), nil
}

// pathParams gives, per lower-case command, the kind of each parameter: x
// or y (scaled), r (kept: a rotation), f (an arc flag, 0 or 1).
var pathParams = map[byte]string{
	'm': "xy", 'l': "xy", 't': "xy",
	'h': "x", 'v': "y",
	'c': "xyxyxy", 's': "xyxy", 'q': "xyxy",
	'a': "xyrffxy",
}

func isPathCommand(c byte) bool {
	_, ok := pathParams[c|0x20]
	return ok || c == 'Z' || c == 'z'
}

func roundTo(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	r := math.Round(v*p) / p
	if r == 0 {
		return 0 // no "-0"
	}
	return r
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

type pathScanner struct {
	s string
	i int
}

func (p *pathScanner) skipSep() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r', '\f', ',':
			p.i++
		default:
			return
		}
	}
}

// number reads one SVG number: sign, digits, fraction, exponent.
func (p *pathScanner) number() (float64, error) {
	p.skipSep()
	start := p.i
	if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
		p.i++
	}
	digits, dot := 0, false
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c >= '0' && c <= '9' {
			digits++
		} else if c == '.' && !dot {
			dot = true
		} else {
			break
		}
		p.i++
	}
	if digits == 0 {
		p.i = start
		return 0, fmt.Errorf("no number at offset %d", start)
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		j := p.i + 1
		if j < len(p.s) && (p.s[j] == '+' || p.s[j] == '-') {
			j++
		}
		k := j
		for k < len(p.s) && p.s[k] >= '0' && p.s[k] <= '9' {
			k++
		}
		if k > j {
			p.i = k
		}
	}
	return strconv.ParseFloat(p.s[start:p.i], 64)
}

// flag reads an arc flag, which may be written without a separator
// ("a1 1 0 01 5 5").
func (p *pathScanner) flag() (float64, error) {
	p.skipSep()
	if p.i < len(p.s) && (p.s[p.i] == '0' || p.s[p.i] == '1') {
		v := float64(p.s[p.i] - '0')
		p.i++
		return v, nil
	}
	return 0, fmt.Errorf("no arc flag at offset %d", p.i)
}

// PolygonPath is the closed SVG path "M x0 y0 L x1 y1 ... Z" through the
// points x0, y0, x1, y1, ... (px), numbers with at most decimals places.
// The importer (DrawingML preset outlines) and the renderer share it.
func PolygonPath(decimals int, pts ...float64) string {
	var b strings.Builder
	for i := 0; i+1 < len(pts); i += 2 {
		if i == 0 {
			b.WriteString("M")
		} else {
			b.WriteString(" L")
		}
		b.WriteString(strconv.FormatFloat(roundTo(pts[i], decimals), 'f', -1, 64))
		b.WriteByte(' ')
		b.WriteString(strconv.FormatFloat(roundTo(pts[i+1], decimals), 'f', -1, 64))
	}
	b.WriteString(" Z")
	return b.String()
}

// pathOutOfRange scans the numbers of SVG path data and returns the first
// that is not finite or lies outside ±MaxCoordinatePx, with ok false; ok is
// true when every number is in range (syntax is not checked here: the
// renderer and exporter skip path data they cannot read).
func pathOutOfRange(d string) (float64, bool) {
	p := pathScanner{s: d}
	for {
		p.skipSep()
		if p.i >= len(p.s) {
			return 0, true
		}
		c := p.s[p.i]
		if c != '+' && c != '-' && c != '.' && (c < '0' || c > '9') {
			p.i++ // a command letter or something the parser refuses
			continue
		}
		x, err := p.number()
		if err != nil {
			if x != 0 { // ParseFloat's ±Inf on overflow
				return x, false
			}
			p.i++
			continue
		}
		if !finite(x) || x > MaxCoordinatePx || x < -MaxCoordinatePx {
			return x, false
		}
	}
}

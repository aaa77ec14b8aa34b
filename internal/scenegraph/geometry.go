package scenegraph

import "math"

// EMUPerPx is the number of English Metric Units in one CSS px at 96 dpi
// (914400 EMU per inch / 96 px per inch; DESIGN.md §3).
const EMUPerPx = 9525

// MaxCoordinateEMU bounds every coordinate and length a slide file can
// hold: ECMA-376 Part 1 §20.1.10.16 ST_Coordinate allows
// -27273042329600..27273042316900 EMU, and §20.1.10.42
// ST_PositiveCoordinate 0..27273042316900 EMU (offsets a:off, extents
// a:ext, path points a:pt). The scene graph applies the smaller magnitude
// both ways.
const MaxCoordinateEMU = 27273042316900

// MaxCoordinatePx is MaxCoordinateEMU in px (about 2.86e9 px): the
// validator refuses any position, size or length beyond ±MaxCoordinatePx.
const MaxCoordinatePx = float64(MaxCoordinateEMU) / EMUPerPx

// PxPerPt converts typographic points to px (96/72).
const PxPerPt = 96.0 / 72.0

// EMUToPx converts EMU to px.
func EMUToPx(emu int64) float64 { return float64(emu) / EMUPerPx }

// PxToEMU converts px to EMU, rounding to the nearest integer EMU.
func PxToEMU(px float64) int64 { return int64(math.Round(px * EMUPerPx)) }

// Vector is a 2-D point or size in px. Figma encodes size as {x, y}.
type Vector struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Rect is an axis-aligned box in px.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Right is X+Width.
func (r Rect) Right() float64 { return r.X + r.Width }

// Bottom is Y+Height.
func (r Rect) Bottom() float64 { return r.Y + r.Height }

// Intersect returns the overlap of r and o (zero size when disjoint).
func (r Rect) Intersect(o Rect) Rect {
	x0, y0 := math.Max(r.X, o.X), math.Max(r.Y, o.Y)
	x1, y1 := math.Min(r.Right(), o.Right()), math.Min(r.Bottom(), o.Bottom())
	if x1 <= x0 || y1 <= y0 {
		return Rect{X: x0, Y: y0}
	}
	return Rect{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0}
}

// Area is Width*Height.
func (r Rect) Area() float64 { return r.Width * r.Height }

// Union returns the smallest box holding r and o.
func (r Rect) Union(o Rect) Rect {
	x0, y0 := math.Min(r.X, o.X), math.Min(r.Y, o.Y)
	x1, y1 := math.Max(r.Right(), o.Right()), math.Max(r.Bottom(), o.Bottom())
	return Rect{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0}
}

// Transform is Figma's relativeTransform: a 2x3 affine matrix
// [[a, c, tx], [b, d, ty]] mapping the node's local space into its parent's.
// (tx, ty) is the node's top-left corner in the parent; the 2x2 part holds
// rotation, and flips as a negative determinant.
type Transform [2][3]float64

// Identity is the transform of an unrotated node at the parent's origin.
var Identity = Transform{{1, 0, 0}, {0, 1, 0}}

// Translate returns an unrotated transform at (x, y).
func Translate(x, y float64) Transform { return Transform{{1, 0, x}, {0, 1, y}} }

// IsZero reports whether t is the all-zero matrix (an unset transform in
// hand-written JSON); Normalize replaces it with Identity.
func (t Transform) IsZero() bool { return t == Transform{} }

// X is the horizontal offset in the parent, px.
func (t Transform) X() float64 { return t[0][2] }

// Y is the vertical offset in the parent, px.
func (t Transform) Y() float64 { return t[1][2] }

// Rotation returns the clockwise rotation in degrees, in (-180, 180].
// Figma's matrix rotates counter-clockwise for positive angles in its
// y-down space; we report the angle a user sees in PowerPoint (clockwise).
func (t Transform) Rotation() float64 {
	deg := math.Atan2(t[1][0], t[0][0]) * 180 / math.Pi
	if deg == -180 {
		deg = 180
	}
	return deg
}

// Flipped reports a horizontal and/or vertical mirror (negative determinant).
func (t Transform) Flipped() bool { return t[0][0]*t[1][1]-t[0][1]*t[1][0] < 0 }

// WithOffset returns t moved so its origin is at (x, y).
func (t Transform) WithOffset(x, y float64) Transform {
	t[0][2], t[1][2] = x, y
	return t
}

// Rotated returns a transform at the same offset with a clockwise rotation of
// deg degrees about the node's top-left corner, keeping flips.
func (t Transform) Rotated(deg float64) Transform {
	rad := deg * math.Pi / 180
	c, s := math.Cos(rad), math.Sin(rad)
	fx := 1.0
	if t.Flipped() {
		fx = -1
	}
	return Transform{{c * fx, -s, t[0][2]}, {s * fx, c, t[1][2]}}
}

// UnrotatedBox returns, in the parent's space, the box a node of size sz
// under t occupies before its rotation and flips: sz placed about the
// centre of the transformed node. It is the frame PowerPoint stores for a
// rotated shape (a:xfrm off/ext, ECMA-376 §20.1.7.6, rotated about its
// centre) and what the context and move_node call x/y; for an unrotated,
// unflipped node it equals Bounds.
func (t Transform) UnrotatedBox(sz Vector) Rect {
	c := t.Apply(Vector{X: sz.X / 2, Y: sz.Y / 2})
	return Rect{X: c.X - sz.X/2, Y: c.Y - sz.Y/2, Width: sz.X, Height: sz.Y}
}

// WithBoxOrigin returns t translated so that the unrotated box of a node
// of size sz starts at (x, y) in the parent; rotation and flips stay.
func (t Transform) WithBoxOrigin(sz Vector, x, y float64) Transform {
	b := t.UnrotatedBox(sz)
	return t.WithOffset(t.X()+x-b.X, t.Y()+y-b.Y)
}

// Apply maps a local point into the parent's space.
func (t Transform) Apply(p Vector) Vector {
	return Vector{
		X: t[0][0]*p.X + t[0][1]*p.Y + t[0][2],
		Y: t[1][0]*p.X + t[1][1]*p.Y + t[1][2],
	}
}

// Mul returns t∘u: first u, then t (u is a child's transform, t its parent's).
func (t Transform) Mul(u Transform) Transform {
	return Transform{
		{t[0][0]*u[0][0] + t[0][1]*u[1][0], t[0][0]*u[0][1] + t[0][1]*u[1][1], t[0][0]*u[0][2] + t[0][1]*u[1][2] + t[0][2]},
		{t[1][0]*u[0][0] + t[1][1]*u[1][0], t[1][0]*u[0][1] + t[1][1]*u[1][1], t[1][0]*u[0][2] + t[1][1]*u[1][2] + t[1][2]},
	}
}

// Bounds returns the axis-aligned box, in the parent's space, of a node of
// size sz under transform t.
func (t Transform) Bounds(sz Vector) Rect {
	corners := [4]Vector{{0, 0}, {sz.X, 0}, {sz.X, sz.Y}, {0, sz.Y}}
	r := Rect{X: math.Inf(1), Y: math.Inf(1)}
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for _, c := range corners {
		p := t.Apply(c)
		r.X, r.Y = math.Min(r.X, p.X), math.Min(r.Y, p.Y)
		x1, y1 = math.Max(x1, p.X), math.Max(y1, p.Y)
	}
	r.Width, r.Height = x1-r.X, y1-r.Y
	return r
}

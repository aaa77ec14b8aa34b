package render

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/scenegraph"
)

var (
	poolOnce sync.Once
	testPool *Pool
	poolErr  error
)

// sharedPool starts one browser for the package's tests (closed by TestMain).
func sharedPool(t testing.TB) *Pool {
	t.Helper()
	poolOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		testPool, poolErr = NewPool(ctx, Options{Size: 1, Timeout: 30 * time.Second})
	})
	if poolErr != nil {
		t.Fatalf("starting the browser pool: %v", poolErr)
	}
	return testPool
}

func TestMain(m *testing.M) {
	code := m.Run()
	if testPool != nil {
		testPool.Close()
	}
	os.Exit(code)
}

// deck builds a 1280x720 deck with one slide holding children.
func deck(children ...*scenegraph.Node) *scenegraph.Deck {
	return &scenegraph.Deck{ID: "d1", Width: 1280, Height: 720, Slides: []*scenegraph.Node{{
		ID: "s1", Type: scenegraph.TypeSlide, Transform: scenegraph.Identity,
		Size:     scenegraph.Vector{X: 1280, Y: 720},
		Fills:    []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex("#FFFFFF"))},
		Children: children,
	}}}
}

func rect(id string, x, y, w, h float64, hex string) *scenegraph.Node {
	return &scenegraph.Node{ID: id, Type: scenegraph.TypeRectangle, Transform: scenegraph.Translate(x, y),
		Size: scenegraph.Vector{X: w, Y: h}, Fills: []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex(hex))}}
}

func text(id string, x, y, w, h float64, s string, sizePx float64, hex string) *scenegraph.Node {
	return &scenegraph.Node{ID: id, Type: scenegraph.TypeText, Transform: scenegraph.Translate(x, y),
		Size: scenegraph.Vector{X: w, Y: h},
		TextContent: scenegraph.TextContent{Characters: s, Style: &scenegraph.TypeStyle{
			FontFamily: "Liberation Sans", FontSize: sizePx,
			Fills: []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex(hex))}}}}
}

func frame(id string, x, y, w, h float64, children ...*scenegraph.Node) *scenegraph.Node {
	return &scenegraph.Node{ID: id, Type: scenegraph.TypeFrame, Transform: scenegraph.Translate(x, y),
		Size: scenegraph.Vector{X: w, Y: h}, Children: children}
}

// renderOne renders slide 0 (geometry only unless images).
func renderOne(t *testing.T, d *scenegraph.Deck, assets scenegraph.AssetSource, images bool) *SlideResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := sharedPool(t).Render(ctx, d, assets, Request{Slides: []int{0}, Images: images})
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	return &res.Slides[0]
}

func near(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }

func assertRect(t *testing.T, what string, got scenegraph.Rect, x, y, w, h, tol float64) {
	t.Helper()
	if !near(got.X, x, tol) || !near(got.Y, y, tol) || !near(got.Width, w, tol) || !near(got.Height, h, tol) {
		t.Errorf("%s: got %+v, want x=%g y=%g w=%g h=%g (±%g)", what, got, x, y, w, h, tol)
	}
}

package scenegraph_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// A bullet's colour is a pointer inside the paragraph slice: the clone must
// copy it, so recolouring the clone's bullet leaves the original alone.
func TestCloneCopiesBulletColor(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 3, Seed: 2})
	body := d.Slides[1].Children[1]
	if len(body.Paragraphs) == 0 {
		t.Fatal("deckgen body has no paragraphs")
	}
	body.Paragraphs[0].BulletSize = 0.8
	body.Paragraphs[0].BulletColor = &sg.Color{R: 0.6, G: 0.8, B: 0.2, A: 1}
	c := d.Clone()
	if !reflect.DeepEqual(d, c) {
		t.Fatal("clone differs from the original")
	}
	if p := sharedMemory(reflect.ValueOf(d), reflect.ValueOf(c), "deck"); p != "" {
		t.Fatalf("clone shares memory with the original at %s", p)
	}
	c.Slides[1].Children[1].Paragraphs[0].BulletColor.R = 0
	if body.Paragraphs[0].BulletColor.R != 0.6 {
		t.Fatal("recolouring the clone's bullet changed the original")
	}
}

// Bullet sizes are non-negative finite fractions and bullet colours have
// channels in 0..1; each problem names its paragraph's path.
func TestValidateBulletSizeAndColor(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 3, Seed: 2})
	body := d.Slides[1].Children[1]
	body.Paragraphs[0].BulletSize = 0.8
	body.Paragraphs[0].BulletColor = &sg.Color{R: 1, G: 0, B: 0, A: 1}
	if err := sg.Validate(d); err != nil {
		t.Fatalf("valid bullet rejected: %v", err)
	}
	body.Paragraphs[0].BulletSize = -0.5
	body.Paragraphs[0].BulletColor = &sg.Color{R: 2, G: 0, B: math.NaN(), A: 1}
	ps := problems(t, sg.Validate(d))
	for _, w := range []struct{ path, msg string }{
		{"slides[1].children[1].paragraphs[0].bulletSize", "negative value -0.5"},
		{"slides[1].children[1].paragraphs[0].bulletColor.r", "outside 0..1"},
		{"slides[1].children[1].paragraphs[0].bulletColor.b", "outside 0..1"},
	} {
		if !hasProblem(ps, w.path, w.msg) {
			t.Errorf("missing problem %s: %s; got %v", w.path, w.msg, (&sg.ValidationError{Problems: ps}).Error())
		}
	}
}

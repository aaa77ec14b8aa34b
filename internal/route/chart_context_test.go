package route

import (
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// TestChartContextCarriesNumberFormats: the agent sees a series' number
// format beside its values, so 0.16 shown as 16.0% is edited as 0.16.
func TestChartContextCarriesNumberFormats(t *testing.T) {
	ch := &scenegraph.Node{ID: "ch", Type: scenegraph.TypeChart, Size: scenegraph.Vector{X: 400, Y: 300},
		Chart: &scenegraph.Chart{ChartType: scenegraph.ChartColumn, Categories: []string{"Q1"},
			Series: []scenegraph.Series{{Name: "share", Values: []float64{0.16}, FormatCode: "0.0%"}}}}
	d := &scenegraph.Deck{ID: "d", Width: 1280, Height: 720, Slides: []*scenegraph.Node{{ID: "s1", Type: scenegraph.TypeSlide,
		Size: scenegraph.Vector{X: 1280, Y: 720}, Children: []*scenegraph.Node{ch}}}}
	s, err := Context(d, Decision{Mode: Micro, TargetSlides: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s, `"v":[0.16],`) || !strings.Contains(s, `"fmt":"0.0%"`) {
		t.Errorf("chart context lacks the values' format: %s", s)
	}
}

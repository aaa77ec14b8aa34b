package fonts

import (
	"os"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/shareddecks"
)

func needFontconfig(t *testing.T) {
	t.Helper()
	if _, ok := Installed("Noto Sans"); !ok {
		t.Skip("fontconfig (fc-list) not installed")
	}
}

// TestResolveSaysWhatIsDrawn: an installed face is drawn as itself, an
// Office face by its metric-compatible substitute, an unknown face by the
// Latin fallback (scripts/setup installs Noto, Carlito and Liberation).
func TestResolveSaysWhatIsDrawn(t *testing.T) {
	needFontconfig(t)
	if f := Resolve("Noto Sans"); !f.Installed || f.DrawnAs != "" {
		t.Errorf("Noto Sans: %+v", f)
	}
	if f := Resolve("calibri"); f.Installed || f.DrawnAs != "Carlito" || !f.MetricCompatible {
		t.Errorf("Calibri: %+v", f)
	}
	for _, fam := range []string{"Gill Sans MT", "Lato", "Aptos"} {
		f := Resolve(fam)
		if f.Installed || f.DrawnAs != "Noto Sans" || f.MetricCompatible {
			t.Errorf("%s: %+v", fam, f)
		}
		if !strings.Contains(f.Line(), "no metric-compatible substitute") {
			t.Errorf("%s line: %s", fam, f.Line())
		}
	}
}

// TestUsedOnARealDeck: career-tips names Inria Serif and Playfair Display
// (theme and runs); neither is installed, so both are listed as drawn in
// Noto Sans with the number of runs naming them.
func TestUsedOnARealDeck(t *testing.T) {
	needFontconfig(t)
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := pptx.Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	used := Used(d)
	got := map[string]Face{}
	for _, f := range used {
		got[f.Family] = f
		if f.Runs == 0 {
			t.Errorf("%s listed with no runs", f.Family)
		}
	}
	for _, fam := range []string{"Inria Serif", "Playfair Display"} {
		f, ok := got[fam]
		if !ok {
			t.Fatalf("%s not among the faces used: %+v", fam, used)
		}
		if f.DrawnAs != "Noto Sans" {
			t.Errorf("%s: %+v", fam, f)
		}
	}
	if len(Substituted(used)) != len(used) {
		t.Errorf("every face of career-tips is substituted here; Substituted kept %d of %d", len(Substituted(used)), len(used))
	}
}

package route

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestMicroKeysAreExplained: every short JSON key the MICRO_SPATIAL
// context can emit (cSlide, cStub, cNode) is explained in the mode
// block's Keys line, unless it is a plain word a model reads as is. A
// relay model met paras, ph, tstyle, textbox, img and bg unexplained.
func TestMicroKeysAreExplained(t *testing.T) {
	plain := map[string]bool{"id": true, "x": true, "y": true, "w": true, "h": true, "hidden": true, "table": true,
		"chart": true, "latex": true, "link": true, "alt": true, "notes": true, "transition": true, "section": true,
		"layoutName": true, "cell": true, "connector": true}
	block := ModeBlock(Micro, 10)
	for _, typ := range []any{cSlide{}, cStub{}, cNode{}} {
		rt := reflect.TypeOf(typ)
		for i := 0; i < rt.NumField(); i++ {
			key := strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]
			if key == "" || key == "-" || plain[key] {
				continue
			}
			if !regexp.MustCompile(`(^|[\s,(/])` + regexp.QuoteMeta(key) + `[\s)/]`).MatchString(block) {
				t.Errorf("%s key %q is not explained in the MICRO mode block", rt.Name(), key)
			}
		}
	}
}

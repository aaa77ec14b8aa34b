package tools

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// FuzzApplyCall feeds arbitrary argument bytes to any tool: Apply must
// either commit a valid deck or fail with a clear error, never panic, and
// never touch its input.
func FuzzApplyCall(f *testing.F) {
	f.Add(uint8(0), []byte(`{"nodeId":"slide-1","color":"#FF0000"}`))
	f.Add(uint8(7), []byte(`{"parentId":"slide-2","text":"日本 abc","width":100}`))
	f.Add(uint8(90), []byte(`{"operations":[{"command":"create_slide","params":{},"as":"s"},{"command":"create_text","params":{"parentId":"$s","text":"x"}}]}`))
	f.Add(uint8(200), []byte(`{"tableId":"s5-tbl20","column":1}`))
	f.Add(uint8(33), []byte(`not json`))
	d := fixture(f)
	before := encode(f, d)
	names := Registry().Names()
	f.Fuzz(func(t *testing.T, k uint8, args []byte) {
		c := Call{Tool: names[int(k)%len(names)], Args: args}
		_, _, err := Apply(d, []Call{c}, Options{})
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%s panicked on %q: %v", c.Tool, args, err)
		}
		if !bytes.Equal(before, encode(t, d)) {
			t.Fatalf("%s changed its input deck", c.Tool)
		}
	})
}

// FuzzParseNumber: table and chart values parse without panicking and never
// yield NaN or Inf.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"1,234.5", "$12", "45%", "(3)", "-7 kg", "1e309", "", "--", "NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := parseNumber(s)
		if ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
			t.Fatalf("%q -> %v", s, v)
		}
	})
}

package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// argGen builds arguments for any tool from its schema: ids come from the
// deck (sometimes stale or made up), enums from their values, numbers from
// small ranges; with probability bad it breaks the arguments (a missing
// required field, a wrong type, an unknown key).
type argGen struct {
	rng    *rand.Rand
	ids    []string
	slides []string
	byType map[string][]string // TABLE, CHART, TEXT, FRAME, SMARTART
	bad    float64
}

func (g *argGen) pick(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return s[g.rng.IntN(len(s))]
}

func (g *argGen) id(key string) string {
	switch x := g.rng.Float64(); {
	case x < 0.03:
		return "no-such-node"
	case x < 0.04:
		return "$unbound"
	case strings.HasPrefix(strings.ToLower(key), "slide"):
		return g.pick(g.slides)
	case strings.HasPrefix(key, "table"):
		return g.pick(g.byType["TABLE"])
	case strings.HasPrefix(key, "chart"):
		return g.pick(g.byType["CHART"])
	case strings.HasPrefix(key, "smartArt"):
		return g.pick(g.byType["SMARTART"])
	case x < 0.5:
		return g.pick(g.byType["TEXT"])
	case x < 0.7:
		return g.pick(g.byType["FRAME"])
	}
	return g.pick(g.ids)
}

func (g *argGen) value(key string, s map[string]any, depth int) any {
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[g.rng.IntN(len(e))]
	}
	if _, ok := s["$ref"]; ok {
		return map[string]any{"text": "ref"}
	}
	switch s["type"] {
	case "string":
		if p, _ := s["pattern"].(string); p == hexPattern {
			return fmt.Sprintf("#%06X", g.rng.IntN(1<<24))
		}
		if strings.HasSuffix(key, "Id") {
			return g.id(key)
		}
		if key == "cursor" {
			return fmt.Sprint(g.rng.IntN(5))
		}
		if key == "aspectRatio" {
			return g.pick([]string{"16:9", "1:1", "4:3", "2.5"})
		}
		if key == "style" {
			return g.pick([]string{"title", "body"})
		}
		if key == "themeColor" {
			return g.pick([]string{"accent1", "dk1", "lt2"})
		}
		return g.pick([]string{"Revenue", "Q3 plan", "日本語", "مرحبا", "a", "Card"})
	case "boolean":
		return g.rng.IntN(2) == 0
	case "integer":
		lo, hi := 0.0, 6.0
		if m, ok := s["minimum"].(float64); ok {
			lo = m
		}
		if m, ok := s["maximum"].(float64); ok && m < hi+lo {
			hi = m - lo
		}
		return int(lo) + g.rng.IntN(int(hi)+1)
	case "number":
		lo, span := 0.0, 400.0
		if m, ok := s["minimum"].(float64); ok {
			lo = m
		}
		if m, ok := s["exclusiveMinimum"].(float64); ok {
			lo = m + 1
		}
		if m, ok := s["maximum"].(float64); ok {
			span = m - lo
		}
		return lo + g.rng.Float64()*span
	case "array":
		if depth > 3 {
			return []any{}
		}
		items, _ := s["items"].(map[string]any)
		k := 1 + g.rng.IntN(3)
		if m, ok := s["minItems"].(float64); ok && int(m) > k {
			k = int(m)
		}
		if m, ok := s["maxItems"].(float64); ok && int(m) < k {
			k = int(m)
		}
		out := make([]any, k)
		for i := range out {
			if strings.HasSuffix(key, "Ids") {
				out[i] = g.id(key)
				continue
			}
			out[i] = g.value(strings.TrimSuffix(key, "s"), items, depth+1)
		}
		return out
	case "object":
		props, _ := s["properties"].(map[string]any)
		req := map[string]bool{}
		if r, ok := s["required"].([]any); ok {
			for _, k := range r {
				req[k.(string)] = true
			}
		}
		out := map[string]any{}
		for k, ps := range props {
			if req[k] || g.rng.IntN(3) == 0 {
				out[k] = g.value(k, ps.(map[string]any), depth+1)
			}
		}
		if len(props) == 0 {
			if ap, ok := s["additionalProperties"].(map[string]any); ok {
				out["accent1"] = g.value("color", ap, depth+1)
			}
		}
		return out
	}
	return map[string]any{}
}

func (g *argGen) call(tool Tool) Call {
	var s map[string]any
	_ = json.Unmarshal(tool.Schema, &s)
	args := g.value("", s, 0).(map[string]any)
	if tool.Name == "batch_execute" {
		ops := []any{}
		for k := 0; k < 1+g.rng.IntN(4); k++ {
			t := Registry().All()[g.rng.IntN(len(Registry().All()))]
			if t.Name == "batch_execute" {
				continue
			}
			c := g.call(t)
			ops = append(ops, map[string]any{"command": t.Name, "params": json.RawMessage(c.Args)})
		}
		args = map[string]any{"operations": ops}
	}
	if g.rng.Float64() < g.bad {
		switch g.rng.IntN(3) {
		case 0:
			for k := range args {
				delete(args, k)
				break
			}
		case 1:
			args["bogus"] = 1
		case 2:
			for k := range args {
				args[k] = []int{1, 2}
				break
			}
		}
	}
	b, _ := json.Marshal(args)
	c := Call{Tool: tool.Name, Args: b}
	if strings.HasPrefix(tool.Name, "create_") && g.rng.IntN(2) == 0 {
		c.As = fmt.Sprintf("n%d", g.rng.IntN(3))
	}
	return c
}

// TestRandomBatchesNeverPanicAndFailAtomically runs thousands of random
// batches, valid and invalid, over every tool on generated decks. Each
// must either commit a deck that validates, or fail with a *BatchError and
// leave the input byte-identical; no tool may panic.
func TestRandomBatchesNeverPanicAndFailAtomically(t *testing.T) {
	batches := 3000
	if testing.Short() {
		batches = 300
	}
	rng := rand.New(rand.NewPCG(42, 4242))
	reg := Registry().All()
	o := opts(t)
	var committed, failed int
	for _, seed := range []uint64{1, 2, 3} {
		base, _ := deckgen.Generate(deckgen.Options{Slides: 14, Seed: seed})
		d := base
		for b := 0; b < batches/3; b++ {
			g := &argGen{rng: rng, bad: 0.08, byType: map[string][]string{}}
			d.Walk(func(n, _ *sg.Node, _ int) bool {
				g.ids = append(g.ids, n.ID)
				g.byType[string(n.Type)] = append(g.byType[string(n.Type)], n.ID)
				if _, ok := smartArtKind(n); ok {
					g.byType["SMARTART"] = append(g.byType["SMARTART"], n.ID)
				}
				if n.Type == sg.TypeSlide {
					g.slides = append(g.slides, n.ID)
				}
				return true
			})
			var calls []Call
			for k := 0; k < 1+rng.IntN(4); k++ {
				calls = append(calls, g.call(reg[rng.IntN(len(reg))]))
			}
			if rng.IntN(10) == 0 {
				calls = append(calls, Call{Tool: "no_such_tool"})
			}
			before := encode(t, d)
			out, res, err := Apply(d, calls, o)
			if !bytes.Equal(before, encode(t, d)) {
				t.Fatalf("batch %d changed its input deck", b)
			}
			if err != nil {
				var be *BatchError
				if !errors.As(err, &be) {
					t.Fatalf("batch %d: error is %T, not *BatchError: %v", b, err, err)
				}
				if strings.Contains(err.Error(), "internal error") {
					t.Fatalf("batch %d: a tool panicked: %v\ncalls: %s", b, err, js(calls))
				}
				if out != d || res != nil {
					t.Fatalf("batch %d: failed batch returned a new deck or results", b)
				}
				failed++
				if testing.Verbose() && failed%7 == 0 {
					t.Logf("fail: %s", clip(err.Error(), 200))
				}
				continue
			}
			if verr := sg.Validate(out); verr != nil {
				t.Fatalf("batch %d committed an invalid deck: %v\ncalls: %s", b, verr, js(calls))
			}
			if len(res) != len(calls) {
				t.Fatalf("batch %d: %d results for %d calls", b, len(res), len(calls))
			}
			committed++
			d = out
			if d.Count() > 4000 || len(d.Slides) < 3 {
				d = base
			}
		}
	}
	t.Logf("%d batches committed, %d failed atomically", committed, failed)
	if committed == 0 || failed == 0 {
		t.Errorf("want both outcomes; committed %d failed %d", committed, failed)
	}
}

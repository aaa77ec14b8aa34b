package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/scenegraph"
)

func writeDeck(t *testing.T, dir, name string, d *scenegraph.Deck) string {
	t.Helper()
	b, err := scenegraph.Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDiffCommandPrintsTreeAndJSON(t *testing.T) {
	dir := t.TempDir()
	a, _ := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 3})
	b := a.Clone()
	var title *scenegraph.Node
	b.Slides[2].Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if title == nil && n.Characters != "" {
			title = n
		}
		return title == nil
	})
	title.Characters = "A brand new title"
	b.Slides[4], b.Slides[5] = b.Slides[5], b.Slides[4]
	pa, pb := writeDeck(t, dir, "a.json", a), writeDeck(t, dir, "b.json", b)

	var out bytes.Buffer
	if err := runDiff(&out, pa, pb, false, false, false); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"JsonDiff: 2 distinct edit(s)", `"A brand new title"`, "# REORDERED", "Original deck (D0) snapshot: 6 slide(s)"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("text lacks %q:\n%s", s, out.String())
		}
	}
	out.Reset()
	if err := runDiff(&out, pa, pb, true, false, false); err != nil {
		t.Fatal(err)
	}
	var js struct {
		Distinct int `json:"distinct"`
		Entries  []struct {
			Kind string `json:"kind"`
		} `json:"entries"`
	}
	if err := json.Unmarshal(out.Bytes(), &js); err != nil || js.Distinct != 2 {
		t.Fatalf("json %v: %s", err, out.String())
	}
	var ee *exitError
	if err := runDiff(&out, filepath.Join(dir, "missing.json"), pb, false, false, false); !errors.As(err, &ee) || ee.code != exitBadInput {
		t.Fatalf("missing deck: %v", err)
	}
}

func TestRouteCommandReportsDecisionAndTokens(t *testing.T) {
	dir := t.TempDir()
	d, _ := deckgen.Generate(deckgen.Options{Slides: 20, Seed: 5})
	p := writeDeck(t, dir, "deck.json", d)
	t.Setenv("ACE_REDIS_URL", "")
	t.Setenv("ACE_AGENT_MODEL", "")
	t.Setenv("ACE_JUDGE_MODEL", "")
	t.Setenv("ACE_ROUTER_MODEL", "")
	var out bytes.Buffer
	f := routeFlags{instruction: "Center the chart on slide 5", encoding: "o200k_base", jsonOut: true}
	if err := runRoute(context.Background(), &out, p, f); err != nil {
		t.Fatal(err)
	}
	var rep routeReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Decision.Mode != "MICRO_SPATIAL" || len(rep.Decision.TargetSlides) != 1 || rep.Decision.TargetSlides[0] != 5 {
		t.Fatalf("decision %+v", rep.Decision)
	}
	tok := map[string]modeTokens{}
	for _, m := range rep.Modes {
		tok[string(m.Mode)] = m
	}
	if tok["FULL"].Tokens < 1000 || tok["MICRO_SPATIAL"].Tokens >= tok["FULL"].Tokens || tok["MICRO_SPATIAL"].Reduction < 80 {
		t.Fatalf("token rows %+v", rep.Modes)
	}
	// The deck as stored is larger than the FULL context, so every mode
	// saves more against it.
	if rep.StoredTokens <= tok["FULL"].Tokens || tok["MACRO_PROGRAMMATIC"].ReductionStored <= tok["MACRO_PROGRAMMATIC"].Reduction {
		t.Fatalf("stored %d tokens, rows %+v", rep.StoredTokens, rep.Modes)
	}
	out.Reset()
	f.jsonOut = false
	if err := runRoute(context.Background(), &out, p, f); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "MICRO_SPATIAL") || !strings.Contains(out.String(), "<- routed") || !strings.Contains(out.String(), "vs stored") {
		t.Fatalf("text:\n%s", out.String())
	}
	var ee *exitError
	if err := runRoute(context.Background(), &out, p, routeFlags{encoding: "o200k_base"}); !errors.As(err, &ee) || ee.code != exitBadInput {
		t.Fatalf("missing instruction: %v", err)
	}
}

func TestDiffCommandAllKeepsEveryEntry(t *testing.T) {
	dir := t.TempDir()
	a, _ := deckgen.Generate(deckgen.Options{Slides: 80, Seed: 9})
	b := a.Clone()
	for _, s := range b.Slides { // the same length and lines, so styles stay valid
		s.Walk(func(n, _ *scenegraph.Node, _ int) bool {
			n.Characters = strings.ToUpper(n.Characters)
			return true
		})
	}
	pa, pb := writeDeck(t, dir, "a.json", a), writeDeck(t, dir, "b.json", b)
	type out struct {
		Distinct  int               `json:"distinct"`
		Truncated int               `json:"truncated"`
		Entries   []json.RawMessage `json:"entries"`
	}
	read := func(all bool) out {
		var buf bytes.Buffer
		if err := runDiff(&buf, pa, pb, true, false, all); err != nil {
			t.Fatal(err)
		}
		var o out
		if err := json.Unmarshal(buf.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	capped, all := read(false), read(true)
	if capped.Distinct <= 200 || len(capped.Entries) != 200 || capped.Truncated != capped.Distinct-200 {
		t.Fatalf("default: distinct %d, %d entries, truncated %d; want the 200-entry cap on more than 200 edits", capped.Distinct, len(capped.Entries), capped.Truncated)
	}
	if len(all.Entries) != all.Distinct || all.Truncated != 0 || all.Distinct != capped.Distinct {
		t.Fatalf("--all: distinct %d, %d entries, truncated %d", all.Distinct, len(all.Entries), all.Truncated)
	}
}

package route

import (
	"strings"
	"testing"
)

func TestCountTokensMatchesKnownCounts(t *testing.T) {
	// Reference counts from OpenAI's tiktoken for these strings.
	cases := []struct {
		enc, text string
		want      int
	}{
		{CL100K, "hello world", 2},
		{O200K, "hello world", 2},
		{CL100K, "", 0},
		{CL100K, "tiktoken is great!", 6},
	}
	for _, c := range cases {
		got, err := CountTokens(c.text, c.enc)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s %q: %d tokens, want %d", c.enc, c.text, got, c.want)
		}
	}
}

func TestCountTokensRejectsUnknownEncoding(t *testing.T) {
	_, err := CountTokens("x", "p99k")
	if err == nil || !strings.Contains(err.Error(), "o200k_base") {
		t.Fatalf("want an error naming the valid encodings, got %v", err)
	}
}

func TestEncodingRoundTripsDeckJSON(t *testing.T) {
	text := `{"id":"s1","t":"TEXT","n":"Title","txt":"Quarterly review — 第3四半期","font":"Inter/24/700"}`
	for _, name := range []string{O200K, CL100K} {
		e, err := encoder(name)
		if err != nil {
			t.Fatal(err)
		}
		toks := e.EncodeOrdinary(text)
		if got := e.Decode(toks); got != text {
			t.Fatalf("%s: decode(encode(x)) = %q", name, got)
		}
		if n, _ := CountTokens(text, name); n != len(toks) || n < 10 || n > len(text) {
			t.Fatalf("%s: %d tokens for %d bytes", name, n, len(text))
		}
	}
}

// Chunked counting equals counting the whole text, on every mode's context
// of real and generated decks, in both encodings.
func TestChunkedCountIsExact(t *testing.T) {
	decks := realDecks(t)
	for name, d := range decks {
		for _, dec := range []Decision{{Mode: Full}, {Mode: Macro}, {Mode: Micro, TargetSlides: []int{0}}} {
			s, err := Context(d, dec)
			if err != nil {
				t.Fatal(err)
			}
			for _, enc := range []string{O200K, CL100K} {
				e, _ := encoder(enc)
				whole := len(e.EncodeOrdinary(s))
				got, _ := CountTokens(s, enc)
				if got != whole {
					t.Errorf("%s %s %s: chunked %d, whole %d", name, dec.Mode, enc, got, whole)
				}
				parts := splitAtPreTokenBoundaries(s, 1024)
				if len(s) > 4096 && len(parts) < 2 {
					t.Errorf("%s %s: no boundary found in %d bytes", name, dec.Mode, len(s))
				}
				sum := 0
				for _, p := range parts {
					sum += len(e.EncodeOrdinary(p))
				}
				if sum != whole {
					t.Errorf("%s %s %s: %d parts of 1 kB count %d, whole %d", name, dec.Mode, enc, len(parts), sum, whole)
				}
			}
		}
	}
	// Text without a boundary is counted whole.
	if p := splitAtPreTokenBoundaries(strings.Repeat("a b ", 20000), 1024); len(p) != 1 {
		t.Fatalf("%d parts", len(p))
	}
}

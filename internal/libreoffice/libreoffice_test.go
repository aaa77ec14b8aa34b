package libreoffice

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestPDFPagesOfADemoDeck(t *testing.T) {
	b, err := os.ReadFile("../../testdata/decks/northwind-customer-briefing.pptx")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := PDFPages(context.Background(), map[string][]byte{"deck.pptx": b})
	if err != nil {
		t.Fatal(err)
	}
	if pages["deck.pptx"] != 8 {
		t.Fatalf("%d pages, want 8 (one per slide)", pages["deck.pptx"])
	}
}

func TestUnreadableFileIsNamed(t *testing.T) {
	_, err := PDFPages(context.Background(), map[string][]byte{"garbage.pptx": []byte("not a deck")})
	if err == nil || !strings.Contains(err.Error(), "garbage.pptx") {
		t.Fatalf("got %v", err)
	}
}

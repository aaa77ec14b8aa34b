package tools

import (
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type emptyArgs struct{}

func connectionTools() []Tool {
	return []Tool{
		def(ModuleConnection, "check_connection_status", true,
			"Report that the editing session is live: deck id, slide count and the focused slide. The session is always connected; you do not need to call this before editing.",
			func(e *Env, _ *emptyArgs) (Result, error) {
				return Result{Data: asData(map[string]any{"connected": true, "deckId": e.Deck.ID, "slides": len(e.Deck.Slides), "focusedSlide": e.Focus})}, nil
			}),
		def(ModuleConnection, "get_document_info", true,
			"Describe the deck: id, name, slide size in px, slide count, node counts by type, sections, source format and the number of assets.",
			func(e *Env, _ *emptyArgs) (Result, error) {
				counts := map[string]int{}
				for t, k := range e.Deck.CountByType() {
					counts[string(t)] = k
				}
				var secs []map[string]any
				for _, s := range e.Deck.Sections {
					secs = append(secs, map[string]any{"name": s.Name, "slides": len(s.SlideIDs)})
				}
				info := map[string]any{"id": e.Deck.ID, "name": e.Deck.Name, "width": e.Deck.Width, "height": e.Deck.Height,
					"slides": len(e.Deck.Slides), "nodesByType": counts, "sections": secs, "assets": len(e.Deck.Assets)}
				if e.Deck.Source != nil {
					info["sourceFormat"] = e.Deck.Source.Format
				}
				return Result{Data: asData(info)}, nil
			}),
		def(ModuleConnection, "get_design_tokens", true,
			"Read the deck's design system: theme colours by token name (#RRGGBB), heading and body fonts per script, named text styles and variables. Use token names with themeColor and apply_text_style.",
			func(e *Env, _ *emptyArgs) (Result, error) {
				cols := map[string]string{}
				for k, c := range e.Deck.Tokens.Colors {
					cols[k] = c.Hex()
				}
				styles := map[string]sg.TypeStyle{}
				for k, s := range e.Deck.Tokens.TextStyles {
					styles[k] = s
				}
				return Result{Data: asData(map[string]any{"colors": cols, "fonts": e.Deck.Tokens.Fonts, "textStyles": styles, "variables": e.Deck.Tokens.Variables})}, nil
			}),
	}
}

package render

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"strings"
	"sync"
)

// MathJax 3.2.2 (Apache-2.0, assets/mathjax/LICENSE): the single combined
// component es5/tex-svg-full.js from the npm package mathjax@3.2.2 (TeX
// input with every TeX extension, SVG output whose glyphs are paths, so no
// web fonts), vendored by scripts/vendor-mathjax so formulas typeset with
// no network. mathJaxConfig is evaluated before it.
//
//go:embed assets/mathjax/tex-svg-full.js assets/shell.css assets/page.js
var assetFS embed.FS

// mathJaxConfig is MathJax's configuration (docs.mathjax.org/en/v3.2-latest
// /options): no start-up typesetting, no menu or assistive MathML (the
// menu's settings would turn the latter back on), glyph
// paths kept inside each formula's SVG (fontCache local), and the TeX
// packages that load files or reach outside the formula removed: require
// and autoload (would fetch extensions), html (\style, \class, \cssId,
// \href markup), noerrors and noundefined (would hide invalid LaTeX that
// must be reported). Formula size limits bound the work a deck can ask for.
const mathJaxConfig = `window.MathJax = {
  loader: {load: []},
  startup: {typeset: false},
  options: {enableMenu: false, enableAssistiveMml: false, enableEnrichment: false, enableExplorer: false,
    menuOptions: {settings: {assistiveMml: false, collapsible: false, explorer: false}}},
  tex: {packages: {'[-]': ['require', 'autoload', 'html', 'noerrors', 'noundefined']}, maxMacros: 1000, maxBuffer: 5 * 1024},
  svg: {fontCache: 'local'}
};`

// cspPolicy closes the page to the network: only inline styles and data:
// or blob: images and fonts; no script, no connections, no frames. Script
// the renderer needs runs through the DevTools protocol, which CSP does not
// govern.
const cspPolicy = "default-src 'none'; img-src data: blob:; font-src data:; style-src 'unsafe-inline'; script-src 'none'; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"

var (
	shellOnce sync.Once
	shellHTML string
	pageJS    string
	mathJaxJS string
)

func loadAssets() {
	shellOnce.Do(func() {
		read := func(p string) string {
			b, err := assetFS.ReadFile(p)
			if err != nil {
				panic("render: embedded asset missing: " + p) // build-time invariant
			}
			return string(b)
		}
		var sb strings.Builder
		sb.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8">`)
		sb.WriteString(`<meta http-equiv="Content-Security-Policy" content="` + cspPolicy + `">`)
		sb.WriteString(`<style>` + read("assets/shell.css") + `</style></head><body><div id="ace-root"></div></body></html>`)
		shellHTML = sb.String()
		pageJS = read("assets/page.js")
		mathJaxJS = mathJaxConfig + "\n" + read("assets/mathjax/tex-svg-full.js")
	})
}

// rendererBuild is a digest of the assets that decide what the browser
// measures and paints (shell, page script, MathJax): Options.Memo keys
// include it.
var rendererBuild = sync.OnceValue(func() string {
	sum := sha256.New()
	for _, name := range []string{"assets/shell.css", "assets/page.js", "assets/mathjax/tex-svg-full.js"} {
		b, _ := assetFS.ReadFile(name)
		sum.Write(b)
	}
	return hex.EncodeToString(sum.Sum(nil)[:8])
})

package render

import (
	"embed"
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
)

// KaTeX 0.16.22 (MIT, assets/katex/LICENSE): the minified script, its CSS
// and the woff2 faces, vendored from the npm package so math typesets with
// no network. The CSS's font URLs are rewritten to data: URIs at start-up.
//
//go:embed assets/katex/katex.min.js assets/katex/katex.min.css assets/katex/fonts/*.woff2 assets/shell.css assets/page.js
var assetFS embed.FS

// cspPolicy closes the page to the network: only inline styles and data:
// or blob: images and fonts; no script, no connections, no frames. Script
// the renderer needs runs through the DevTools protocol, which CSP does not
// govern.
const cspPolicy = "default-src 'none'; img-src data: blob:; font-src data:; style-src 'unsafe-inline'; script-src 'none'; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"

var (
	shellOnce sync.Once
	shellHTML string
	pageJS    string
	katexJS   string
)

var katexSrcRe = regexp.MustCompile(`src:url\(fonts/([A-Za-z0-9_-]+)\.woff2\) format\("woff2"\)[^;}]*`)

func loadAssets() {
	shellOnce.Do(func() {
		read := func(p string) string {
			b, err := assetFS.ReadFile(p)
			if err != nil {
				panic("render: embedded asset missing: " + p) // build-time invariant
			}
			return string(b)
		}
		css := read("assets/katex/katex.min.css")
		css = katexSrcRe.ReplaceAllStringFunc(css, func(m string) string {
			name := katexSrcRe.FindStringSubmatch(m)[1]
			data, err := assetFS.ReadFile("assets/katex/fonts/" + name + ".woff2")
			if err != nil {
				return m
			}
			return `src:url(data:font/woff2;base64,` + base64.StdEncoding.EncodeToString(data) + `) format("woff2")`
		})
		var sb strings.Builder
		sb.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8">`)
		sb.WriteString(`<meta http-equiv="Content-Security-Policy" content="` + cspPolicy + `">`)
		sb.WriteString(`<style>` + css + "\n" + read("assets/shell.css") + `</style></head><body><div id="ace-root"></div></body></html>`)
		shellHTML = sb.String()
		pageJS = read("assets/page.js")
		katexJS = read("assets/katex/katex.min.js")
	})
}

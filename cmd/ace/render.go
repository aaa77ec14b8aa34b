package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/acecanvas/ace/internal/fonts"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/formats/figma"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
)

// renderFlags are the options of `ace render`.
type renderFlags struct {
	outDir     string
	slidesSpec string
	scale      float64
	contact    bool
	assetsDir  string
	browsers   int
	timeout    time.Duration
}

// Limits of the render flags: the renderer refuses a PNG scale above 4
// (internal/render Request.Scale), and more browsers than this only queue
// for the cores (two browsers saturate 2 cores; internal/render Options.Size).
const (
	maxRenderScale = 4
	maxBrowsers    = 16
)

func init() {
	var f renderFlags
	cmd := &cobra.Command{
		Use:   "render DECK -o DIR",
		Short: "Render a deck to PNGs, measured geometry and a layout-violations report",
		Long: `Render lays out and paints DECK (.pptx, or .json scene graph) in headless
Chromium and writes to DIR:
  slide-NN.png        one image per slide (NN is 1-based)
  geometry.json       measured bounds, text lines and overflow of every node
  violations.json     the layout violations (text_overflow, overlap,
                      out_of_bounds, image_clipping, low_contrast, min_font_size,
                      frame_overflow)
  violations.txt      the same, one line each
  contact-sheet.png   all slides on one image (with --contact-sheet)
Images of an earlier render in DIR (slide-NN.png, contact-sheet.png) are
removed first, so DIR holds exactly the slides geometry.json describes.
Chromium: $ACE_CHROMIUM or /usr/lib/chromium/chromium.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			// A signal stops the render and closes the browsers before
			// exit (exit 130 or 143), so none outlives ace.
			ctx, caught, stop := onInterrupt(ctx)
			defer stop()
			err := runRender(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], f)
			if sig := caught(); sig != nil && err != nil {
				return interrupted(sig, "render of "+args[0], "no images written to "+f.outDir+"; run the same command again to render the deck")
			}
			return err
		},
	}
	cmd.Flags().StringVarP(&f.outDir, "out", "o", "", "output directory (created if missing)")
	cmd.Flags().StringVar(&f.slidesSpec, "slides", "", "slides to render, 1-based: 1,3-5 (default all)")
	cmd.Flags().Float64Var(&f.scale, "scale", 1, "PNG scale relative to the slide's px size, above 0 and at most 4")
	cmd.Flags().BoolVar(&f.contact, "contact-sheet", false, "also write contact-sheet.png with every rendered slide")
	cmd.Flags().StringVar(&f.assetsDir, "assets", "", "asset store directory for a .json deck's images (default DECK.assets beside it)")
	cmd.Flags().IntVar(&f.browsers, "browsers", 1, fmt.Sprintf("browsers to render with in parallel, 1-%d", maxBrowsers))
	cmd.Flags().DurationVar(&f.timeout, "timeout", 30*time.Second, "time limit per slide")
	rootCmd.AddCommand(cmd)
}

// runRender checks every option and the deck before starting Chromium
// (bad input exits 2), renders, and writes the outputs.
// runRender renders deckPath's slides into f.outDir and prints what it
// wrote on stdout; progress (browsers starting, slides rendered) goes to
// stderr (nil: none).
func runRender(ctx context.Context, stdout, stderr io.Writer, deckPath string, f renderFlags) error {
	if f.outDir == "" {
		return badInput(errors.New("render: -o DIR is required"))
	}
	if !(f.scale > 0 && f.scale <= maxRenderScale) {
		return badInput(fmt.Errorf("render: --scale %g: want a number above 0 and at most %d (1 = the slide's px size, 2 = twice the pixels per side)", f.scale, maxRenderScale))
	}
	if f.browsers < 1 || f.browsers > maxBrowsers {
		return badInput(fmt.Errorf("render: --browsers %d: want 1-%d", f.browsers, maxBrowsers))
	}
	if f.timeout <= 0 {
		return badInput(fmt.Errorf("render: --timeout %s: want a positive duration such as 30s", f.timeout))
	}
	if st, err := os.Stat(f.outDir); err == nil && !st.IsDir() {
		return badInput(fmt.Errorf("render: -o %s is a file; give a directory (it is created if missing)", f.outDir))
	}
	d, assets, err := loadDeckForRender(ctx, deckPath, f.assetsDir)
	if err != nil {
		return badInput(err)
	}
	if side := max(d.Width, d.Height) * f.scale; side > 2*render.MaxSlideSide {
		return badInput(fmt.Errorf("render: --scale %g makes a %gx%g px slide %g px wide; at most %d px per side: use a smaller --scale", f.scale, d.Width, d.Height, side, 2*render.MaxSlideSide))
	}
	idx, err := parseSlideSpec(f.slidesSpec, len(d.Slides))
	if err != nil {
		return badInput(err)
	}
	if err := os.MkdirAll(f.outDir, 0o755); err != nil {
		return badInput(fmt.Errorf("render: -o %s: %w; give a directory that can be created", f.outDir, err))
	}
	status := newStatusLine(stderr)
	status.say(fmt.Sprintf("render: starting %s", plural(f.browsers, "browser")))
	pool, err := render.NewPool(ctx, render.Options{Size: f.browsers, Timeout: f.timeout})
	if err != nil {
		return err
	}
	defer pool.Close()
	start := time.Now()
	total := len(idx)
	if idx == nil {
		total = len(d.Slides)
	}
	status.count("render: slides", 0, total)
	res, err := pool.Render(ctx, d, assets, render.Request{Slides: idx, Scale: f.scale, Images: true,
		Progress: func(done, total int) { status.count("render: slides", done, total) }})
	status.finish()
	if err != nil {
		return err
	}
	if err := writeRenderOutputs(stdout, f.outDir, res, f.contact, time.Since(start)); err != nil {
		return err
	}
	for _, face := range fonts.Substituted(fonts.Used(d)) {
		fmt.Fprintf(stdout, "font: %s\n", face.Line())
	}
	return nil
}

// loadDeckForRender reads a .pptx through the importer, or a .json scene
// graph (images from --assets, default DECK.assets beside it, the layout
// "ace convert" writes) or Figma REST response.
func loadDeckForRender(ctx context.Context, path, assetsDir string) (*scenegraph.Deck, scenegraph.AssetSource, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("render: %w", deckError(path, err))
	}
	if len(data) == 0 {
		return nil, nil, fmt.Errorf("render: %s is empty (0 bytes): give a .pptx, an ACE scene-graph .json or a Figma REST .json deck", path)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".pptx":
		// The renderer draws the layout and master art from the original
		// package (in blobs), as PowerPoint shows it.
		d, blobs, err := pptx.Import(data, filepath.Base(path))
		if err != nil {
			return nil, nil, fmt.Errorf("render: %w", deckError(path, err))
		}
		return d, blobs, nil
	case ".json":
		var top map[string]json.RawMessage
		if err := json.Unmarshal(data, &top); err != nil {
			return nil, nil, fmt.Errorf("render: %s: not JSON: %w", path, err)
		}
		if _, ok := top["slides"]; !ok {
			if _, fig := top["document"]; fig || top["nodes"] != nil {
				d, blobs, _, err := figma.ImportDetailed(data, figma.Options{})
				if err != nil {
					return nil, nil, fmt.Errorf("render: importing Figma file %s: %w", path, err)
				}
				return d, blobs, nil
			}
		}
		d, err := scenegraph.Decode(data)
		if err != nil {
			return nil, nil, fmt.Errorf("render: %s: %w", path, err)
		}
		dir := assetsDir
		if dir == "" {
			dir = strings.TrimSuffix(path, filepath.Ext(path)) + ".assets"
			if _, err := os.Stat(dir); err != nil {
				warnMissingAssets("render", path, d, nil)
				return d, scenegraph.Blobs{}, nil
			}
		}
		fs, err := store.NewFS(dir)
		if err != nil {
			return nil, nil, fmt.Errorf("render: opening asset store %s: %w", dir, err)
		}
		assets := store.Assets(ctx, fs)
		warnMissingAssets("render", path, d, assets)
		return d, assets, nil
	}
	return nil, nil, fmt.Errorf("render: %s: unknown deck format (want .pptx, or .json scene graph or Figma file)", path)
}

// parseSlideSpec turns "1,3-5" (1-based) into 0-based indexes; "" is all.
func parseSlideSpec(spec string, n int) ([]int, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, nil
	}
	seen := map[int]bool{}
	var out []int
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			return nil, fmt.Errorf("render: --slides %q: %q is not a slide number (use 1,3-5)", spec, part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
				return nil, fmt.Errorf("render: --slides %q: %q is not a range (use 3-5)", spec, part)
			}
		}
		if a > b {
			return nil, fmt.Errorf("render: --slides %q: %q is reversed; write %d-%d", spec, part, b, a)
		}
		if a < 1 || b > n {
			return nil, fmt.Errorf("render: --slides %q: %q is outside 1-%d (the deck has %s)", spec, part, n, plural(n, "slide"))
		}
		for i := a; i <= b; i++ {
			if !seen[i] {
				seen[i] = true
				out = append(out, i-1)
			}
		}
	}
	sort.Ints(out)
	return out, nil
}

// staleImage matches the images ace render writes: slide-NN.png (NN is
// 1-based, at least two digits) and contact-sheet.png.
var staleImage = regexp.MustCompile(`^(slide-[0-9]{2,}|contact-sheet)\.png$`)

// removeStaleImages deletes the images an earlier render left in dir and
// returns how many; other files are never touched.
func removeStaleImages(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if e.Type().IsRegular() && staleImage.MatchString(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return n, fmt.Errorf("render: removing the earlier %s: %w", filepath.Join(dir, e.Name()), err)
			}
			n++
		}
	}
	return n, nil
}

// plural is "1 slide", "2 slides".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func writeRenderOutputs(stdout io.Writer, dir string, res *render.Result, contact bool, took time.Duration) error {
	stale, err := removeStaleImages(dir)
	if err != nil {
		return err
	}
	var pngs [][]byte
	for _, s := range res.Slides {
		name := filepath.Join(dir, fmt.Sprintf("slide-%02d.png", s.Index+1))
		if err := os.WriteFile(name, s.PNG, 0o644); err != nil {
			return err
		}
		pngs = append(pngs, s.PNG)
	}
	geo, err := json.MarshalIndent(res.Slides, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "geometry.json"), geo, 0o644); err != nil {
		return err
	}
	vj, err := json.MarshalIndent(struct {
		Violations []render.Violation `json:"violations"`
	}{res.Violations}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "violations.json"), vj, 0o644); err != nil {
		return err
	}
	var sb strings.Builder
	counts := map[string]int{}
	for _, v := range res.Violations {
		counts[v.Kind]++
		fmt.Fprintf(&sb, "%s\t%s\t%s\t%s\n", v.SlideID, v.Kind, strings.Join(v.NodeIDs, ","), v.Reason)
	}
	artNote := ""
	for _, s := range res.Slides {
		for _, e := range s.Errors {
			fmt.Fprintf(&sb, "%s\terror\t%s\t%s\n", s.SlideID, e.NodeID, e.Message)
			if strings.HasPrefix(e.Message, "layout and master art not drawn") {
				artNote = e.Message
			}
		}
	}
	if artNote != "" {
		// Said once, not per slide: every slide lacks the art the file shows.
		fmt.Fprintf(os.Stderr, "warning: %s (keep the deck's .assets folder beside its .json, or render the .pptx)\n", artNote)
	}
	if err := os.WriteFile(filepath.Join(dir, "violations.txt"), []byte(sb.String()), 0o644); err != nil {
		return err
	}
	if contact && len(pngs) > 0 {
		sheet, err := render.ContactSheet(pngs, 4, 320)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "contact-sheet.png"), sheet, 0o644); err != nil {
			return err
		}
	}
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, counts[k]))
	}
	sort.Strings(kinds)
	fmt.Fprintf(stdout, "rendered %s in %s to %s; %s", plural(len(res.Slides), "slide"), took.Round(time.Millisecond), dir, plural(len(res.Violations), "violation"))
	if len(kinds) > 0 {
		fmt.Fprintf(stdout, " (%s)", strings.Join(kinds, ", "))
	}
	fmt.Fprintln(stdout)
	if stale > 0 {
		fmt.Fprintf(stdout, "removed %s left from an earlier render in %s\n", plural(stale, "image"), dir)
	}
	return nil
}

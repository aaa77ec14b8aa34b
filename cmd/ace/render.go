package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

func init() {
	var (
		outDir     string
		slidesSpec string
		scale      float64
		contact    bool
		assetsDir  string
		poolSize   int
		timeout    time.Duration
	)
	cmd := &cobra.Command{
		Use:   "render DECK -o DIR",
		Short: "Render a deck to PNGs, measured geometry and a layout-violations report",
		Long: `Render lays out and paints DECK (.pptx, or .json scene graph) in headless
Chromium and writes to DIR:
  slide-NN.png        one image per slide (NN is 1-based)
  geometry.json       measured bounds, text lines and overflow of every node
  violations.json     the layout violations (text_overflow, overlap,
                      out_of_bounds, image_clipping, low_contrast, min_font_size)
  violations.txt      the same, one line each
  contact-sheet.png   all slides on one image (with --contact-sheet)
Chromium: $ACE_CHROMIUM or /usr/lib/chromium/chromium.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if outDir == "" {
				return badInput(errors.New("render: -o DIR is required"))
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			d, assets, err := loadDeckForRender(ctx, args[0], assetsDir)
			if err != nil {
				return badInput(err)
			}
			idx, err := parseSlideSpec(slidesSpec, len(d.Slides))
			if err != nil {
				return badInput(err)
			}
			if err := os.MkdirAll(outDir, 0o755); err != nil {
				return err
			}
			pool, err := render.NewPool(ctx, render.Options{Size: poolSize, Timeout: timeout})
			if err != nil {
				return err
			}
			defer pool.Close()
			start := time.Now()
			res, err := pool.Render(ctx, d, assets, render.Request{Slides: idx, Scale: scale, Images: true})
			if err != nil {
				return err
			}
			return writeRenderOutputs(cmd, outDir, res, contact, time.Since(start))
		},
	}
	cmd.Flags().StringVarP(&outDir, "out", "o", "", "output directory")
	cmd.Flags().StringVar(&slidesSpec, "slides", "", "slides to render, 1-based: 1,3-5 (default all)")
	cmd.Flags().Float64Var(&scale, "scale", 1, "PNG scale relative to the slide's px size")
	cmd.Flags().BoolVar(&contact, "contact-sheet", false, "also write contact-sheet.png with every rendered slide")
	cmd.Flags().StringVar(&assetsDir, "assets", "", "asset store directory for a .json deck's images (default DECK.assets beside it)")
	cmd.Flags().IntVar(&poolSize, "browsers", 1, "browsers to render with in parallel")
	cmd.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "time limit per slide")
	rootCmd.AddCommand(cmd)
}

// loadDeckForRender reads a .pptx through the importer, or a .json scene
// graph (images from --assets, default DECK.assets beside it, the layout
// "ace convert" writes) or Figma REST response.
func loadDeckForRender(ctx context.Context, path, assetsDir string) (*scenegraph.Deck, scenegraph.AssetSource, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("render: reading deck: %w", err)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".pptx":
		// Render what PowerPoint shows: layout and master decorations too.
		d, blobs, _, err := pptx.ImportWithOptions(data, filepath.Base(path), pptx.Options{Inherited: true})
		if err != nil {
			return nil, nil, fmt.Errorf("render: importing %s: %w", path, err)
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
				return d, scenegraph.Blobs{}, nil
			}
		}
		fs, err := store.NewFS(dir)
		if err != nil {
			return nil, nil, fmt.Errorf("render: opening asset store %s: %w", dir, err)
		}
		return d, store.Assets(ctx, fs), nil
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
		if a < 1 || b > n || a > b {
			return nil, fmt.Errorf("render: --slides %q: %q is outside 1-%d", spec, part, n)
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

func writeRenderOutputs(cmd *cobra.Command, dir string, res *render.Result, contact bool, took time.Duration) error {
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
	for _, s := range res.Slides {
		for _, e := range s.Errors {
			fmt.Fprintf(&sb, "%s\terror\t%s\t%s\n", s.SlideID, e.NodeID, e.Message)
		}
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
	fmt.Fprintf(cmd.OutOrStdout(), "rendered %d slides in %s to %s; %d violations", len(res.Slides), took.Round(time.Millisecond), dir, len(res.Violations))
	if len(kinds) > 0 {
		fmt.Fprintf(cmd.OutOrStdout(), " (%s)", strings.Join(kinds, ", "))
	}
	fmt.Fprintln(cmd.OutOrStdout())
	return nil
}

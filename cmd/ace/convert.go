package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/acecanvas/ace/internal/fonts"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/formats/figma"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/outfile"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
)

func init() {
	var (
		report    bool
		assetsDir string
		force     bool
	)
	cmd := &cobra.Command{
		Use:   "convert IN OUT",
		Short: "Convert a deck between .pptx, ACE scene-graph .json and Figma JSON (import only)",
		Long: `Convert reads IN and writes OUT; the formats come from the file names and, for
.json input, from the content:
  .pptx                PowerPoint (import and export; an imported deck keeps
                       its original package so untouched parts export
                       byte-identical)
  .json                ACE scene graph (a deck object with "slides")
  .json / .figma.json  Figma REST response (GET /v1/files/:key or /nodes);
                       import only
Asset bytes (pictures, and the original .pptx a scene graph was imported
from) go to the content-addressed store in --assets (default OUT.assets for
.json output, IN.assets for .json input), so "ace convert deck.pptx deck.json"
followed by "ace convert deck.json out.pptx" round-trips.
OUT must not be IN (the original is never modified) and is replaced only
with --force.
--report prints node counts by type, what was approximated, and the time taken.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return runConvert(ctx, cmd.OutOrStdout(), args[0], args[1], convertFlags{assetsDir: assetsDir, report: report, force: force})
		},
	}
	cmd.Flags().BoolVar(&report, "report", false, "print node counts by type, approximation warnings and timings")
	cmd.Flags().BoolVar(&force, "force", false, "replace OUT if it exists")
	cmd.Flags().StringVar(&assetsDir, "assets", "", "asset store directory (default: OUT.assets or IN.assets next to the .json file)")
	rootCmd.AddCommand(cmd)
}

// convertReport is what --report prints.
type convertReport struct {
	In, Out   string
	InFormat  string
	OutFormat string
	Slides    int
	Counts    map[scenegraph.NodeType]int
	Warnings  []string
	Fonts     []fonts.Face // every Latin face the text names, as drawn here
	Read      time.Duration
	Write     time.Duration
	OutBytes  int
}

// convertFlags are the options of `ace convert`.
type convertFlags struct {
	assetsDir string
	report    bool
	force     bool
}

func runConvert(ctx context.Context, stdout io.Writer, in, out string, f convertFlags) error {
	assetsDir, report := f.assetsDir, f.report
	rep := convertReport{In: in, Out: out}
	if strings.HasSuffix(strings.ToLower(out), ".figma.json") {
		return badInput(fmt.Errorf("convert: %s: Figma JSON is import only; write .pptx or an ACE scene-graph .json", out))
	}
	if err := checkDeckOutput("convert", "OUT", in, out, f.force); err != nil {
		return err
	}
	data, err := os.ReadFile(in)
	if err != nil {
		return badInput(fmt.Errorf("convert: %w", deckError(in, err)))
	}
	if len(data) == 0 {
		return badInput(fmt.Errorf("convert: %s is empty (0 bytes): give a .pptx, an ACE scene-graph .json or a Figma REST .json deck", in))
	}
	t0 := time.Now()
	var (
		d     *scenegraph.Deck
		blobs = scenegraph.Blobs{}
	)
	inExt := strings.ToLower(filepath.Ext(in))
	switch {
	case inExt == ".pptx":
		rep.InFormat = "pptx"
		var warns []pptx.Warning
		d, blobs, warns, err = pptx.ImportDetailed(data, filepath.Base(in), pptx.DefaultLimits)
		if err != nil {
			return badInput(fmt.Errorf("convert: %w", deckError(in, err)))
		}
		for _, w := range warns {
			rep.Warnings = append(rep.Warnings, "import: "+w.String())
		}
	case inExt == ".json":
		kind, err := sniffJSON(data)
		if err != nil {
			return badInput(fmt.Errorf("convert: %s: %w", in, err))
		}
		switch kind {
		case "figma":
			rep.InFormat = "figma"
			var warns []string
			d, blobs, warns, err = figma.ImportDetailed(data, figma.Options{Name: filepath.Base(in)})
			if err != nil {
				return badInput(fmt.Errorf("convert: %w", deckError(in, err)))
			}
			for _, w := range warns {
				rep.Warnings = append(rep.Warnings, "import: "+w)
			}
		default:
			rep.InFormat = "json"
			d, err = scenegraph.Decode(data)
			if err != nil {
				return badInput(fmt.Errorf("convert: %w", deckError(in, err)))
			}
		}
	default:
		return badInput(fmt.Errorf("convert: %s: unknown input format %q (want .pptx or .json)", in, inExt))
	}
	rep.Read = time.Since(t0)
	rep.Fonts = fonts.Used(d)
	for _, f := range fonts.Substituted(rep.Fonts) {
		rep.Warnings = append(rep.Warnings, "font: "+f.Line())
	}

	t1 := time.Now()
	var outBytes []byte
	outExt := strings.ToLower(filepath.Ext(out))
	switch {
	case strings.HasSuffix(strings.ToLower(out), ".figma.json"):
		return badInput(fmt.Errorf("convert: %s: Figma JSON is import only; write .pptx or an ACE scene-graph .json", out))
	case outExt == ".pptx":
		rep.OutFormat = "pptx"
		var assets scenegraph.AssetSource = blobs
		if rep.InFormat == "json" {
			dir := assetsDir
			if dir == "" {
				dir = strings.TrimSuffix(in, filepath.Ext(in)) + ".assets"
			}
			assets, err = openAssets(ctx, dir, blobs)
			if err != nil {
				return err
			}
		}
		var warns []pptx.Warning
		outBytes, warns, err = pptx.ExportDetailed(d, assets)
		if err != nil {
			return fmt.Errorf("convert: %w", err)
		}
		for _, w := range warns {
			rep.Warnings = append(rep.Warnings, "export: "+w.String())
		}
	case outExt == ".json":
		rep.OutFormat = "json"
		outBytes, err = scenegraph.Encode(d)
		if err != nil {
			return fmt.Errorf("convert: %w", err)
		}
		if len(blobs) > 0 {
			dir := assetsDir
			if dir == "" {
				dir = strings.TrimSuffix(out, filepath.Ext(out)) + ".assets"
			}
			fs, err := store.NewFS(dir)
			if err != nil {
				return fmt.Errorf("convert: asset store %s: %w", dir, err)
			}
			if err := store.PutBlobs(ctx, fs, blobs); err != nil {
				return fmt.Errorf("convert: writing assets to %s: %w", dir, err)
			}
		}
	default:
		return badInput(fmt.Errorf("convert: %s: unknown output format %q (want .pptx or .json)", out, outExt))
	}
	if err := outfile.Write(out, outBytes, f.force); err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	rep.Write = time.Since(t1)
	rep.Slides = len(d.Slides)
	rep.Counts = d.CountByType()
	rep.OutBytes = len(outBytes)
	if report {
		printConvertReport(stdout, rep)
	}
	return nil
}

// sniffJSON tells an ACE scene graph ("slides" at the top) from a Figma
// response ("document" or "nodes").
func sniffJSON(data []byte) (string, error) {
	var top map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&top); err != nil {
		return "", fmt.Errorf("not a JSON object: %v", err)
	}
	if _, ok := top["slides"]; ok {
		return "json", nil
	}
	if _, ok := top["document"]; ok {
		return "figma", nil
	}
	if _, ok := top["nodes"]; ok {
		return "figma", nil
	}
	return "", errors.New(`neither an ACE scene graph ("slides") nor a Figma response ("document" or "nodes")`)
}

// openAssets opens the asset store of a scene-graph deck; a missing
// directory means no assets (a generated deck may have none).
func openAssets(ctx context.Context, dir string, extra scenegraph.Blobs) (scenegraph.AssetSource, error) {
	if _, err := os.Stat(dir); err != nil {
		return extra, nil
	}
	fs, err := store.NewFS(dir)
	if err != nil {
		return nil, fmt.Errorf("convert: asset store %s: %w", dir, err)
	}
	return store.Assets(ctx, fs), nil
}

func printConvertReport(w io.Writer, r convertReport) {
	fmt.Fprintf(w, "converted %s (%s) -> %s (%s), %d bytes\n", r.In, r.InFormat, r.Out, r.OutFormat, r.OutBytes)
	fmt.Fprintf(w, "slides: %d\n", r.Slides)
	fmt.Fprintf(w, "nodes by type:\n")
	total := 0
	for _, t := range scenegraph.AllTypes {
		if n := r.Counts[t]; n > 0 {
			fmt.Fprintf(w, "  %-11s %6d\n", t, n)
			total += n
		}
	}
	fmt.Fprintf(w, "  %-11s %6d\n", "total", total)
	fmt.Fprintf(w, "fonts: %s named, %d drawn in another face\n", plural(len(r.Fonts), "face"), len(fonts.Substituted(r.Fonts)))
	for _, f := range r.Fonts {
		fmt.Fprintf(w, "  %s, %s\n", f.Line(), plural(f.Runs, "run"))
	}
	fmt.Fprintf(w, "approximations: %d\n", len(r.Warnings))
	for _, m := range r.Warnings {
		fmt.Fprintf(w, "  - %s\n", m)
	}
	fmt.Fprintf(w, "time: read %.1f ms, write %.1f ms, total %.1f ms\n",
		float64(r.Read.Microseconds())/1000, float64(r.Write.Microseconds())/1000, float64((r.Read+r.Write).Microseconds())/1000)
}

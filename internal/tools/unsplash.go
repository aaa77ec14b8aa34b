package tools

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type searchImagesArgs struct {
	Query  string `json:"query" minLength:"1" desc:"Words to match against file names and tags (local library) or photo descriptions (Unsplash)."`
	Limit  int    `json:"limit,omitempty" min:"1" max:"30" desc:"Hits per page; default 10."`
	Cursor string `json:"cursor,omitempty" desc:"nextCursor from the previous page."`
}

// MaxStockHits is how many hits, best first, one search_stock_images
// query considers; its pages are cut from them, so every page of a query
// reports the same total.
const MaxStockHits = 60

type insertStockArgs struct {
	place
	ImageID   string `json:"imageId,omitempty" desc:"Id from search_stock_images."`
	Query     string `json:"query,omitempty" desc:"Insert the best match for these words."`
	ScaleMode string `json:"scaleMode,omitempty" enum:"FILL,FIT"`
	AltText   string `json:"altText,omitempty" desc:"Default: the photo's description."`
}

func unsplashTools() []Tool {
	return []Tool{
		def(ModuleUnsplash, "search_stock_images", true,
			"Search the image library: the organization's asset directory (logos, stock photos; by file name and tags) and, when configured, Unsplash. Returns a page of ids, names, tags, pixel sizes and the credit line to show.",
			func(e *Env, a *searchImagesArgs) (Result, error) {
				p := page{Limit: a.Limit, Cursor: a.Cursor}
				if p.Limit == 0 {
					p.Limit = 10
				}
				hits, err := e.assets().Search(context.Background(), a.Query, MaxStockHits)
				if err != nil {
					return Result{}, err
				}
				lo, hi, err := p.bounds(len(hits))
				if err != nil {
					return Result{}, err
				}
				out := map[string]any{"query": a.Query, "items": slices.Clip(hits[lo:hi]), "total": len(hits)}
				if hi < len(hits) {
					out["nextCursor"] = strconv.Itoa(hi)
				}
				return Result{Data: asData(out)}, nil
			}),
		def(ModuleUnsplash, "insert_stock_image", false,
			"Insert a photo from the image library (by id from search_stock_images, or the best match for a query) as an IMAGE node, covering the given box (FILL) or fitting inside it (FIT). Alt text defaults to the photo's description; the credit line is returned as a warning to place if required.",
			func(e *Env, a *insertStockArgs) (Result, error) {
				ctx := context.Background()
				id := a.ImageID
				name := ""
				if id == "" {
					if a.Query == "" {
						return Result{}, fmt.Errorf("give imageId or query")
					}
					hits, err := e.assets().Search(ctx, a.Query, 1)
					if err != nil {
						return Result{}, err
					}
					if len(hits) == 0 {
						return Result{}, fmt.Errorf("no image matches %q", a.Query)
					}
					id, name = hits[0].ID, hits[0].Name
				}
				img, err := e.assets().Fetch(ctx, id)
				if err != nil {
					return Result{}, err
				}
				ref := e.addImage(img)
				n := e.newNode(sg.TypeImage, orStr(name, img.Name))
				n.Fills = []sg.Paint{{Type: sg.PaintImage, ImageRef: ref, ScaleMode: orStr(a.ScaleMode, "FILL")}}
				n.AltText = orStr(a.AltText, name)
				w, h := 480.0, 320.0
				if img.Width > 0 && img.Height > 0 {
					s := math.Min(1, math.Min(e.Deck.Width*0.6/float64(img.Width), e.Deck.Height*0.6/float64(img.Height)))
					w, h = float64(img.Width)*s, float64(img.Height)*s
				}
				if _, err := e.put(a.place, n, round2(w), round2(h)); err != nil {
					return Result{}, err
				}
				res := Result{Created: []string{n.ID}}
				if img.Attribution != "" {
					res.Warnings = append(res.Warnings, "credit: "+img.Attribution)
				}
				return res, nil
			}),
	}
}

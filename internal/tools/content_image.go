package tools

import (
	"fmt"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type replaceImageArgs struct {
	NodeID    string `json:"nodeId" desc:"IMAGE node, or a shape or frame to fill with the picture."`
	AssetRef  string `json:"assetRef,omitempty"`
	ImageID   string `json:"imageId,omitempty" desc:"Id from search_stock_images."`
	Query     string `json:"query,omitempty" desc:"Search words for the asset library."`
	ScaleMode string `json:"scaleMode,omitempty" enum:"FILL,FIT,CROP,TILE" desc:"Default: keep the current mode (FILL for a new image fill)."`
}

type cropArgs struct {
	NodeID      string `json:"nodeId"`
	AspectRatio string `json:"aspectRatio,omitempty" desc:"Crop the picture to this ratio, centred: \"16:9\", \"1:1\", \"4:3\" or a number like 1.5. The box keeps its width and takes the new height."`
	Crop        *struct {
		Left   float64 `json:"left,omitempty" min:"0" max:"1"`
		Top    float64 `json:"top,omitempty" min:"0" max:"1"`
		Right  float64 `json:"right,omitempty" min:"0" max:"1"`
		Bottom float64 `json:"bottom,omitempty" min:"0" max:"1"`
	} `json:"crop,omitempty" desc:"Explicit crop: fraction of the source image removed on each side."`
	ScaleMode string `json:"scaleMode,omitempty" enum:"FILL,FIT" desc:"FILL covers the box (may crop), FIT shows the whole picture (may letterbox)."`
}

func imagePaint(n *sg.Node) *sg.Paint {
	for i := range n.Fills {
		if n.Fills[i].Type == sg.PaintImage {
			return &n.Fills[i]
		}
	}
	return nil
}

// parseRatio reads "16:9", "16/9" or "1.78".
func parseRatio(s string) (float64, error) {
	s = strings.TrimSpace(s)
	for _, sep := range []string{":", "/", "x"} {
		if a, b, ok := strings.Cut(s, sep); ok {
			x, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
			y, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
			if err1 != nil || err2 != nil || x <= 0 || y <= 0 {
				break
			}
			return x / y, nil
		}
	}
	r, err := strconv.ParseFloat(s, 64)
	if err != nil || r <= 0 {
		return 0, fmt.Errorf("aspectRatio %q: want W:H such as 16:9, or a positive number", s)
	}
	return r, nil
}

func contentImageTools() []Tool {
	return []Tool{
		def(ModuleContent, "replace_image", false,
			"Swap the picture of an IMAGE node (or fill a shape or frame with a picture) from the deck's assets, the asset library by id, or a search query. The box keeps its size and position; the crop is reset.",
			func(e *Env, a *replaceImageArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if n.Type == sg.TypeText || n.Type == sg.TypeLine || n.Type == sg.TypeConnector || n.Type == sg.TypeTable {
					return Result{}, fmt.Errorf("node %q is a %s and cannot show a picture", a.NodeID, n.Type)
				}
				ref, _, _, err := e.resolveImage(a.AssetRef, a.ImageID, a.Query)
				if err != nil {
					return Result{}, err
				}
				if p := imagePaint(n); p != nil {
					p.ImageRef, p.Crop = ref, nil
					if a.ScaleMode != "" {
						p.ScaleMode = a.ScaleMode
					}
				} else {
					n.Fills = []sg.Paint{{Type: sg.PaintImage, ImageRef: ref, ScaleMode: orStr(a.ScaleMode, "FILL")}}
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "crop_image", false,
			"Crop a picture to an aspect ratio (centred, e.g. 1:1 for a square avatar, 16:9 for a banner) or by explicit side fractions, and/or switch between FILL (cover the box) and FIT (show all of it).",
			func(e *Env, a *cropArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				p := imagePaint(n)
				if p == nil {
					return Result{}, fmt.Errorf("node %q has no picture; insert one with create_image or replace_image", a.NodeID)
				}
				if a.AspectRatio == "" && a.Crop == nil && a.ScaleMode == "" {
					return Result{}, fmt.Errorf("give aspectRatio, crop or scaleMode")
				}
				if a.ScaleMode != "" {
					p.ScaleMode = a.ScaleMode
				}
				if a.Crop != nil {
					c := *a.Crop
					if c.Left+c.Right >= 1 || c.Top+c.Bottom >= 1 {
						return Result{}, fmt.Errorf("crop removes the whole picture: left+right and top+bottom must stay below 1")
					}
					p.Crop = &sg.Crop{Left: c.Left, Top: c.Top, Right: c.Right, Bottom: c.Bottom}
				}
				if a.AspectRatio != "" {
					ratio, err := parseRatio(a.AspectRatio)
					if err != nil {
						return Result{}, err
					}
					iw, ih := n.Size.X, n.Size.Y
					if as, ok := e.Deck.Assets[p.ImageRef]; ok && as.Width > 0 && as.Height > 0 {
						iw, ih = float64(as.Width), float64(as.Height)
					}
					if iw <= 0 || ih <= 0 {
						return Result{}, fmt.Errorf("node %q has no size to crop", a.NodeID)
					}
					src := iw / ih
					c := &sg.Crop{}
					if src > ratio { // too wide: trim the sides
						f := (1 - ratio/src) / 2
						c.Left, c.Right = round4(f), round4(f)
					} else if src < ratio { // too tall: trim top and bottom
						f := (1 - src/ratio) / 2
						c.Top, c.Bottom = round4(f), round4(f)
					}
					p.Crop = c
					if *c == (sg.Crop{}) {
						p.Crop = nil
					}
					p.ScaleMode = "CROP"
					n.Size.Y = round2(n.Size.X / ratio)
					n.LayoutSizingVertical = fixedUnlessSet(n.LayoutSizingVertical)
				}
				return changed(n.ID), nil
			}),
	}
}

func round4(x float64) float64 { return float64(int64(x*10000+0.5)) / 10000 }

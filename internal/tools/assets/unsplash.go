package assets

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// UnsplashAPI is the Unsplash API root (https://unsplash.com/documentation).
const UnsplashAPI = "https://api.unsplash.com"

// Unsplash searches and fetches photos with an access key. It calls only
// BaseURL (the API) and the image URLs the API returns.
type Unsplash struct {
	Key     string
	BaseURL string
	Client  *http.Client
}

// NewUnsplash returns a client for the public API.
func NewUnsplash(key string) *Unsplash {
	return &Unsplash{Key: key, BaseURL: UnsplashAPI, Client: &http.Client{Timeout: 30 * time.Second}}
}

type unsplashPhoto struct {
	ID          string `json:"id"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Description string `json:"description"`
	AltDesc     string `json:"alt_description"`
	URLs        struct {
		Regular string `json:"regular"`
	} `json:"urls"`
	Links struct {
		DownloadLocation string `json:"download_location"`
	} `json:"links"`
	User struct {
		Name string `json:"name"`
	} `json:"user"`
	Tags []struct {
		Title string `json:"title"`
	} `json:"tags"`
}

func (u *Unsplash) get(ctx context.Context, path string, q url.Values, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(u.BaseURL, "/")+path+"?"+q.Encode(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Client-ID "+u.Key)
	req.Header.Set("Accept-Version", "v1")
	resp, err := u.Client.Do(req)
	if err != nil {
		return fmt.Errorf("unsplash %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("unsplash %s: HTTP %d: %s (check UNSPLASH_ACCESS_KEY and the rate limit)", path, resp.StatusCode, strings.TrimSpace(string(b)))
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(out)
}

// Search implements Provider with GET /search/photos.
func (u *Unsplash) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	if limit <= 0 || limit > 30 {
		limit = 30 // the API's per_page maximum
	}
	var res struct {
		Results []unsplashPhoto `json:"results"`
	}
	if err := u.get(ctx, "/search/photos", url.Values{"query": {query}, "per_page": {fmt.Sprint(limit)}}, &res); err != nil {
		return nil, err
	}
	out := make([]Hit, 0, len(res.Results))
	for _, p := range res.Results {
		name := p.AltDesc
		if name == "" {
			name = p.Description
		}
		h := Hit{ID: "unsplash:" + p.ID, Name: name, Width: p.Width, Height: p.Height, Source: "unsplash",
			Attribution: "Photo by " + p.User.Name + " on Unsplash"}
		for _, t := range p.Tags {
			h.Tags = append(h.Tags, t.Title)
		}
		out = append(out, h)
	}
	return out, nil
}

// Fetch implements Provider: GET /photos/:id, then the regular-size image,
// and it reports the download to the API as its guidelines require.
func (u *Unsplash) Fetch(ctx context.Context, id string) (Image, error) {
	pid, ok := strings.CutPrefix(id, "unsplash:")
	if !ok {
		return Image{}, fmt.Errorf("image %q is not an Unsplash id", id)
	}
	var p unsplashPhoto
	if err := u.get(ctx, "/photos/"+url.PathEscape(pid), url.Values{}, &p); err != nil {
		return Image{}, err
	}
	if p.URLs.Regular == "" {
		return Image{}, fmt.Errorf("unsplash photo %s has no image URL", pid)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URLs.Regular, nil)
	if err != nil {
		return Image{}, err
	}
	resp, err := u.Client.Do(req)
	if err != nil {
		return Image{}, fmt.Errorf("unsplash photo %s: %w", pid, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Image{}, fmt.Errorf("unsplash photo %s: HTTP %d", pid, resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxImageBytes+1))
	if err != nil {
		return Image{}, err
	}
	if len(data) > MaxImageBytes {
		return Image{}, fmt.Errorf("unsplash photo %s is over the %d-byte limit", pid, MaxImageBytes)
	}
	if loc := p.Links.DownloadLocation; loc != "" {
		if lu, err := url.Parse(loc); err == nil {
			_ = u.get(ctx, strings.TrimPrefix(lu.Path, ""), lu.Query(), nil)
		}
	}
	img, err := Decode(id, pid+".jpg", data)
	if err != nil {
		return Image{}, err
	}
	img.Attribution = "Photo by " + p.User.Name + " on Unsplash"
	return img, nil
}

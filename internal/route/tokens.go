package route

import (
	"fmt"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// Token encodings CountTokens knows: o200k_base (GPT-4o, GPT-4.1, GPT-5
// family) and cl100k_base (GPT-4, GPT-3.5). The BPE ranks are embedded in
// the binary by tiktoken-go-loader, so counting never touches the network.
const (
	O200K  = "o200k_base"
	CL100K = "cl100k_base"
)

var (
	loaderOnce sync.Once
	encMu      sync.Mutex
	encoders   = map[string]*tiktoken.Tiktoken{}
)

func encoder(name string) (*tiktoken.Tiktoken, error) {
	if name != O200K && name != CL100K {
		return nil, fmt.Errorf("token encoding %q: want %q or %q", name, O200K, CL100K)
	}
	loaderOnce.Do(func() { tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader()) })
	encMu.Lock()
	defer encMu.Unlock()
	if e, ok := encoders[name]; ok {
		return e, nil
	}
	e, err := tiktoken.GetEncoding(name)
	if err != nil {
		return nil, fmt.Errorf("load token encoding %s: %w", name, err)
	}
	encoders[name] = e
	return e, nil
}

// CountTokens returns the number of tokens of text under the encoding
// (O200K or CL100K), as an OpenAI model would count its input. Special
// tokens in text are counted as ordinary text. The first call per encoding
// loads its ranks (a few hundred ms).
func CountTokens(text, encoding string) (int, error) {
	e, err := encoder(encoding)
	if err != nil {
		return 0, err
	}
	return len(e.EncodeOrdinary(text)), nil
}

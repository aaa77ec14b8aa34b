package route

import (
	"fmt"
	"runtime"
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
// loads its ranks (a few hundred ms). Long texts are cut at pre-token
// boundaries and counted on all cores; the count is exact.
func CountTokens(text, encoding string) (int, error) {
	e, err := encoder(encoding)
	if err != nil {
		return 0, err
	}
	chunks := splitAtPreTokenBoundaries(text, chunkBytes)
	if len(chunks) == 1 {
		return len(e.EncodeOrdinary(text)), nil
	}
	counts := make([]int, len(chunks))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(chunks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				counts[i] = len(e.EncodeOrdinary(chunks[i]))
			}
		}()
	}
	for i := range chunks {
		next <- i
	}
	close(next)
	wg.Wait()
	total := 0
	for _, n := range counts {
		total += n
	}
	return total, nil
}

// chunkBytes is the size past which CountTokens splits a text.
const chunkBytes = 32 << 10

// splitAtPreTokenBoundaries cuts text into pieces of about size bytes, only
// between an ASCII letter and a following `",` or `"}` (the end of a JSON
// string value). Both encodings' pre-tokenizers end a word at its last
// letter (a contraction needs an apostrophe) and start a new pre-token at
// the quote, and BPE never merges across pre-tokens, so the pieces' counts
// add up to the whole text's count. Text without such a boundary stays
// whole.
func splitAtPreTokenBoundaries(text string, size int) []string {
	var out []string
	for len(text) > size {
		cut := -1
		for i := size; i+1 < len(text); i++ {
			if text[i] == '"' && (text[i+1] == ',' || text[i+1] == '}') && isASCIILetter(text[i-1]) {
				cut = i
				break
			}
		}
		if cut < 0 {
			break
		}
		out = append(out, text[:cut])
		text = text[cut:]
	}
	return append(out, text)
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

package llm_test

import (
	"fmt"

	"github.com/acecanvas/ace/internal/llm"
)

// A dated snapshot is priced by its base model; cached prompt tokens are
// billed at the cached rate.
func ExamplePrices_Lookup() {
	p, ok := llm.DefaultPrices().Lookup("gpt-4.1-2025-04-14")
	fmt.Println(ok, p.Input, p.CachedInput, p.Output)
	// 12,000 prompt tokens of which 10,000 cached, 500 completion tokens:
	fmt.Printf("$%.4f\n", p.Cost(12000, 10000, 500))
	// Output:
	// true 2 0.5 8
	// $0.0130
}

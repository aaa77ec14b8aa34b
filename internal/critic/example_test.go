package critic_test

import (
	"fmt"

	"github.com/acecanvas/ace/internal/critic"
)

// The ledger over two turns: a table issue found on slide s13 and then
// re-checked clean, a completeness issue on slide s14, which the agent
// then deleted.
func ExampleLedger_Apply() {
	lib := critic.Default()
	var l critic.Ledger
	l.Apply(lib, critic.Result{Turn: 1, Slides: []string{"s13", "s14"}, Runs: []critic.Run{
		{Check: "D04.1", Slides: []string{"s13"}, Failed: []critic.Finding{{Check: "D04.1", Slide: "s13",
			Evidence: critic.Evidence{Text: "row Blue shows Yellow's values", Nodes: []string{"s13/255/r1c2"}}}}},
		{Check: "C01.2", Deck: true, Failed: []critic.Finding{{Check: "C01.2", Slide: "s14",
			Evidence: critic.Evidence{Text: "slide 14 was to be deleted"}}}},
	}})
	changes, _ := l.Apply(lib, critic.Result{Turn: 2, Slides: []string{"s13"}, Runs: []critic.Run{
		{Check: "D04.1", Slides: []string{"s13"}},
	}})
	for _, c := range changes {
		fmt.Printf("%s %s: %s -> %s\n", c.Issue, c.Check, c.From, c.To)
	}
	fmt.Println(critic.Feedback(lib, &l, ""))
	// Output:
	// I1 C01.2: open -> dropped
	// I2 D04.1: open -> resolved
	// Fixed so far, keep them fixed (issue, check, where): I2 D04.1 on slide s13.
}

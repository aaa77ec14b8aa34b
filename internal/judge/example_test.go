package judge_test

import (
	"fmt"

	"github.com/acecanvas/ace/internal/judge"
)

func ExampleParseVerdict() {
	score, reason, err := judge.ParseVerdict(
		"```json\n{\"instruction_following_score\": 3, \"instruction_following_reason\": \"Slide 4 still uses the old colour.\"}\n```",
		"instruction_following_score", "instruction_following_reason")
	fmt.Println(score, reason, err)
	_, _, err = judge.ParseVerdict(`{"instruction_following_score": 6}`, "instruction_following_score", "instruction_following_reason")
	fmt.Println(err)
	// Output:
	// 3 Slide 4 still uses the old colour. <nil>
	// "instruction_following_score" is 6, outside 0..5
}

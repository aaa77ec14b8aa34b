package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/scenegraph"
)

func main() {
	data, _ := os.ReadFile(os.Args[1])
	d, _, err := pptx.Import(data, "x")
	if err != nil {
		panic(err)
	}
	i, _ := strconv.Atoi(os.Args[2])
	d.Slides[i].Walk(func(n, p *scenegraph.Node, depth int) bool {
		c := *n
		c.Children = nil
		c.Source = nil
		b, _ := json.Marshal(c)
		s := string(b)
		if len(s) > 700 {
			s = s[:700]
		}
		fmt.Println(strings.Repeat("  ", depth), s)
		return true
	})
}

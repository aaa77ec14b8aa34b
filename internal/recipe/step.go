package recipe

import (
	"encoding/json"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/acecanvas/ace/internal/tools"
)

func (p *parser) step(n *yaml.Node) (Step, bool) {
	st := Step{Pos: pos(n)}
	var argsNode *yaml.Node
	before := len(p.errs)
	p.mapping(n, map[string]func(*yaml.Node){
		"tool":        func(v *yaml.Node) { st.Tool = p.str(v) },
		"args":        func(v *yaml.Node) { argsNode = v },
		"for_each":    func(v *yaml.Node) { st.ForEach = p.selector(v) },
		"instruction": func(v *yaml.Node) { st.Instruction = p.str(v) },
		"label":       func(v *yaml.Node) { st.Label = p.str(v) },
	})
	switch {
	case st.Tool == "" && st.Instruction == "":
		p.errAt(n, "a step needs either tool: (a tool call) or instruction: (a request for the agent)")
	case st.Tool != "" && st.Instruction != "":
		p.errAt(n, "a step is either a tool call or an instruction, not both")
	case st.Instruction != "" && (argsNode != nil || st.ForEach != nil):
		p.errAt(n, "an instruction step takes no args or for_each")
	}
	if argsNode != nil {
		if argsNode.Kind != yaml.MappingNode {
			p.errAt(argsNode, "args is a mapping of the tool's parameters")
		} else if m, ok := p.value(argsNode).(map[string]any); ok {
			st.Args = m
		}
	}
	if st.Args != nil {
		at := argsNode
		for _, b := range badRefs(st.Args) {
			p.errAt(at, "unknown reference %s", b)
		}
		if st.ForEach == nil && usesMatch(st.Args) {
			p.errAt(at, "${match.*} needs for_each: a selector whose matches the step runs on")
		}
	}
	if st.Tool != "" {
		t, ok := tools.Registry().Get(st.Tool)
		switch {
		case !ok:
			hint := ""
			if best := tools.ClosestTool(st.Tool); best != "" {
				hint = fmt.Sprintf(" (did you mean %s?)", best)
			}
			p.errAt(n, "unknown tool %q%s; list the tools with `ace tools`", st.Tool, hint)
		case st.Tool == "batch_execute":
			p.errAt(n, "a recipe is already one batch: list the calls as steps instead of batch_execute")
		case t.ReadOnly:
			p.errAt(n, "tool %q only reads the deck; recipe steps must change it", st.Tool)
		default:
			// Check the arguments against the tool's schema now, with
			// every ${match.*} reference replaced by a stand-in of its
			// type, so a typo fails here with its line rather than on
			// some deck later.
			probe := substitute(st.Args, probeContext)
			raw, _ := json.Marshal(probe)
			if err := t.ValidateArgs(raw); err != nil {
				at := n
				if argsNode != nil {
					at = argsNode
				}
				p.errAt(at, "%v", err)
			}
		}
	}
	return st, len(p.errs) == before
}

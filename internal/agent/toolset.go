package agent

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/route"
)

// Tool scoping (issue 17 item 10): the 98 deck tools' schemas cost about
// 20k prompt tokens per request, most of them for tools a given edit never
// uses. An iteration's requests therefore offer a scoped set up front
// (coreTools, plus the tools its mode and its task cue, toolCues) and
// name every other tool in the description of load_tools, which adds the
// named tools' schemas to the function list of every later request of the
// iteration. Nothing is out of reach: a call to any registered tool is
// applied whether or not it was offered, and a tool once called stays
// offered. A tool added to the registry and named nowhere here is
// loadable from the first request on.

// ToolLoadTools is the function that brings tools not offered up front
// into the function list; the agent answers it (ApplyRound), not the deck.
const ToolLoadTools = "load_tools"

// coreTools are offered in every mode: reading, creating and changing
// text, shapes and their geometry, the basic slide operations and
// batch_execute. A name the toolbox does not have is skipped.
var coreTools = []string{
	// read
	"get_all_slides", "get_page_structure", "get_node_info", "get_text_node_info", "scan_text_nodes",
	// create and structure
	"create_text", "create_rectangle", "create_frame", "delete_node", "set_z_order", "batch_execute",
	// geometry
	"move_node", "resize_node", "rotate_node", "align_nodes",
	// style
	"set_fill_color", "set_stroke", "replace_color",
	// text
	"set_text_content", "set_multiple_text_contents", "replace_text", "set_text_font", "set_text_color",
	"set_text_range_style", "set_text_align", "set_paragraph_style", "set_text_box",
	// slides
	"create_slide", "delete_slide", "reorder_slides", "focus_slide", "set_slide_properties",
}

// modeTools are offered on top of coreTools in one context mode: a
// deck-wide style edit gets the theme tools, a structural one the slide
// tools.
var modeTools = map[string][]string{
	ModeSystemic: {"get_design_tokens", "set_theme_colors", "set_theme_fonts", "apply_text_style",
		"fix_text_contrast", "enforce_min_font_size", "set_gradient_fill"},
	ModeMacro: {"add_footer", "set_sections", "set_slide_transition", "apply_text_style", "get_design_tokens"},
	ModeOff:   {"get_node_info_by_types", "get_document_info", "export_slide_image"},
	ModeFull: {"get_design_tokens", "set_theme_colors", "set_theme_fonts", "apply_text_style",
		"add_footer", "set_sections", "set_slide_transition"},
}

// toolCue offers tools when the instruction or the routed context shows
// what they work on: a table in the context or "table" in the request
// brings the table tools.
type toolCue struct {
	re    *regexp.Regexp
	tools []string
}

var toolCues = []toolCue{
	{regexp.MustCompile(`(?i)\btables?\b|"t":"TABLE"|\brows?\b|\bcolumns?\b|\bcells?\b`),
		[]string{"create_table", "set_table_cells", "edit_table_structure", "sort_table_rows"}},
	{regexp.MustCompile(`(?i)\bcharts?\b|\bgraphs?\b|\bplot|\bseries\b|\blegend|"t":"CHART"`),
		[]string{"create_chart", "get_chart_data", "update_chart_data", "set_chart_type", "set_chart_labels",
			"set_chart_legend", "set_series_color", "create_data_chart", "sort_chart_data"}},
	{regexp.MustCompile(`(?i)\bimages?\b|\bpictures?\b|\bphotos?\b|\blogos?\b|\bicons?\b|"t":"IMAGE"|"img":`),
		[]string{"create_image", "replace_image", "crop_image", "search_stock_images", "insert_stock_image", "set_alt_text"}},
	{regexp.MustCompile(`(?i)smart ?art|\bdiagram|\bprocess\b|\bcycle\b|\bhierarchy\b|\bflow ?chart|\bconnect`),
		[]string{"create_smartart", "text_to_smartart", "add_smartart_item", "set_smartart_layout", "create_connector"}},
	{regexp.MustCompile(`(?i)\bformula|\bequation|\blatex\b|"latex":`),
		[]string{"create_math"}},
	{regexp.MustCompile(`(?i)auto-?layout|"layout":"|\brow of\b|\bcolumn of\b|\bpadding\b|\bspacing\b|\bgap\b`),
		[]string{"set_layout_mode", "set_padding", "set_item_spacing", "set_axis_align", "set_layout_sizing",
			"set_layout_positioning", "wrap_in_auto_layout"}},
	{regexp.MustCompile(`(?i)\btranslat|\bproof-?read|\bspell|\btypos?\b|\bgrammar|\brewrit|\breword|\brephras|\bwording|\btone\b|\bformal|\bconcise|\bshorten|\b(in|into|to) (english|french|german|spanish|italian|portuguese|dutch|polish|chinese|japanese|korean|arabic|hebrew|hindi)\b`),
		[]string{"rewrite_text"}},
	{regexp.MustCompile(`(?i)\bbullet|\bnumbered\b|\blist\b|\bunderline|\bstrike`),
		[]string{"set_text_decoration"}},
	{regexp.MustCompile(`(?i)\bduplicate|\bcop(y|ies)\b|\bclone|\brepeat`),
		[]string{"duplicate_slide", "clone_node"}},
	{regexp.MustCompile(`(?i)\blines?\b|\bdivider|\brule\b|\bseparator|\barrows?\b`),
		[]string{"create_line"}},
	{regexp.MustCompile(`(?i)\bdistribut|\bevenly|\bequal(ly)? spac|\bgrid\b`),
		[]string{"distribute_nodes"}},
	{regexp.MustCompile(`(?i)\bopacity|\btransparen|\bfade\b|\bhide\b|\bhidden\b|\bshow\b|\bvisible`),
		[]string{"set_opacity"}},
	{regexp.MustCompile(`(?i)\bbackground|\bbackdrop`),
		[]string{"set_slide_background", "set_gradient_fill"}},
	{regexp.MustCompile(`(?i)\btypes?\b|\bevery (picture|image|shape|text)|\ball (pictures|images|shapes|texts)`),
		[]string{"get_node_info_by_types"}},
	{regexp.MustCompile(`(?i)\binto (the|a|an) (frame|group|card|row|column)|\bgroup\b|\bungroup|\bmove .* into\b`),
		[]string{"move_to_parent", "group_nodes", "ungroup_node"}},
}

// ScopedTools is the tool names an iteration offers up front for its
// input: coreTools, the mode's modeTools (OFF gets the discovery tools its
// prompt names) and every cue that matches the instruction or the routed
// context, in that order without repeats.
func ScopedTools(in Input) []string {
	names := slices.Clone(coreTools)
	names = append(names, modeTools[in.Mode]...)
	text := in.Instruction + "\n" + in.Context
	for _, c := range toolCues {
		if c.re.MatchString(text) {
			names = append(names, c.tools...)
		}
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// ToolListBudget bounds the deck tools' part of a request's function
// list, in o200k tokens of its JSON; load_tools (naming every tool left
// out) and the step tools come on top, and the whole list stays within
// 12k (issue 17 item 10; prompt_tokens_test.go measures it).
const ToolListBudget = 9500

// offeredTools is the function list of a request of ses, in the
// toolbox's order so the list is byte-stable across the iteration's
// requests until a tool is loaded: the tools the model loaded or called,
// then the session's Offered (ScopedTools) in its order, each while the
// list stays within ToolListBudget (a tool that does not fit is skipped),
// then load_tools naming the rest. A session without Offered (stored
// before scoping) offers every function and no load_tools.
func offeredTools(all []openai.Tool, ses *Session) []openai.Tool {
	if len(ses.Offered) == 0 {
		return slices.Clip(all)
	}
	byName := map[string]openai.Tool{}
	for _, t := range all {
		if t.Function != nil {
			byName[t.Function.Name] = t
		}
	}
	want := map[string]bool{}
	used := 0
	for _, n := range append(loadedTools(ses), ses.Offered...) {
		t, ok := byName[n]
		if !ok || want[n] {
			continue
		}
		if c := functionTokens(t); used+c <= ToolListBudget {
			want[n], used = true, used+c
		}
	}
	var out []openai.Tool
	var rest []*openai.FunctionDefinition
	for _, t := range all {
		if t.Function == nil {
			continue
		}
		if want[t.Function.Name] {
			out = append(out, t)
		} else {
			rest = append(rest, t.Function)
		}
	}
	if len(rest) > 0 {
		out = append(out, loadToolsFunction(rest))
	}
	return out
}

// functionTokens is what one function definition adds to a request, in
// o200k tokens of its JSON, memoized by name and JSON length.
func functionTokens(t openai.Tool) int {
	js, err := json.Marshal(t)
	if err != nil {
		return 0
	}
	key := fmt.Sprintf("%s/%d", t.Function.Name, len(js))
	if n, ok := tokenMemo.Load(key); ok {
		return n.(int)
	}
	n, err := route.CountTokens(string(js), route.O200K)
	if err != nil {
		n = len(js) / 3 // the encoder is compiled in; a rough bound if it ever fails
	}
	tokenMemo.Store(key, n)
	return n
}

var tokenMemo sync.Map

// loadedTools are the tools the session's model asked for with
// load_tools, and every other tool it called, in the order it did.
func loadedTools(ses *Session) []string {
	var out []string
	add := func(n string) {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for _, m := range ses.Messages {
		for _, tc := range m.ToolCalls {
			if tc.Function.Name != ToolLoadTools {
				add(tc.Function.Name)
				continue
			}
			names, _ := parseLoadTools(tc.Function.Arguments)
			for _, n := range names {
				add(n)
			}
		}
	}
	return out
}

// loadToolsArgs is load_tools' argument object.
type loadToolsArgs struct {
	Tools []string `json:"tools"`
}

func parseLoadTools(args string) ([]string, error) {
	var a loadToolsArgs
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	dec := json.NewDecoder(strings.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("load_tools: arguments must be {\"tools\": [names]}: %v", err)
	}
	if len(a.Tools) == 0 {
		return nil, fmt.Errorf("load_tools: name at least one tool in \"tools\"")
	}
	return a.Tools, nil
}

// loadToolsFunction is load_tools' definition; its description lists the
// tools not offered, each with the start of its own description (up to
// the first sentence's end, colon or semicolon).
func loadToolsFunction(rest []*openai.FunctionDefinition) openai.Tool {
	var b strings.Builder
	b.WriteString("Add tools to your function list; they can be called from your next answer on, and any of them also works inside batch_execute. Tools not yet in your list:")
	for _, f := range rest {
		fmt.Fprintf(&b, "\n- %s: %s", f.Name, gist(f.Description))
	}
	return openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: ToolLoadTools,
		Description: b.String(),
		Parameters:  json.RawMessage(`{"type":"object","properties":{"tools":{"type":"array","items":{"type":"string"},"description":"Names of tools to add."}},"required":["tools"]}`)}}
}

// gist is the start of a tool description: up to the first ". ", "; "
// or ": " outside parentheses (not the one of "e.g." or "i.e.") that
// leaves at least 24 bytes, at most 90 bytes, cut at a word.
func gist(desc string) string {
	s, depth := desc, 0
	for i := 0; i < len(desc)-1; i++ {
		switch c := desc[i]; {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case (c == '.' || c == ';' || c == ':') && desc[i+1] == ' ' && depth == 0 && i >= 24:
			if c == '.' && (strings.HasSuffix(desc[:i], "e.g") || strings.HasSuffix(desc[:i], "i.e")) {
				continue
			}
			s = desc[:i]
			i = len(desc)
		}
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if len(s) > 90 {
		cut := strings.LastIndex(s[:90], " ")
		if cut < 40 {
			cut = 90
		}
		s = s[:cut] + "..."
	}
	return s
}

// loadToolsResult answers a load_tools call: which tools were added, or
// an error naming the unknown ones.
func loadToolsResult(box Toolbox, args string) (string, error) {
	names, err := parseLoadTools(args)
	if err != nil {
		return "", err
	}
	var unknown []string
	for _, n := range names {
		if _, ok := box.Lookup(n); !ok {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return "", fmt.Errorf("load_tools: no tool named %s; the tools not yet in your list are named in load_tools' description", strings.Join(unknown, ", "))
	}
	b, _ := json.Marshal(map[string]any{"loaded": names,
		"note": "These tools' schemas are in your function list from your next answer on (tools you loaded or called come first; if the list is full, tools you have not used leave it and load_tools names them)."})
	return string(b), nil
}

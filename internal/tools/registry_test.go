package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRegistryHas98ToolsWithThePapersModuleCounts(t *testing.T) {
	r := Registry()
	if got := len(r.All()); got != 100 {
		t.Errorf("registry has %d tools, want 100", got)
	}
	got := r.Modules()
	for m, want := range ModuleCounts {
		if got[m] != want {
			t.Errorf("module %s has %d tools, want %d", m, got[m], want)
		}
	}
	for m := range got {
		if _, ok := ModuleCounts[m]; !ok {
			t.Errorf("tool in unknown module %q", m)
		}
	}
	for _, name := range []string{"create_frame", "create_text", "create_rectangle", "set_fill_color", "set_text_font",
		"set_text_range_style", "set_text_decoration", "set_layout_mode", "set_padding", "set_axis_align",
		"set_layout_sizing", "set_item_spacing", "set_corner_radius", "set_drop_shadow", "rotate_node", "move_node",
		"resize_node", "clone_node", "delete_node", "replace_color", "scan_text_nodes", "set_multiple_text_contents",
		"get_node_info", "get_node_info_by_types", "get_text_node_info", "get_all_slides", "get_page_structure",
		"focus_slide", "create_slide", "delete_slide", "reorder_slides", "create_smartart", "create_data_chart",
		"create_graphics", "create_math", "export_slide_image", "check_connection_status", "batch_execute",
		"clear_canvas", "export_json", "import_json"} {
		if _, ok := r.Get(name); !ok {
			t.Errorf("field tool %s is missing", name)
		}
	}
}

func TestEverySchemaCompilesAndIsAClosedObject(t *testing.T) {
	for _, tool := range Registry().All() {
		if _, err := compileSchema(tool.Name, tool.Schema); err != nil {
			t.Errorf("%s: %v", tool.Name, err)
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(tool.Schema, &m); err != nil {
			t.Fatal(err)
		}
		if m["$schema"] != schemaDialect || m["type"] != "object" || m["additionalProperties"] != false {
			t.Errorf("%s: schema header %v %v %v", tool.Name, m["$schema"], m["type"], m["additionalProperties"])
		}
		if len(tool.Description) < 40 {
			t.Errorf("%s: description too short for a model: %q", tool.Name, tool.Description)
		}
	}
}

// A misspelt argument is named with the closest real one, and the error
// lists what the tool takes, so a model or a recipe author can fix it.
func TestUnknownArgumentSuggestsTheClosest(t *testing.T) {
	tool, ok := Registry().Get("set_fill_color")
	if !ok {
		t.Fatal("set_fill_color missing")
	}
	err := tool.ValidateArgs(json.RawMessage(`{"nodeId":"s1","colour":"#FFFFFF"}`))
	if err == nil {
		t.Fatal("an unknown argument passed validation")
	}
	for _, want := range []string{`"colour": did you mean "color"?`, "this tool takes: ", "nodeId"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if err := tool.ValidateArgs(json.RawMessage(`{"nodeId":"s1","zzzzzzzzzz":1}`)); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("a name far from every argument got a suggestion: %v", err)
	}
}

// The schema a model reads (Parameters) drops only what the validator
// needs, closed objects and the colour pattern; Apply still checks the
// full Schema, so a misspelt argument and a bad colour are refused with
// an error naming them.
func TestParametersDropOnlyValidatorKeysAndApplyStillChecksThem(t *testing.T) {
	tool, _ := Registry().Get("create_frame")
	p := string(tool.Parameters())
	for _, gone := range []string{`"additionalProperties":false`, `"pattern"`, `"$schema"`} {
		if strings.Contains(p, gone) {
			t.Errorf("create_frame parameters still carry %s", gone)
		}
	}
	for _, kept := range []string{`"description":"Layer name."`, `"enum":["NONE","HORIZONTAL","VERTICAL"]`, `"minimum":0`, `"themeColor"`} {
		if !strings.Contains(p, kept) {
			t.Errorf("create_frame parameters lost %s", kept)
		}
	}
	if !strings.Contains(string(tool.Schema), `"additionalProperties":false`) || !strings.Contains(string(tool.Schema), hexPattern) {
		t.Fatal("the full schema lost its closed objects or its colour pattern")
	}
	d := fixture(t)
	_, _, err := Apply(d, []Call{call("set_fill_color", map[string]any{"nodeId": "slide-13", "colour": "#112233"})}, Options{})
	if err == nil || !strings.Contains(err.Error(), `did you mean "color"`) {
		t.Errorf("misspelt argument: %v", err)
	}
	_, _, err = Apply(d, []Call{call("set_fill_color", map[string]any{"nodeId": "slide-13", "color": "navy"})}, Options{})
	if err == nil || !strings.Contains(err.Error(), "/color") {
		t.Errorf("bad colour: %v", err)
	}
}

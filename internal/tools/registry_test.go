package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRegistryHas98ToolsWithThePapersModuleCounts(t *testing.T) {
	r := Registry()
	if got := len(r.All()); got != 98 {
		t.Errorf("registry has %d tools, want 98", got)
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

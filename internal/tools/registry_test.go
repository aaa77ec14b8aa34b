package tools

import (
	"encoding/json"
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

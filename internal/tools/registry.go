package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	openai "github.com/sashabaranov/go-openai"
)

// Module names with the number of tools each holds (ACE Appendix A, Table 7).
const (
	ModuleContent      = "content"
	ModuleSlide        = "slide"
	ModuleChart        = "chart"
	ModuleDataChart    = "dataChart"
	ModuleSmartArt     = "smartArt"
	ModuleTable        = "table"
	ModuleConnection   = "connection"
	ModuleImportExport = "importExport"
	ModuleUnsplash     = "unsplash"
	ModuleBatch        = "batch"
	ModuleMath         = "math"
)

// ModuleCounts is the paper's tool count per module; the registry is built to
// match it, plus replace_text and rewrite_text (ACE issue 17): 100 in all.
var ModuleCounts = map[string]int{
	ModuleContent: 58, ModuleSlide: 13, ModuleChart: 7, ModuleDataChart: 4,
	ModuleSmartArt: 4, ModuleTable: 4, ModuleConnection: 3, ModuleImportExport: 3,
	ModuleUnsplash: 2, ModuleBatch: 1, ModuleMath: 1,
}

// ModuleOrder lists the modules in the paper's order.
var ModuleOrder = []string{
	ModuleContent, ModuleSlide, ModuleChart, ModuleDataChart, ModuleSmartArt, ModuleTable,
	ModuleConnection, ModuleImportExport, ModuleUnsplash, ModuleBatch, ModuleMath,
}

// Tool is one operation of the action space.
type Tool struct {
	Name        string
	Module      string
	Description string // one paragraph written for a model
	// Schema is the JSON Schema (draft 2020-12) of the arguments object.
	Schema   json.RawMessage
	ReadOnly bool
	// Exec runs the tool on env's working deck. Apply validates the
	// arguments against Schema first; Exec decodes them strictly.
	Exec func(*Env, json.RawMessage) (Result, error)

	compiled *jsonschema.Schema
	// lengths checks the Length arguments' units by name (checkLengths).
	lengths func(json.RawMessage) error
}

// ToolRegistry is the catalogue of tools.
type ToolRegistry struct {
	tools  []Tool
	byName map[string]int
}

var (
	regOnce sync.Once
	reg     *ToolRegistry
	regErr  error
)

// Registry returns the catalogue of the 100 tools, built and compiled once.
// It panics only if a tool's schema fails to compile, which the package's
// tests rule out.
func Registry() *ToolRegistry {
	regOnce.Do(func() { reg, regErr = buildRegistry() })
	if regErr != nil {
		panic(regErr)
	}
	return reg
}

func buildRegistry() (*ToolRegistry, error) {
	var all []Tool
	for _, group := range [][]Tool{
		contentCreateTools(), contentStructureTools(), contentGeometryTools(), contentStyleTools(),
		contentTextTools(), contentLayoutTools(), contentImageTools(), contentAccessTools(),
		contentReadTools(), contentThemeTools(),
		slideTools(), chartTools(), dataChartTools(), smartArtTools(), tableTools(),
		connectionTools(), importExportTools(), unsplashTools(), batchTools(), mathTools(),
	} {
		all = append(all, group...)
	}
	r := &ToolRegistry{byName: map[string]int{}}
	slices.SortStableFunc(all, func(a, b Tool) int {
		ia, ib := slices.Index(ModuleOrder, a.Module), slices.Index(ModuleOrder, b.Module)
		if ia != ib {
			return ia - ib
		}
		return compareStrings(a.Name, b.Name)
	})
	for _, t := range all {
		if _, dup := r.byName[t.Name]; dup {
			return nil, fmt.Errorf("tools: %s registered twice", t.Name)
		}
		s, err := compileSchema(t.Name, t.Schema)
		if err != nil {
			return nil, err
		}
		t.compiled = s
		r.byName[t.Name] = len(r.tools)
		r.tools = append(r.tools, t)
	}
	return r, nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// All returns every tool, ordered by module (paper order) then name.
func (r *ToolRegistry) All() []Tool { return slices.Clone(r.tools) }

// Get returns the tool with that name.
func (r *ToolRegistry) Get(name string) (Tool, bool) {
	i, ok := r.byName[name]
	if !ok {
		return Tool{}, false
	}
	return r.tools[i], true
}

// Names returns every tool name in catalogue order.
func (r *ToolRegistry) Names() []string {
	out := make([]string, len(r.tools))
	for i, t := range r.tools {
		out[i] = t.Name
	}
	return out
}

// Modules counts tools per module.
func (r *ToolRegistry) Modules() map[string]int {
	m := map[string]int{}
	for _, t := range r.tools {
		m[t.Module]++
	}
	return m
}

// OpenAIFunctions returns the catalogue as OpenAI function definitions (the
// schema without its $schema key, which some servers reject).
func (r *ToolRegistry) OpenAIFunctions() []openai.FunctionDefinition {
	out := make([]openai.FunctionDefinition, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, openai.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: t.Parameters()})
	}
	return out
}

// Parameters returns the arguments schema as the model reads it: Schema
// without what only the validator needs, so the tool list a request
// carries stays small (issue 17 item 10). Dropped: "$schema" (some
// servers reject it), "additionalProperties": false (closed objects;
// Apply still rejects a misspelt argument by name, with the closest
// one), and the colour pattern hexPattern (the agent's prompt states the
// colour format once; Apply still refuses a bad colour). Everything
// else, descriptions, enums, bounds and required lists, is kept. Apply
// and ValidateArgs always check the full Schema.
func (t Tool) Parameters() json.RawMessage {
	var m map[string]any
	if err := json.Unmarshal(t.Schema, &m); err != nil {
		return t.Schema
	}
	delete(m, "$schema")
	compactSchema(m)
	b, _ := json.Marshal(m)
	return b
}

// compactSchema removes, in place and at every depth, the validator-only
// keys Parameters documents. A map type's "additionalProperties" is a
// schema object, not false, and stays.
func compactSchema(v any) {
	switch x := v.(type) {
	case map[string]any:
		if ap, ok := x["additionalProperties"].(bool); ok && !ap {
			delete(x, "additionalProperties")
		}
		if p, ok := x["pattern"].(string); ok && p == hexPattern {
			delete(x, "pattern")
		}
		for k, sub := range x {
			if k == "enum" || k == "required" {
				continue
			}
			compactSchema(sub)
		}
	case []any:
		for _, sub := range x {
			compactSchema(sub)
		}
	}
}

// def builds a Tool whose arguments decode into A; the schema is derived
// from A's fields (see schemaFor).
func def[A any](module, name string, readOnly bool, desc string, fn func(*Env, *A) (Result, error)) Tool {
	schema, err := json.Marshal(schemaFor(reflect.TypeFor[A]()))
	if err != nil {
		panic(fmt.Sprintf("tools: schema of %s: %v", name, err))
	}
	lengths := func(raw json.RawMessage) error {
		if err := checkLengths(reflect.TypeFor[A](), raw); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	return Tool{
		Name: name, Module: module, Description: desc, Schema: schema, ReadOnly: readOnly, lengths: lengths,
		Exec: func(e *Env, raw json.RawMessage) (Result, error) {
			var a A
			if len(bytes.TrimSpace(raw)) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
				if err := lengths(raw); err != nil {
					return Result{}, err
				}
				dec := json.NewDecoder(bytes.NewReader(raw))
				dec.DisallowUnknownFields()
				if err := dec.Decode(&a); err != nil {
					return Result{}, fmt.Errorf("%s: arguments: %v", name, err)
				}
			}
			return fn(e, &a)
		},
	}
}

package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var printer = message.NewPrinter(language.English)

// schemaDialect is the JSON Schema draft every tool schema declares.
const schemaDialect = "https://json-schema.org/draft/2020-12/schema"

// hexPattern accepts "#RGB", "#RRGGBB" and "#RRGGBBAA", "#" optional.
const hexPattern = `^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$`

// Hex is a colour argument, "#RRGGBB" or "#RRGGBBAA" (alpha last).
type Hex string

// schemaFor derives the JSON Schema of an argument struct from its fields.
// Tags: json (name; omitempty marks the field optional), desc (the
// description a model reads), enum (comma-separated values), min and max
// (numeric bounds), minItems, maxItems, minLength. A struct becomes a closed
// object (additionalProperties false), so a misspelt argument is rejected by
// name instead of being ignored.
func schemaFor(t reflect.Type) map[string]any {
	b := &schemaBuilder{building: map[reflect.Type]bool{}, defs: map[string]any{}}
	s := b.typeSchema(t, "")
	s["$schema"] = schemaDialect
	if len(b.defs) > 0 {
		s["$defs"] = b.defs
	}
	return s
}

// schemaBuilder tracks struct types under construction so a recursive
// type (a tree of items) becomes a $ref into $defs instead of looping.
type schemaBuilder struct {
	building map[reflect.Type]bool
	defs     map[string]any
	wanted   map[reflect.Type]bool
}

func (b *schemaBuilder) typeSchema(t reflect.Type, _ string) map[string]any {
	if t == reflect.TypeFor[json.RawMessage]() {
		return map[string]any{}
	}
	if t == reflect.TypeFor[Hex]() {
		return map[string]any{"type": "string", "pattern": hexPattern}
	}
	if t == lengthType {
		return map[string]any{"type": []string{"number", "string"}}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return b.typeSchema(t.Elem(), "")
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32:
		return map[string]any{"type": "integer"}
	case reflect.Float64, reflect.Float32:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": b.typeSchema(t.Elem(), "")}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": b.typeSchema(t.Elem(), "")}
	case reflect.Struct:
		if b.building[t] {
			if b.wanted == nil {
				b.wanted = map[reflect.Type]bool{}
			}
			b.wanted[t] = true
			return map[string]any{"$ref": "#/$defs/" + t.Name()}
		}
		b.building[t] = true
		defer delete(b.building, t)
		props := map[string]any{}
		var required []string
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			// encoding/json promotes the exported fields of an embedded
			// struct, exported or not; the schema does the same.
			if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
				// embedded argument groups flatten into the object
				sub := b.typeSchema(f.Type, "")
				for k, v := range sub["properties"].(map[string]any) {
					props[k] = v
				}
				if r, ok := sub["required"].([]string); ok {
					required = append(required, r...)
				}
				continue
			}
			if !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
			ps := b.typeSchema(f.Type, "")
			if d := f.Tag.Get("desc"); d != "" {
				ps["description"] = d
			}
			if e := f.Tag.Get("enum"); e != "" {
				vals := strings.Split(e, ",")
				if ps["type"] == "array" {
					ps["items"] = map[string]any{"type": "string", "enum": vals}
				} else {
					ps["enum"] = vals
				}
			}
			for _, k := range []string{"min", "max", "minItems", "maxItems", "minLength", "exclusiveMin"} {
				v := f.Tag.Get(k)
				if v == "" {
					continue
				}
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					panic(fmt.Sprintf("tools: bad %s tag %q on %s.%s", k, v, t.Name(), f.Name))
				}
				switch k {
				case "min":
					ps["minimum"] = x
				case "max":
					ps["maximum"] = x
				case "exclusiveMin":
					ps["exclusiveMinimum"] = x
				default:
					ps[k] = int(x)
				}
			}
			props[name] = ps
			if !strings.Contains(opts, "omitempty") {
				required = append(required, name)
			}
		}
		s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			s["required"] = required
		}
		if b.wanted[t] {
			def := map[string]any{}
			for k, v := range s {
				def[k] = v
			}
			b.defs[t.Name()] = def
		}
		return s
	}
	panic(fmt.Sprintf("tools: no schema for Go type %s", t))
}

// compileSchema compiles a schema document with jsonschema/v6 (draft
// 2020-12) under a per-tool URL, so errors name the tool.
func compileSchema(name string, doc []byte) (*jsonschema.Schema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("tool %s: schema is not JSON: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "ace://tools/" + name + ".json"
	if err := c.AddResource(url, v); err != nil {
		return nil, fmt.Errorf("tool %s: %w", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("tool %s: schema does not compile: %w", name, err)
	}
	return s, nil
}

// validateArgs checks raw arguments against the compiled schema and returns
// an error a model can act on: the first few violations with their JSON
// pointer.
func validateArgs(s *jsonschema.Schema, name string, schema, raw json.RawMessage) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("%s: arguments are not valid JSON: %v", name, err)
	}
	if err := s.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if e, ok := err.(*jsonschema.ValidationError); ok {
			ve = e
		}
		if ve == nil {
			return fmt.Errorf("%s: invalid arguments: %v", name, err)
		}
		msg := describeViolations(ve)
		if unknown := unknownArgs(ve); len(unknown) > 0 {
			msg += argumentHint(schema, unknown)
		}
		return fmt.Errorf("%s: invalid arguments: %s", name, msg)
	}
	return nil
}

// unknownArgs lists the top-level argument names the schema rejected as
// additional properties.
func unknownArgs(ve *jsonschema.ValidationError) []string {
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if ap, ok := e.ErrorKind.(*kind.AdditionalProperties); ok && len(e.InstanceLocation) == 0 {
			out = append(out, ap.Properties...)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// argumentHint names the arguments the tool takes and, for each unknown
// one, the closest of them ("colour" -> "color").
func argumentHint(schema json.RawMessage, unknown []string) string {
	var sc struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &sc) != nil || len(sc.Properties) == 0 {
		return ""
	}
	names := make([]string, 0, len(sc.Properties))
	for k := range sc.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, u := range unknown {
		if best := closest(u, names); best != "" {
			fmt.Fprintf(&b, " (%q: did you mean %q?)", u, best)
		}
	}
	fmt.Fprintf(&b, "; this tool takes: %s", strings.Join(names, ", "))
	return b.String()
}

// closest is the name within edit distance 3 of u (case-insensitive), or
// "".
func closest(u string, names []string) string {
	best, bestD := "", 4
	for _, n := range names {
		if d := editDistance(strings.ToLower(u), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// describeViolations flattens the leaf errors of a validation tree into one
// line, at most five, each with its location.
func describeViolations(ve *jsonschema.ValidationError) string {
	var leaves []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			leaves = append(leaves, fmt.Sprintf("at %s: %s", loc, e.ErrorKind.LocalizedString(printer)))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(leaves) > 5 {
		leaves = append(leaves[:5], fmt.Sprintf("and %d more", len(leaves)-5))
	}
	return strings.Join(leaves, "; ")
}

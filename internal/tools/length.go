package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Length is a length or font-size argument in px (96 per inch). A model or
// recipe may pass a number, read as px as before, or a string with a unit:
// "19pt", "0.5in", "2cm", "12.7mm", "24px" (sg.ParseLength is the one
// parser). Its schema is {"type": ["number", "string"]}.
type Length float64

// Px is the length in px.
func (l Length) Px() float64 { return float64(l) }

// UnmarshalJSON accepts a JSON number (px) or a string with a unit.
func (l *Length) UnmarshalJSON(b []byte) error {
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := sg.ParseLength(s)
		if err != nil {
			return err
		}
		*l = Length(v)
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("%s: want a number (px) or a string with a unit such as \"19pt\"", b)
	}
	*l = Length(v)
	return nil
}

// lengthPtr converts an optional Length to an optional px value.
func lengthPtr(l *Length) *float64 {
	if l == nil {
		return nil
	}
	v := float64(*l)
	return &v
}

// lengthsPx converts a list of Lengths to px.
func lengthsPx(ls []Length) []float64 {
	if ls == nil {
		return nil
	}
	out := make([]float64, len(ls))
	for i, l := range ls {
		out[i] = float64(l)
	}
	return out
}

// checkLengths parses every Length-typed string in raw arguments, walking
// them alongside the argument type t, so a bad unit is reported with the
// argument's name and path (`fontSize "19 pts": unknown unit; use px, pt,
// in, cm or mm`) before anything runs. Values of other types are left to
// the schema and the decoder.
func checkLengths(t reflect.Type, raw json.RawMessage) error {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return walkLengths(t, v, "", "")
}

var lengthType = reflect.TypeFor[Length]()

// walkLengths checks v against t; tag is the struct tag of the field v
// belongs to, whose min and exclusiveMin bounds a string length must also
// meet (the schema bounds only numbers).
func walkLengths(t reflect.Type, v any, path string, tag reflect.StructTag) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == lengthType {
		s, ok := v.(string)
		if !ok {
			return nil
		}
		name := strings.TrimPrefix(path, "/")
		px, err := sg.ParseLength(s)
		if err != nil {
			return fmt.Errorf("%s %w", name, err)
		}
		if m, err := strconv.ParseFloat(tag.Get("min"), 64); err == nil && px < m {
			return fmt.Errorf("%s %q is %g px; it must be at least %g px", name, s, px, m)
		}
		if m, err := strconv.ParseFloat(tag.Get("exclusiveMin"), 64); err == nil && px <= m {
			return fmt.Errorf("%s %q is %g px; it must be more than %g px", name, s, px, m)
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Slice:
		if xs, ok := v.([]any); ok {
			for i, x := range xs {
				if err := walkLengths(t.Elem(), x, fmt.Sprintf("%s/%d", path, i), tag); err != nil {
					return err
				}
			}
		}
	case reflect.Map:
		if m, ok := v.(map[string]any); ok {
			for k, x := range m {
				if err := walkLengths(t.Elem(), x, path+"/"+k, tag); err != nil {
					return err
				}
			}
		}
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
				if err := walkLengths(f.Type, v, path, ""); err != nil {
					return err
				}
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
			if x, ok := m[name]; ok && f.IsExported() && name != "-" {
				if err := walkLengths(f.Type, x, path+"/"+name, f.Tag); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

package tools

import "encoding/json"

// ValidateArgs checks raw arguments against the tool's JSON Schema without
// running it. The recipe parser uses it to report a bad parameter with its
// line and column in the YAML, before any deck is touched.
func (t Tool) ValidateArgs(raw json.RawMessage) error {
	if err := validateArgs(t.compiled, t.Name, t.Schema, raw); err != nil {
		return err
	}
	if t.lengths != nil {
		return t.lengths(raw)
	}
	return nil
}

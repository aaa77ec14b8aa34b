package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Operation is one command of batch_execute, in the field's shape
// ({command, params}) plus an optional symbolic name for what it creates.
type Operation struct {
	Command string          `json:"command" desc:"Tool name, e.g. create_text."`
	Params  json.RawMessage `json:"params,omitempty" desc:"That tool's arguments."`
	As      string          `json:"as,omitempty" desc:"Name the node this command creates; later commands use \"$name\" in place of its id."`
}

type batchArgs struct {
	Operations []Operation `json:"operations" minItems:"1" maxItems:"5000" desc:"Commands in order. All succeed or none is applied."`
}

func batchTools() []Tool {
	return []Tool{
		def(ModuleBatch, "batch_execute", false,
			"Run many commands as one atomic commit: creation, modification and layout across any slides, in order. If any command fails nothing is applied, and the error names the failing operation index, the command and why, so you can fix and resend. A command can name what it creates with \"as\": \"card\" and later commands use \"$card\" wherever an id goes (so create_slide and its content can share one batch). Prefer one batch_execute over many separate calls. Do not refer to nodes a delete in the same batch removed.",
			func(e *Env, a *batchArgs) (Result, error) {
				if e.depth > 0 {
					return Result{}, fmt.Errorf("batch_execute cannot be nested; put the operations in the outer batch")
				}
				e.depth++
				defer func() { e.depth-- }()
				calls := make([]Call, len(a.Operations))
				for i, op := range a.Operations {
					if op.Command == "batch_execute" {
						return Result{}, &BatchError{Index: i, Call: Call{Tool: op.Command}, Err: fmt.Errorf("batch_execute cannot be nested")}
					}
					params := op.Params
					// Some models send params as a JSON string holding the
					// object; accept it rather than fail the whole batch.
					if t := bytes.TrimSpace(params); len(t) > 0 && t[0] == '"' {
						var inner string
						if json.Unmarshal(t, &inner) == nil && json.Valid([]byte(inner)) {
							params = json.RawMessage(inner)
						}
					}
					calls[i] = Call{Tool: op.Command, Args: params, As: op.As}
				}
				results, err := e.runAll(calls)
				if err != nil {
					if be, ok := err.(*BatchError); ok {
						return Result{}, fmt.Errorf("operation %d (%s): %w", be.Index, be.Call.Tool, be.Err)
					}
					return Result{}, err
				}
				out := Result{}
				names := map[string]string{}
				for _, op := range a.Operations {
					if op.As != "" {
						names[op.As] = e.names[op.As]
					}
				}
				type opResult struct {
					Command  string          `json:"command"`
					Created  []string        `json:"created,omitempty"`
					Deleted  []string        `json:"deleted,omitempty"`
					Warnings []string        `json:"warnings,omitempty"`
					Data     json.RawMessage `json:"data,omitempty"`
				}
				var per []opResult
				seen := map[string]bool{}
				for _, r := range results {
					out.Created = append(out.Created, r.Created...)
					for _, id := range r.Changed {
						if !seen[id] {
							seen[id] = true
							out.Changed = append(out.Changed, id)
						}
					}
					out.Deleted = append(out.Deleted, r.Deleted...)
					out.Warnings = append(out.Warnings, r.Warnings...)
					per = append(per, opResult{Command: r.Tool, Created: r.Created, Deleted: r.Deleted, Warnings: r.Warnings, Data: r.Data})
				}
				out.Data = asData(map[string]any{"operations": len(results), "names": names, "results": per})
				return out, nil
			}),
	}
}

package cli

import (
	"encoding/json"
	"io"
)

// SchemaVersion is the version of every --json envelope.
const SchemaVersion = 1

// Envelope is the one shape every --json output has. Data is deterministic:
// equal inputs give identical bytes. Timing appears only with --verbose.
type Envelope struct {
	SchemaVersion int              `json:"schemaVersion"`
	Command       string           `json:"command"`
	Data          any              `json:"data"`
	ExitCode      int              `json:"exitCode"`
	Warnings      []string         `json:"warnings"`
	Timing        map[string]int64 `json:"timing,omitempty"`
}

// writeEnvelope writes the envelope as indented JSON followed by a newline.
func writeEnvelope(w io.Writer, e Envelope) error {
	if e.Warnings == nil {
		e.Warnings = []string{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(e)
}

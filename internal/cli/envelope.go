package cli

import (
	"encoding/json"
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
	// Error is why the command failed before it had a result to print
	// (data is null then); absent on every envelope that carries a result.
	Error string `json:"error,omitempty"`
}

// writeEnvelope writes the envelope on stdout as indented JSON followed by
// a newline.
func (g *Globals) writeEnvelope(e Envelope) error {
	g.enveloped = true
	if e.Warnings == nil {
		e.Warnings = []string{}
	}
	enc := json.NewEncoder(g.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(e)
}

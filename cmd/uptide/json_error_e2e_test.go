package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// A command that fails before it has a result still prints one envelope
// under --json, with the error and the exit code, so a CI job parsing
// stdout reads the failure instead of an empty stream (issue 25 item 7).
func TestJSONErrorEnvelope(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg)
	empty := t.TempDir() // no package.json here or above in a temp dir
	for _, tc := range []struct {
		name, command string
		args          []string
		want          string
	}{
		{"check outside a project", "check", []string{"check", "zod", "--json"}, "no package.json"},
		{"diff of a package the registry lacks", "diff", []string{"diff", "no-such-package-uptide", "1.0.0", "2.0.0", "--json"}, "no-such-package-uptide"},
		{"list with a bad flag", "list", []string{"list", "--json", "--no-such-flag"}, "unknown flag: --no-such-flag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, e, empty, tc.args...)
			if r.code != 2 {
				t.Fatalf("exit %d, want 2\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			var env struct {
				SchemaVersion int             `json:"schemaVersion"`
				Command       string          `json:"command"`
				Data          json.RawMessage `json:"data"`
				ExitCode      int             `json:"exitCode"`
				Warnings      []string        `json:"warnings"`
				Error         string          `json:"error"`
			}
			dec := json.NewDecoder(strings.NewReader(r.stdout))
			if err := dec.Decode(&env); err != nil {
				t.Fatalf("stdout is not one envelope: %v\n%q\nstderr: %s", err, r.stdout, r.stderr)
			}
			if dec.More() {
				t.Errorf("stdout holds more than one envelope:\n%s", r.stdout)
			}
			if env.SchemaVersion != 1 || env.Command != tc.command || env.ExitCode != 2 || string(env.Data) != "null" || env.Warnings == nil || !strings.Contains(env.Error, tc.want) {
				t.Errorf("envelope %+v (data %s); want schema 1, command %q, exit 2, data null, warnings [], error saying %q", env, env.Data, tc.command, tc.want)
			}
			if !strings.Contains(r.stderr, "uptide: "+env.Error) {
				t.Errorf("stderr %q lacks the error for a person", r.stderr)
			}
		})
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/internal/cli"
)

// TestJSONGoldenReadsBack: every envelope the goldens hold reads back into
// the report types and writes out byte for byte as it was. The typed
// words (verdicts, statuses, update kinds, risk levels) accept what the
// commands print and print it unchanged, so a stored run can be loaded
// again; a word they did not know would be an error here, not a zero.
func TestJSONGoldenReadsBack(t *testing.T) {
	files, err := filepath.Glob("testdata/json-golden/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no goldens under testdata/json-golden (%v)", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var head struct {
				Command string          `json:"command"`
				Data    json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(want, &head); err != nil {
				t.Fatal(err)
			}
			env := cli.Envelope{}
			switch {
			case string(head.Data) == "null":
				// An error envelope: no report to read.
			case head.Command == "list":
				env.Data = &model.DiscoverReport{}
			case head.Command == "check":
				env.Data = &model.CheckReport{}
			case head.Command == "diff":
				env.Data = &model.DiffReport{}
			case head.Command == "fix", head.Command == "verify":
				env.Data = &fix.Report{}
			case head.Command == "plan":
				env.Data = &model.UpgradePlanReport{}
			default:
				t.Fatalf("no report type for command %q", head.Command)
			}
			if err := json.Unmarshal(want, &env); err != nil {
				t.Fatalf("reading %s back: %v", file, err)
			}
			var got bytes.Buffer
			enc := json.NewEncoder(&got)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(env); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s does not write back as it was read, %s", file, firstDifference(got.Bytes(), want))
			}
		})
	}
}

package fix

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/uptide/uptide/fix/unidiff"
)

// PatchFile is what --patches reads: the accepted set the planner's review
// queue writes (or a person), one unified diff of one file per patch.
type PatchFile struct {
	SchemaVersion int     `json:"schemaVersion"`
	Package       string  `json:"package"`
	Target        string  `json:"target,omitempty"`
	Patches       []Patch `json:"patches"`
}

// Patch is one accepted edit of one site.
type Patch struct {
	// Finding is the id of the finding the patch fixes (check --json).
	Finding string `json:"finding,omitempty"`
	// Rule is the plan rule the site belongs to, as the commit names it.
	Rule string `json:"rule"`
	// File is slash-separated, relative to the repository root; Line is the
	// site's line.
	File        string `json:"file"`
	Line        int    `json:"line"`
	Diff        string `json:"diff"`
	Explanation string `json:"explanation,omitempty"`
}

// ReadPatches reads and validates a patch file.
func ReadPatches(file string) (*PatchFile, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--patches %s: %w", file, err)
	}
	var pf PatchFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pf); err != nil {
		return nil, fmt.Errorf("--patches %s: not a patch file (%v): it is the JSON the planner writes, {\"schemaVersion\": 1, \"package\": …, \"patches\": [{\"rule\", \"file\", \"line\", \"diff\"}]}", file, err)
	}
	if pf.SchemaVersion != 1 {
		return nil, fmt.Errorf("--patches %s: schemaVersion %d, this uptide reads 1", file, pf.SchemaVersion)
	}
	for i, p := range pf.Patches {
		switch {
		case p.File == "" || path.IsAbs(p.File) || strings.HasPrefix(path.Clean(p.File), "..") || strings.Contains(p.File, "\\"):
			return nil, fmt.Errorf("--patches %s: patch %d: file %q must be a slash path inside the repository", file, i+1, p.File)
		case strings.TrimSpace(p.Diff) == "":
			return nil, fmt.Errorf("--patches %s: patch %d (%s): no diff", file, i+1, p.File)
		case p.Rule == "":
			return nil, fmt.Errorf("--patches %s: patch %d (%s): no rule", file, i+1, p.File)
		}
	}
	return &pf, nil
}

// ApplyPatch applies p to the repository at root, exactly (a hunk moved by
// an earlier patch is placed only where its old block is unique), or
// changes nothing and says why.
func ApplyPatch(root string, p Patch) error {
	hunks, err := unidiff.Parse(p.Diff, p.File)
	if err != nil {
		return fmt.Errorf("%s: %w", p.File, err)
	}
	file := filepath.Join(root, filepath.FromSlash(p.File))
	info, err := os.Lstat(file)
	if err != nil {
		return fmt.Errorf("%s: %w", p.File, err)
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", p.File)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	// Patches reviewed one by one were each written against the upgraded
	// file; an earlier one in the same file moves the lines of the next.
	// Its hunks move only to the one place their old block occurs exactly.
	next, _, _, err := unidiff.ApplyMoved(string(data), hunks)
	if err != nil {
		return fmt.Errorf("%s: %w", p.File, err)
	}
	return os.WriteFile(file, []byte(next), info.Mode().Perm())
}

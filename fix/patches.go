package fix

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
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

// hunk is one @@ block: the old block (context and removed lines) replaced
// by the new block (context and added lines) at OldStart (1-based).
type hunk struct {
	oldStart int
	old, new []string
	// oldNoEOL/newNoEOL: "\ No newline at end of file" followed the last
	// old/new line.
	oldNoEOL, newNoEOL bool
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// parseUnified reads a unified diff of one file. Headers (---/+++) are
// optional, but when present they must name file (a/ and b/ prefixes
// allowed); a diff touching any other file, creating or deleting one, is
// refused.
func parseUnified(diff, file string) ([]hunk, error) {
	lines := strings.Split(strings.ReplaceAll(diff, "\r\n", "\n"), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	var hunks []hunk
	var cur *hunk
	var oldLeft, newLeft int
	last := byte(0)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case cur == nil || (oldLeft == 0 && newLeft == 0):
			switch {
			case strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ "):
				name := strings.TrimSpace(strings.SplitN(l[4:], "\t", 2)[0])
				if name == "/dev/null" {
					return nil, fmt.Errorf("the diff creates or deletes a file; a patch edits %s only", file)
				}
				if trimmed := strings.TrimPrefix(strings.TrimPrefix(name, "a/"), "b/"); trimmed != file && name != file {
					return nil, fmt.Errorf("the diff edits %s; a patch edits its own file (%s) only", name, file)
				}
				continue
			case strings.HasPrefix(l, "diff ") || strings.HasPrefix(l, "index ") || strings.HasPrefix(l, "rename ") ||
				strings.HasPrefix(l, "new file") || strings.HasPrefix(l, "deleted file") || strings.HasPrefix(l, "similarity "):
				if strings.HasPrefix(l, "rename ") || strings.HasPrefix(l, "new file") || strings.HasPrefix(l, "deleted file") {
					return nil, fmt.Errorf("the diff renames, creates or deletes a file; a patch edits %s only", file)
				}
				continue
			case strings.HasPrefix(l, `\ `) && cur != nil:
				markNoEOL(cur, last)
				continue
			}
			m := hunkHeader.FindStringSubmatch(l)
			if m == nil {
				if cur != nil && (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") || strings.HasPrefix(l, " ")) {
					return nil, fmt.Errorf("line %d: more lines than the hunk header counts", i+1)
				}
				return nil, fmt.Errorf("line %d: %q is not part of a unified diff", i+1, clip(l, 60))
			}
			hunks = append(hunks, hunk{})
			cur = &hunks[len(hunks)-1]
			cur.oldStart, _ = strconv.Atoi(m[1])
			oldLeft, newLeft = count(m[2]), count(m[4])
			if oldLeft == 0 {
				cur.oldStart++ // "-3,0": the insertion goes after line 3
			}
		default:
			if l == "" {
				l = " " // an editor stripped the context line's space
			}
			switch l[0] {
			case ' ':
				cur.old, cur.new = append(cur.old, l[1:]), append(cur.new, l[1:])
				oldLeft--
				newLeft--
			case '-':
				cur.old = append(cur.old, l[1:])
				oldLeft--
			case '+':
				cur.new = append(cur.new, l[1:])
				newLeft--
			case '\\':
				markNoEOL(cur, last)
				continue
			default:
				return nil, fmt.Errorf("line %d: %q in a hunk", i+1, clip(l, 60))
			}
			last = l[0]
			if oldLeft < 0 || newLeft < 0 {
				return nil, fmt.Errorf("line %d: more lines than the hunk header counts", i+1)
			}
		}
	}
	if len(hunks) == 0 {
		return nil, errors.New("no hunk in the diff")
	}
	if oldLeft != 0 || newLeft != 0 {
		return nil, errors.New("the last hunk is shorter than its header says")
	}
	return hunks, nil
}

func markNoEOL(h *hunk, last byte) {
	switch last {
	case '-':
		h.oldNoEOL = true
	case '+':
		h.newNoEOL = true
	default:
		h.oldNoEOL, h.newNoEOL = true, true
	}
}

func count(s string) int {
	if s == "" {
		return 1
	}
	n, _ := strconv.Atoi(s)
	return n
}

// applyExact applies the hunks to content. Every hunk's old block must be
// exactly the file's lines at the position its header gives (after the
// hunks before it): a hunk that does not match is rejected, never moved or
// fuzzed.
func applyExact(content string, hunks []hunk) (string, error) {
	noEOL := content != "" && !strings.HasSuffix(content, "\n")
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	if content == "" {
		lines = nil
	}
	var out []string
	next := 0 // index into lines
	for i, h := range hunks {
		at := h.oldStart - 1
		if at < next || at+len(h.old) > len(lines) {
			return "", fmt.Errorf("hunk %d (line %d) lies outside the file or overlaps the hunk before it", i+1, h.oldStart)
		}
		for k, want := range h.old {
			if lines[at+k] != want {
				return "", fmt.Errorf("hunk %d does not match line %d exactly: the file has %q, the patch expects %q", i+1, at+k+1, clip(lines[at+k], 80), clip(want, 80))
			}
		}
		if at+len(h.old) == len(lines) && h.oldNoEOL != noEOL && len(h.old) > 0 {
			return "", fmt.Errorf("hunk %d disagrees with the file about its final newline", i+1)
		}
		out = append(out, lines[next:at]...)
		out = append(out, h.new...)
		next = at + len(h.old)
		if next == len(lines) {
			noEOL = h.newNoEOL
		}
	}
	out = append(out, lines[next:]...)
	if len(out) == 0 {
		return "", nil
	}
	s := strings.Join(out, "\n")
	if !noEOL {
		s += "\n"
	}
	return s, nil
}

// ApplyPatch applies p to the repository at root, exactly, or changes
// nothing and says why.
func ApplyPatch(root string, p Patch) error {
	hunks, err := parseUnified(p.Diff, p.File)
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
	next, err := applyExact(string(data), hunks)
	if err != nil {
		return fmt.Errorf("%s: %w", p.File, err)
	}
	return os.WriteFile(file, []byte(next), info.Mode().Perm())
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

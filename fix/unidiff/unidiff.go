// Package unidiff owns unified diffs of one file: reading them strictly,
// applying them exactly (a hunk whose lines do not match where its header
// says is rejected, never moved or fuzzed), repairing a header only when
// the old block occurs once in the file, and writing a diff between two
// versions of a file (line diff by github.com/sergi/go-diff).
//
// go-diff's own patch format URL-encodes its text and applies fuzzily
// (Match_Threshold), so it reads no git-style diff and cannot promise an
// exact application; this package parses and applies, go-diff computes.
package unidiff

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Line is one line of a hunk: Op is ' ' (context), '-' (removed) or '+'
// (added); Text is the line without its newline.
type Line struct {
	Op   byte
	Text string
}

// Hunk is one @@ block. OldStart and NewStart are 1-based; an insertion
// after line n has OldStart n+1 and no old lines.
type Hunk struct {
	OldStart, NewStart int
	Lines              []Line
	// OldNoEOL/NewNoEOL: "\ No newline at end of file" followed the last
	// old/new line.
	OldNoEOL, NewNoEOL bool
}

// Old is the hunk's old block: context and removed lines.
func (h Hunk) Old() []string { return h.side('-') }

// New is the hunk's new block: context and added lines.
func (h Hunk) New() []string { return h.side('+') }

func (h Hunk) side(op byte) []string {
	var out []string
	for _, l := range h.Lines {
		if l.Op == ' ' || l.Op == op {
			out = append(out, l.Text)
		}
	}
	return out
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// Files are the file names a diff's ---/+++ headers give, a/ and b/
// stripped, /dev/null kept, in order of appearance without repeats.
func Files(diff string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range strings.Split(diff, "\n") {
		if !strings.HasPrefix(l, "--- ") && !strings.HasPrefix(l, "+++ ") {
			continue
		}
		name := headerName(l)
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

func headerName(l string) string {
	name := strings.TrimSpace(strings.SplitN(l[4:], "\t", 2)[0])
	if name == "/dev/null" {
		return name
	}
	return strings.TrimPrefix(strings.TrimPrefix(name, "a/"), "b/")
}

// Parse reads a unified diff of file. Headers (---/+++) are optional, but
// when present they must name file (a/ and b/ prefixes allowed); a diff
// touching any other file, creating, deleting or renaming one, is refused.
func Parse(diff, file string) ([]Hunk, error) {
	lines := strings.Split(diff, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	var hunks []Hunk
	var cur *Hunk
	var oldLeft, newLeft int
	last := byte(0)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if cur == nil || (oldLeft == 0 && newLeft == 0) {
			switch {
			case strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ "):
				switch name := headerName(l); {
				case name == "/dev/null":
					return nil, fmt.Errorf("the diff creates or deletes a file; a patch edits %s only", file)
				case name != file:
					return nil, fmt.Errorf("the diff edits %s; a patch edits its own file (%s) only", name, file)
				}
				continue
			case strings.HasPrefix(l, "rename ") || strings.HasPrefix(l, "new file") || strings.HasPrefix(l, "deleted file") ||
				strings.HasPrefix(l, "copy "):
				return nil, fmt.Errorf("the diff renames, creates or deletes a file; a patch edits %s only", file)
			case strings.HasPrefix(l, "diff ") || strings.HasPrefix(l, "index ") || strings.HasPrefix(l, "similarity "):
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
			hunks = append(hunks, Hunk{})
			cur = &hunks[len(hunks)-1]
			cur.OldStart, _ = strconv.Atoi(m[1])
			cur.NewStart, _ = strconv.Atoi(m[3])
			oldLeft, newLeft = count(m[2]), count(m[4])
			if oldLeft == 0 {
				cur.OldStart++ // "-3,0": the insertion goes after line 3
			}
			last = 0
			continue
		}
		if l == "" {
			l = " " // an editor stripped the context line's space
		}
		switch l[0] {
		case ' ':
			oldLeft--
			newLeft--
		case '-':
			oldLeft--
		case '+':
			newLeft--
		case '\\':
			markNoEOL(cur, last)
			continue
		default:
			return nil, fmt.Errorf("line %d: %q in a hunk", i+1, clip(l, 60))
		}
		cur.Lines = append(cur.Lines, Line{Op: l[0], Text: l[1:]})
		last = l[0]
		if oldLeft < 0 || newLeft < 0 {
			return nil, fmt.Errorf("line %d: more lines than the hunk header counts", i+1)
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

func markNoEOL(h *Hunk, last byte) {
	switch last {
	case '-':
		h.OldNoEOL = true
	case '+':
		h.NewNoEOL = true
	default:
		h.OldNoEOL, h.NewNoEOL = true, true
	}
}

func count(s string) int {
	if s == "" {
		return 1
	}
	n, _ := strconv.Atoi(s)
	return n
}

// splitLines cuts content into lines and says whether it lacks a final
// newline.
func splitLines(content string) (lines []string, noEOL bool) {
	if content == "" {
		return nil, false
	}
	return strings.Split(strings.TrimSuffix(content, "\n"), "\n"), !strings.HasSuffix(content, "\n")
}

// Apply applies the hunks to content. Every hunk's old block must be
// exactly the file's lines at the position its header gives (after the
// hunks before it): a hunk that does not match is rejected, never moved or
// fuzzed.
func Apply(content string, hunks []Hunk) (string, error) {
	lines, noEOL := splitLines(content)
	var out []string
	next := 0 // index into lines
	for i, h := range hunks {
		old := h.Old()
		at := h.OldStart - 1
		if at < next || at+len(old) > len(lines) {
			return "", fmt.Errorf("hunk %d (line %d) lies outside the file or overlaps the hunk before it", i+1, h.OldStart)
		}
		for k, want := range old {
			if lines[at+k] != want {
				return "", fmt.Errorf("hunk %d does not match line %d exactly: the file has %q, the patch expects %q", i+1, at+k+1, clip(lines[at+k], 80), clip(want, 80))
			}
		}
		if at+len(old) == len(lines) && h.OldNoEOL != noEOL && len(old) > 0 {
			return "", fmt.Errorf("hunk %d disagrees with the file about its final newline", i+1)
		}
		out = append(out, lines[next:at]...)
		out = append(out, h.New()...)
		next = at + len(old)
		if next == len(lines) {
			noEOL = h.NewNoEOL
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

// Repair moves each hunk whose header misplaces it to the one place its old
// block occurs in content, exactly, after the hunk before it; a block that
// occurs nowhere or more than once there is an error, and nothing is
// guessed. Hunks already in place are kept as they are. The result applies
// with Apply when Repair returns no error.
func Repair(content string, hunks []Hunk) ([]Hunk, error) {
	lines, _ := splitLines(content)
	out := make([]Hunk, len(hunks))
	next, shift := 0, 0
	for i, h := range hunks {
		old := h.Old()
		if len(old) == 0 {
			return nil, fmt.Errorf("hunk %d only inserts lines: without context its place cannot be checked", i+1)
		}
		at := h.OldStart - 1
		if !matchAt(lines, old, at) || at < next {
			found := -1
			for k := next; k+len(old) <= len(lines); k++ {
				if matchAt(lines, old, k) {
					if found >= 0 {
						return nil, fmt.Errorf("hunk %d: its old block occurs at lines %d and %d; a header is repaired only when the block is unique", i+1, found+1, k+1)
					}
					found = k
				}
			}
			if found < 0 {
				return nil, fmt.Errorf("hunk %d: its old block (%q…) is not in the file exactly", i+1, clip(old[0], 60))
			}
			at = found
		}
		h.OldStart = at + 1
		h.NewStart = at + 1 + shift
		shift += len(h.New()) - len(old)
		next = at + len(old)
		out[i] = h
	}
	return out, nil
}

// ApplyMoved is Apply, and when the hunks do not apply where their
// headers say (an earlier patch moved the lines, a model miscounted),
// Apply of what Repair makes of them. It returns the result, the hunks as
// applied and whether a header was moved.
func ApplyMoved(content string, hunks []Hunk) (string, []Hunk, bool, error) {
	next, err := Apply(content, hunks)
	if err == nil {
		return next, hunks, false, nil
	}
	repaired, rerr := Repair(content, hunks)
	if rerr != nil {
		return "", nil, false, fmt.Errorf("%w; %v", err, rerr)
	}
	if next, err = Apply(content, repaired); err != nil {
		return "", nil, false, err
	}
	return next, repaired, true, nil
}

func matchAt(lines, block []string, at int) bool {
	if at < 0 || at+len(block) > len(lines) {
		return false
	}
	for k, want := range block {
		if lines[at+k] != want {
			return false
		}
	}
	return true
}

// Format writes hunks as a unified diff of file with a/ and b/ headers.
func Format(file string, hunks []Hunk) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", file, file)
	for _, h := range hunks {
		old, nw := len(h.Old()), len(h.New())
		oldStart := h.OldStart
		if old == 0 {
			oldStart-- // "-3,0": after line 3
		}
		newStart := h.NewStart
		if nw == 0 {
			newStart--
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", span(oldStart, old), span(newStart, nw))
		lastOld, lastNew := -1, -1
		for i, l := range h.Lines {
			if l.Op != '+' {
				lastOld = i
			}
			if l.Op != '-' {
				lastNew = i
			}
		}
		for i, l := range h.Lines {
			b.WriteByte(l.Op)
			b.WriteString(l.Text)
			b.WriteByte('\n')
			switch {
			case i == lastOld && i == lastNew && h.OldNoEOL && h.NewNoEOL:
				b.WriteString("\\ No newline at end of file\n")
			case i == lastOld && h.OldNoEOL && l.Op == '-':
				b.WriteString("\\ No newline at end of file\n")
			case i == lastNew && h.NewNoEOL && l.Op == '+':
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	return b.String()
}

func span(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Recount rewrites each hunk header's counts from the lines that follow it
// (what a model miscounts most); false when no header changed.
func Recount(diff string) (string, bool) {
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	var out []string
	changed := false
	for i := 0; i < len(lines); i++ {
		m := hunkHeader.FindStringSubmatch(lines[i])
		if m == nil {
			out = append(out, lines[i])
			continue
		}
		old, nw := 0, 0
		j := i + 1
		for ; j < len(lines); j++ {
			l := lines[j]
			if hunkHeader.MatchString(l) || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "diff ") {
				break
			}
			switch {
			case l == "" || l[0] == ' ':
				old++
				nw++
			case l[0] == '-':
				old++
			case l[0] == '+':
				nw++
			}
		}
		// A trailing blank line after the last hunk is the reply's, not
		// a context line.
		for j == len(lines) && j > i+1 && lines[j-1] == "" {
			j--
			old--
			nw--
			lines = lines[:j]
		}
		oldStart, _ := strconv.Atoi(m[1])
		newStart, _ := strconv.Atoi(m[3])
		if old == 0 {
			oldStart = max(0, oldStart-1)
		}
		h := fmt.Sprintf("@@ -%d,%d +%d,%d @@%s", oldStart, old, newStart, nw, lines[i][len(m[0]):])
		if h != lines[i] {
			changed = true
		}
		out = append(out, h)
		out = append(out, lines[i+1:j]...)
		i = j - 1
	}
	return strings.Join(out, "\n") + "\n", changed
}

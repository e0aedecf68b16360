package unidiff

import (
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Make is the unified diff turning before into after, both the content of
// file, with context lines of context around each change ("" when they are
// equal). The line diff is go-diff's.
func Make(file, before, after string, context int) string {
	if before == after {
		return ""
	}
	return Format(file, Hunks(before, after, context))
}

// Hunks are the hunks turning before into after, with context lines of
// context around each change.
func Hunks(before, after string, context int) []Hunk {
	dmp := diffmatchpatch.New()
	a, b, table := dmp.DiffLinesToRunes(before, after)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), table)

	type op struct {
		Line
		eol bool // the line ends in a newline
	}
	var ops []op
	for _, d := range diffs {
		code := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			code = '-'
		case diffmatchpatch.DiffInsert:
			code = '+'
		}
		text := d.Text
		for text != "" {
			i := strings.IndexByte(text, '\n')
			if i < 0 {
				ops = append(ops, op{Line{code, text}, false})
				break
			}
			ops = append(ops, op{Line{code, text[:i]}, true})
			text = text[i+1:]
		}
	}
	var hunks []Hunk
	oldLine, newLine := 1, 1 // the numbers of ops[i] on each side
	oldAt := make([]int, len(ops))
	newAt := make([]int, len(ops))
	for i, o := range ops {
		oldAt[i], newAt[i] = oldLine, newLine
		if o.Op != '+' {
			oldLine++
		}
		if o.Op != '-' {
			newLine++
		}
	}
	for i := 0; i < len(ops); {
		if ops[i].Op == ' ' {
			i++
			continue
		}
		start := max(0, i-context)
		end := i // one past the last change in the hunk
		for j := i; j < len(ops); j++ {
			if ops[j].Op != ' ' {
				end = j + 1
				continue
			}
			if j-end >= 2*context {
				break
			}
		}
		stop := min(len(ops), end+context)
		h := Hunk{OldStart: oldAt[start], NewStart: newAt[start]}
		for _, o := range ops[start:stop] {
			h.Lines = append(h.Lines, o.Line)
			if !o.eol {
				if o.Op != '+' {
					h.OldNoEOL = true
				}
				if o.Op != '-' {
					h.NewNoEOL = true
				}
			}
		}
		hunks = append(hunks, h)
		i = stop
	}
	return hunks
}

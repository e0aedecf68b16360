package typescript

import (
	"context"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// LineRange is a range of whole lines (1-based, inclusive).
type LineRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Enclosing returns, for each line of the file's text, the lines of the
// smallest declaration holding it: the function, method, accessor or
// constructor (a function initialising a variable comes with its variable
// statement), else the statement or member, at most 150 lines. It is what
// the assisted fixer may send of a file. A line outside the text is an
// error.
func (a *Adapter) Enclosing(ctx context.Context, file, text string, lines []int) ([]LineRange, error) {
	var out struct {
		Ranges []struct {
			Line, Start, End int
		} `json:"ranges"`
	}
	params := map[string]any{"file": file, "text": text, "lines": lines}
	if err := a.call(ctx, "enclosing", params, file, &out); err != nil {
		return nil, err
	}
	if len(out.Ranges) != len(lines) {
		return nil, fmt.Errorf("%s: the driver answered %d scopes for %d lines", file, len(out.Ranges), len(lines))
	}
	ranges := make([]LineRange, len(lines))
	for i, r := range out.Ranges {
		if r.Start < 1 || r.End < r.Start {
			return nil, fmt.Errorf("%s: line %d is not in the file", file, lines[i])
		}
		ranges[i] = LineRange{Start: r.Start, End: r.End}
	}
	return ranges, nil
}

// SyntaxNode is one node of a parsed file: its kind (the compiler's
// SyntaxKind name, "CallExpression") and its byte range, from its first
// token (leading trivia excluded) to its end.
type SyntaxNode struct {
	Kind  string `json:"kind"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// Ancestors returns, for each byte offset of the file's text, the syntax
// nodes holding it, innermost first, as the compiler parses the file alone
// (no program, no types). An offset outside the text has none.
func (a *Adapter) Ancestors(ctx context.Context, file, text string, offsets []int) ([][]SyntaxNode, error) {
	// The driver counts UTF-16 code units; the transforms count bytes.
	units, err := byteToUTF16(text, offsets)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var out struct {
		Chains [][]SyntaxNode `json:"chains"`
	}
	params := map[string]any{"file": file, "text": text, "offsets": units}
	if err := a.call(ctx, "ancestors", params, file, &out); err != nil {
		return nil, err
	}
	if len(out.Chains) != len(offsets) {
		return nil, fmt.Errorf("%s: the driver answered %d chains for %d offsets", file, len(out.Chains), len(offsets))
	}
	for _, chain := range out.Chains {
		for i := range chain {
			chain[i].Start = byteOffset(text, chain[i].Start)
			chain[i].End = byteOffset(text, chain[i].End)
		}
	}
	return out.Chains, nil
}

// byteToUTF16 converts byte offsets of text to UTF-16 code unit offsets;
// an offset inside a character is an error, one outside the text -1.
func byteToUTF16(text string, offsets []int) ([]int, error) {
	out := make([]int, len(offsets))
	for i, o := range offsets {
		if o < 0 || o > len(text) {
			out[i] = -1
			continue
		}
		if !utf8.RuneStart(byteAtOr0(text, o)) {
			return nil, fmt.Errorf("offset %d is inside a character", o)
		}
		out[i] = len(utf16.Encode([]rune(text[:o])))
	}
	return out, nil
}

func byteAtOr0(text string, o int) byte {
	if o == len(text) {
		return 0
	}
	return text[o]
}

// byteOffset converts a UTF-16 code unit offset of text to a byte offset.
func byteOffset(text string, units int) int {
	n := 0
	for i, r := range text {
		if n >= units {
			return i
		}
		n += len(utf16.Encode([]rune{r}))
	}
	return len(text)
}

package typescript

import (
	"context"
	"fmt"
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

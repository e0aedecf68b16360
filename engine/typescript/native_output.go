package typescript

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/uptide/uptide/engine/model"
)

// nativeDiag is one diagnostic as `tsc --pretty false` prints it: the file
// as printed (relative to the process's directory, "" for a diagnostic
// without a location), 1-based line and column (UTF-16 code units), and the
// message with a chain's continuation lines joined by "\n", the way the
// driver flattens one.
type nativeDiag struct {
	File     string
	Line     int
	Column   int
	Category string
	Code     int
	Message  string
}

var (
	locatedLine = regexp.MustCompile(`^(.+?)\((\d+),(\d+)\): (error|warning|suggestion|message) TS(\d+): (.*)$`)
	globalLine  = regexp.MustCompile(`^(error|warning|suggestion|message) TS(\d+): (.*)$`)
)

// parseNativeOutput reads tsc's plain output. A line that starts neither a
// located nor a global diagnostic continues the previous one when it is
// indented (a message chain, "The file is in the program because:"); other
// lines (a summary, blank lines) are not diagnostics. A number too large to
// be a line or column is an error naming the output line.
func parseNativeOutput(out []byte) ([]nativeDiag, error) {
	var ds []nativeDiag
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if m := locatedLine.FindStringSubmatch(line); m != nil {
			l, errL := strconv.Atoi(m[2])
			c, errC := strconv.Atoi(m[3])
			code, errCode := strconv.Atoi(m[5])
			if errL != nil || errC != nil || errCode != nil {
				return nil, fmt.Errorf("tsc output line %d: a position or code out of range: %q", n, clip(line, 200))
			}
			ds = append(ds, nativeDiag{File: m[1], Line: l, Column: c, Category: m[4], Code: code, Message: m[6]})
			continue
		}
		if m := globalLine.FindStringSubmatch(line); m != nil {
			code, err := strconv.Atoi(m[2])
			if err != nil {
				return nil, fmt.Errorf("tsc output line %d: a code out of range: %q", n, clip(line, 200))
			}
			ds = append(ds, nativeDiag{Category: m[1], Code: code, Message: m[3]})
			continue
		}
		if len(ds) > 0 && strings.HasPrefix(line, " ") {
			ds[len(ds)-1].Message += "\n" + line
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tsc output line %d: %w", n+1, err)
	}
	return ds, nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// lineStarts are the UTF-16 offsets at which the lines of a source text
// start, with the compiler's line breaks (CR, LF, CRLF, U+2028, U+2029) and
// without a byte order mark, which the compiler does not count.
func lineStarts(text []byte) []int {
	text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
	starts := []int{0}
	pos := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		i += size
		if r >= 0x10000 {
			pos += 2
		} else {
			pos++
		}
		switch r {
		case '\r':
			if i < len(text) && text[i] == '\n' {
				i++
				pos++
			}
			starts = append(starts, pos)
		case '\n', '\u2028', '\u2029':
			starts = append(starts, pos)
		}
	}
	return starts
}

// offsetOf turns a 1-based line and UTF-16 column into the 0-based UTF-16
// offset the driver's diagnostics and usages carry (what the arbiter
// matches). A position outside the text is clamped to its line or its end.
func offsetOf(starts []int, line, column int) int {
	if len(starts) == 0 || line < 1 {
		return 0
	}
	if line > len(starts) {
		return starts[len(starts)-1]
	}
	if column < 1 {
		column = 1
	}
	off := starts[line-1] + column - 1
	if line < len(starts) && off >= starts[line] {
		off = starts[line] - 1
	}
	return off
}

// newOnlyDiags is the driver's newOnly (driver/compile.js): the overlay's
// diagnostics minus the baseline's, as multisets on file, code and message.
// Same-key diagnostics at an unchanged offset are matched first, so the
// ones reported are the ones that moved or appeared.
func newOnlyDiags(base, over []model.Diagnostic) []model.Diagnostic {
	type key struct {
		file    string
		code    int
		message string
	}
	left := map[key][]model.Diagnostic{}
	for _, d := range base {
		k := key{d.File, d.Code, d.Message}
		left[k] = append(left[k], d)
	}
	var unmatched []model.Diagnostic
	for _, d := range over {
		k := key{d.File, d.Code, d.Message}
		list := left[k]
		i := -1
		for j, b := range list {
			if b.Start == d.Start {
				i = j
				break
			}
		}
		if i >= 0 {
			left[k] = append(list[:i:i], list[i+1:]...)
			continue
		}
		unmatched = append(unmatched, d)
	}
	out := []model.Diagnostic{}
	for _, d := range unmatched {
		k := key{d.File, d.Code, d.Message}
		if list := left[k]; len(list) > 0 {
			left[k] = list[1:]
			continue
		}
		out = append(out, d)
	}
	sortDiagnostics(out)
	return out
}

// sortDiagnostics orders as the driver does: file, offset, code, message
// (model.CompareDiagnostics).
func sortDiagnostics(ds []model.Diagnostic) { slices.SortStableFunc(ds, model.CompareDiagnostics) }

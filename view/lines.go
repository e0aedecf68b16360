package view

import (
	"strconv"
	"strings"
)

// Tone is how a span is drawn. Each renderer maps it to its own colours
// (the CLI's palette, the planner's theme); the words are the same.
type Tone uint8

const (
	Plain Tone = iota
	Good
	Bad
	Warn
	Dim
	Strong
)

// Span is a piece of a line in one tone.
type Span struct {
	Text string
	Tone Tone
}

// Line is one line of a report: its spans, in order. Indentation is part
// of the first span's text, so every renderer lays it out the same way.
type Line []Span

// Text is the line without tones.
func (l Line) Text() string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.Text)
	}
	return b.String()
}

// Section is a titled block of a report: "Risk  medium", "Changes
// uptide/zod-4.0.0", then its lines. A section without a title goes on
// the block above it, with no blank line between.
type Section struct {
	Title string
	// Aside follows the title on its line.
	Aside Span
	Lines []Line
}

// plain is a line of one plain span.
func plain(s string) Line { return Line{{Text: s}} }

// indentMore indents the continuation lines of a multi-line message.
func indentMore(s, indent string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+indent)
}

// Count is "1 site", "3 sites".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

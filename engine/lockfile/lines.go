package lockfile

import (
	"bytes"
	"iter"
)

// yarnLine is a line of a yarn v1 lockfile: its number from 1, its text
// without the line break and the indentation, and how many spaces
// indent it.
type yarnLine struct {
	n      int
	text   []byte
	indent int
}

// yarnLines are the lines of a yarn v1 lockfile that say something (blank
// ones skipped), for both of its readers: the graph's and the list's.
func yarnLines(data []byte) iter.Seq[yarnLine] {
	return func(yield func(yarnLine) bool) {
		n := 0
		for off := 0; off < len(data); {
			end := bytes.IndexByte(data[off:], '\n')
			next := len(data)
			if end >= 0 {
				next = off + end + 1
			}
			raw := bytes.TrimRight(data[off:next], "\r\n")
			off = next
			n++
			text := bytes.TrimLeft(raw, " ")
			if len(bytes.TrimSpace(text)) == 0 {
				continue
			}
			if !yield(yarnLine{n, text, len(raw) - len(text)}) {
				return
			}
		}
	}
}

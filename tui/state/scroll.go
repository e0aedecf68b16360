package state

// Scrolled is the first visible line of a list of total lines shown n at
// a time: offset moved just enough that the cursor's line is in view, and
// never past the last full window.
func Scrolled(offset, cursor, n, total int) int {
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+n {
		offset = cursor - n + 1
	}
	return max(0, min(offset, total-n))
}

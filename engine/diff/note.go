package diff

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Notes are read in a terminal: a type written out in full can be tens of
// kilobytes (stripe's Stripe.Event.Type is a union of hundreds of string
// literals), and a note that repeats it twice says less than one that names
// what changed.
const (
	// noteTypeLimit is the length up to which "a → b" is printed whole.
	noteTypeLimit = 120
	// noteMembers is how many added or removed union members are named.
	noteMembers = 8
	// noteMemberLimit truncates one named member.
	noteMemberLimit = 60
)

// typeChangeText says how type a became type b: both in full when short;
// for a union, the members added and removed with the member counts; else
// both truncated. A type whose text did not change (the checker found a
// referenced declaration changed) is named once, not as "a → a".
func typeChangeText(a, b string) string {
	if a == b {
		return truncateText(a, noteTypeLimit) + " (a type it refers to changed)"
	}
	if utf8.RuneCountInString(a)+utf8.RuneCountInString(b) <= noteTypeLimit {
		return a + " → " + b
	}
	ma, errA := unionMembers(a)
	mb, errB := unionMembers(b)
	if errA == nil && errB == nil && (len(ma) > 1 || len(mb) > 1) {
		return unionChangeText(ma, mb)
	}
	half := noteTypeLimit / 2
	return truncateText(a, half) + " → " + truncateText(b, half)
}

// unionChangeText lists the members only one side has, in sorted order:
// "union: +'a' +'b' −'c' (42 → 43 members)".
func unionChangeText(ma, mb []string) string {
	inA := make(map[string]bool, len(ma))
	for _, m := range ma {
		inA[m] = true
	}
	inB := make(map[string]bool, len(mb))
	for _, m := range mb {
		inB[m] = true
	}
	var parts []string
	more := 0
	add := func(sign, m string) {
		if len(parts) >= noteMembers {
			more++
			return
		}
		parts = append(parts, sign+truncateText(m, noteMemberLimit))
	}
	for _, m := range mb {
		if !inA[m] {
			add("+", m)
		}
	}
	for _, m := range ma {
		if !inB[m] {
			add("−", m)
		}
	}
	var b strings.Builder
	b.WriteString("union:")
	for _, p := range parts {
		b.WriteByte(' ')
		b.WriteString(p)
	}
	if more > 0 {
		fmt.Fprintf(&b, " … %d more", more)
	}
	if len(parts) == 0 {
		// Same members, spelled differently only in order or spacing.
		b.WriteString(" members reordered")
	}
	fmt.Fprintf(&b, " (%d → %d members)", len(ma), len(mb))
	return b.String()
}

// truncateText cuts s to at most limit runes, marking the cut.
func truncateText(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit-1]) + "…"
}

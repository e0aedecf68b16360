package diff

import (
	"slices"
	"unicode"
)

// bigrams is a string's multiset of adjacent rune pairs, whitespace
// removed, sorted: Dice's coefficient as the string-similarity package
// computes it, which is the measure the specification's thresholds assume.
type bigrams struct {
	text  string
	pairs []uint64
}

func newBigrams(s string) bigrams {
	rs := make([]rune, 0, len(s))
	for _, r := range s {
		if !unicode.IsSpace(r) {
			rs = append(rs, r)
		}
	}
	b := bigrams{text: string(rs)}
	if len(rs) >= 2 {
		b.pairs = make([]uint64, 0, len(rs)-1)
		for i := 0; i+1 < len(rs); i++ {
			b.pairs = append(b.pairs, uint64(uint32(rs[i]))<<32|uint64(uint32(rs[i+1])))
		}
		slices.Sort(b.pairs)
	}
	return b
}

// dice is 2·|shared bigrams| / (|bigrams a| + |bigrams b|); 1 for equal
// strings, 0 when either has fewer than two characters.
func dice(a, b bigrams) float64 {
	if a.text == b.text {
		return 1
	}
	na, nb := len(a.pairs), len(b.pairs)
	if na == 0 || nb == 0 {
		return 0
	}
	shared := 0
	for i, j := 0, 0; i < na && j < nb; {
		switch {
		case a.pairs[i] == b.pairs[j]:
			shared++
			i++
			j++
		case a.pairs[i] < b.pairs[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(shared) / float64(na+nb)
}

// diceBound is the largest Dice coefficient two strings with these bigram
// counts can reach; candidates below a threshold are skipped unread.
func diceBound(a, b bigrams) float64 {
	na, nb := len(a.pairs), len(b.pairs)
	if a.text == b.text {
		return 1
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return 2 * float64(min(na, nb)) / float64(na+nb)
}

// jaccard of two sorted sets.
func jaccard(a, b []string) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	shared := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			shared++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(shared) / float64(len(a)+len(b)-shared)
}

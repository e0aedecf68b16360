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

// bigramIndex finds, for one string, every indexed string sharing a bigram
// with it and their Dice coefficient, without comparing against the ones
// that share none. Stripe-sized groups (thousands of renamed interfaces at
// once) would otherwise cost a full comparison per pair.
type bigramIndex struct {
	postings map[uint64][]posting
	sizes    []int
	scratch  []int32
	touched  []int
}

type posting struct {
	entry int32
	count int32
}

func newBigramIndex(entries []bigrams) *bigramIndex {
	ix := &bigramIndex{postings: map[uint64][]posting{}, sizes: make([]int, len(entries)), scratch: make([]int32, len(entries))}
	for i, e := range entries {
		ix.sizes[i] = len(e.pairs)
		forRuns(e.pairs, func(g uint64, n int) {
			ix.postings[g] = append(ix.postings[g], posting{entry: int32(i), count: int32(n)})
		})
	}
	return ix
}

// forRuns calls fn once per distinct bigram of sorted pairs with its count.
func forRuns(pairs []uint64, fn func(g uint64, n int)) {
	for i := 0; i < len(pairs); {
		j := i + 1
		for j < len(pairs) && pairs[j] == pairs[i] {
			j++
		}
		fn(pairs[i], j-i)
		i = j
	}
}

// each calls fn for every entry sharing at least one bigram with b, with
// the Dice coefficient of the two. The order is not meaningful; callers
// keep only strictly best candidates, which does not depend on it.
func (ix *bigramIndex) each(b bigrams, fn func(entry int, d float64)) {
	ix.touched = ix.touched[:0]
	forRuns(b.pairs, func(g uint64, n int) {
		for _, p := range ix.postings[g] {
			if ix.scratch[p.entry] == 0 {
				ix.touched = append(ix.touched, int(p.entry))
			}
			ix.scratch[p.entry] += int32(min(n, int(p.count)))
		}
	})
	for _, e := range ix.touched {
		shared := ix.scratch[e]
		ix.scratch[e] = 0
		fn(e, 2*float64(shared)/float64(len(b.pairs)+ix.sizes[e]))
	}
}

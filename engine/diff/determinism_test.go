package diff

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// allCaseSurfaces merges every rule case into one pair of surfaces, scoping
// each case under its own namespace so paths do not collide.
func allCaseSurfaces() (a, b *model.Surface, rels map[string]Relation) {
	var as, bs []model.Symbol
	rels = map[string]Relation{}
	for i, tc := range ruleCases {
		prefix := "c" + string(rune('A'+i/26)) + string(rune('a'+i%26)) + "."
		for _, s := range tc.a {
			s.Path = prefix + s.Path
			if len(s.Path) > 0 && s.Path[len(prefix)] == '"' {
				continue // scoped paths cannot be nested
			}
			as = append(as, s)
		}
		for _, s := range tc.b {
			s.Path = prefix + s.Path
			if s.Path[len(prefix)] == '"' {
				continue
			}
			bs = append(bs, s)
		}
		for p, r := range tc.rel {
			rels[prefix+p] = r
		}
	}
	return surface("1", as...), surface("2", bs...), rels
}

func TestDeterministicJSON(t *testing.T) {
	a, b, rels := allCaseSurfaces()
	first, err := json.Marshal(Diff(a, b, rels))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(first, []byte(`"path"`)) < len(ruleCases)/2 {
		t.Fatalf("the merged cases produced too few changes to test anything: %s", first)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20; i++ {
		sa := *a
		sb := *b
		sa.Symbols = append([]model.Symbol(nil), a.Symbols...)
		sb.Symbols = append([]model.Symbol(nil), b.Symbols...)
		rng.Shuffle(len(sa.Symbols), func(i, j int) { sa.Symbols[i], sa.Symbols[j] = sa.Symbols[j], sa.Symbols[i] })
		rng.Shuffle(len(sb.Symbols), func(i, j int) { sb.Symbols[i], sb.Symbols[j] = sb.Symbols[j], sb.Symbols[i] })
		again, err := json.Marshal(Diff(&sa, &sb, rels))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatalf("run %d with shuffled symbols gave different bytes:\n%s\n%s", i, first, again)
		}
	}
}

func TestSortIsCanonical(t *testing.T) {
	changes := []model.Change{
		{Path: "b", Kind: model.ChangeRemoved},
		{Path: "a#x", Kind: model.ChangeType, Rule: "type/changed"},
		{Path: "a", Kind: model.ChangeSignature},
		{Path: "a#x", Kind: model.ChangeRequired},
		{Path: "a#x", Kind: model.ChangeDeprecated},
	}
	Sort(changes)
	var got []string
	for _, c := range changes {
		got = append(got, c.Path+" "+string(c.Kind))
	}
	want := []string{"a signature", "a#x deprecated", "a#x required", "a#x type", "b removed"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("sorted = %v, want %v", got, want)
		}
	}
}

func TestDiffOfNothing(t *testing.T) {
	if got := Diff(nil, nil, nil); len(got) != 0 {
		t.Fatalf("got %+v", got)
	}
	s := surface("1", sym("a", fn, "(): void"))
	if got := Diff(s, s, nil); len(got) != 0 {
		t.Fatalf("a surface against itself: %+v", got)
	}
	if got := Diff(nil, s, nil); len(got) != 1 || got[0].Kind != model.ChangeAdded {
		t.Fatalf("from nothing: %+v", got)
	}
}

// The index reads a sorted surface's order off its symbols; a path listed
// twice (a function and its namespace) is one entry, as in any order.
func TestIndexOrderOfASortedSurface(t *testing.T) {
	syms := []model.Symbol{
		sym("a", fn, "(): void"), sym("a", ns, "namespace"), sym("a.b", prop, "string"),
		sym("a#c", meth, "(): void"), sym("b", iface, "interface"),
	}
	sorted := surface("1.0.0", syms...)
	sort.SliceStable(sorted.Symbols, func(i, j int) bool { return sorted.Symbols[i].Path < sorted.Symbols[j].Path })
	shuffled := surface("1.0.0", syms[4], syms[2], syms[0], syms[3], syms[1])
	got, want := newSurfaceIndex(sorted).sorted, newSurfaceIndex(shuffled).sorted
	if !slices.Equal(got, want) || len(got) != 4 {
		t.Fatalf("sorted surface's paths %q, shuffled surface's %q: want the same 4", got, want)
	}
}

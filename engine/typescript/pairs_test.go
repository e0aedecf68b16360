package typescript

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// pairsDir holds the synthetic package pairs shared with engine/diff.
var pairsDir = filepath.Join("..", "..", "fixtures", "pairs")

// expectedSurface is a snippet of what extraction must produce for one side
// of a pair: the listed symbols with the listed fields, and nothing at the
// absent paths.
type expectedSurface struct {
	Description   string            `json:"description"`
	NoTypes       bool              `json:"noTypes"`
	EntryPoints   []string          `json:"entryPoints"`
	Symbols       []json.RawMessage `json:"symbols"`
	Absent        []string          `json:"absent"`
	NotDeprecated []string          `json:"notDeprecated"`
}

func TestPairsSurfaces(t *testing.T) {
	cases, err := os.ReadDir(pairsDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("%d pair cases in %s, want at least 40", len(cases), pairsDir)
	}
	a := sharedAdapter(t)
	ctx := context.Background()
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		for _, side := range []string{"a", "b"} {
			expFile := filepath.Join(pairsDir, c.Name(), "expected-surface-"+side+".json")
			if _, err := os.Stat(expFile); err != nil {
				continue
			}
			t.Run(c.Name()+"/"+side, func(t *testing.T) {
				var exp expectedSurface
				b, err := os.ReadFile(expFile)
				if err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(b, &exp); err != nil {
					t.Fatalf("%s: %v", expFile, err)
				}
				dir := filepath.Join(pairsDir, c.Name(), side)
				s, err := a.ExtractSurface(ctx, dir, "pair-"+c.Name(), side+".0.0")
				if exp.NoTypes {
					var nt *NoTypesError
					if !errors.As(err, &nt) {
						t.Fatalf("want NoTypesError, got %v (surface %v)", err, s)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				checkInvariants(t, s)
				checkExpected(t, expFile, s, exp)
			})
		}
	}
}

func checkInvariants(t *testing.T, s *model.Surface) {
	t.Helper()
	if !sort.SliceIsSorted(s.Symbols, func(i, j int) bool { return s.Symbols[i].Path < s.Symbols[j].Path }) {
		t.Errorf("symbols are not sorted by path")
	}
	for _, sym := range s.Symbols {
		if len(sym.ExportedFrom) == 0 {
			t.Errorf("%s: no exportedFrom", sym.Path)
		}
		if sym.File == "" {
			t.Errorf("%s: no file", sym.Path)
		}
	}
}

func checkExpected(t *testing.T, file string, s *model.Surface, exp expectedSurface) {
	t.Helper()
	byPath := map[string]model.Symbol{}
	for _, sym := range s.Symbols {
		byPath[sym.Path] = sym
	}
	dump := func() {
		for _, sym := range s.Symbols {
			b, _ := json.Marshal(sym)
			t.Logf("  %s", b)
		}
	}
	failed := false
	if exp.EntryPoints != nil && !reflect.DeepEqual(exp.EntryPoints, s.EntryPoints) {
		t.Errorf("%s: entry points %q, want %q", file, s.EntryPoints, exp.EntryPoints)
		failed = true
	}
	for _, raw := range exp.Symbols {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var want struct {
			Path string `json:"path"`
		}
		_ = json.Unmarshal(raw, &want)
		got, ok := byPath[want.Path]
		if !ok {
			t.Errorf("%s: no symbol %s", file, want.Path)
			failed = true
			continue
		}
		gotJSON, _ := json.Marshal(got)
		var gotFields map[string]json.RawMessage
		_ = json.Unmarshal(gotJSON, &gotFields)
		for k, v := range fields {
			if !jsonEqual(v, gotFields[k]) {
				t.Errorf("%s: %s: %s is %s, want %s", file, want.Path, k, orNone(gotFields[k]), v)
				failed = true
			}
		}
	}
	for _, p := range exp.Absent {
		if _, ok := byPath[p]; ok {
			t.Errorf("%s: %s should not be in the surface", file, p)
			failed = true
		}
	}
	for _, p := range exp.NotDeprecated {
		if sym, ok := byPath[p]; !ok || sym.Deprecated != nil {
			t.Errorf("%s: %s should be present and not deprecated", file, p)
			failed = true
		}
	}
	if failed {
		dump()
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	if b == nil {
		return false
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func orNone(b json.RawMessage) string {
	if b == nil {
		return "absent"
	}
	return string(b)
}

package typescript

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func gobBytes(t testing.TB, s *model.Surface) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// copyDir copies a fixture so a test can change or delete it.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestSurfaceCache(t *testing.T) {
	compiler := pinnedCompiler(t)
	cacheRoot := t.TempDir()
	t.Setenv("UPTIDE_CACHE_DIR", cacheRoot)
	a := New(compiler, Options{})
	defer a.Close()
	ctx := context.Background()

	dir := copyDir(t, filepath.Join(pairsDir, "merged-class-namespace", "a"))
	first, err := a.ExtractSurface(ctx, dir, "@acme/stripe-like", "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := filepath.Glob(filepath.Join(cacheRoot, "surfaces", "typescript", "v"+strconv.Itoa(model.SurfaceSchemaVersion)+"."+strconv.Itoa(surfaceRevision), "@acme", "stripe-like", "1.2.3-*.gob"))
	if len(entries) != 1 {
		t.Fatalf("surface cache entries of @acme/stripe-like@1.2.3: %v, want one", entries)
	}
	file := entries[0]
	if first.Package != "@acme/stripe-like" || first.Version != "1.2.3" || first.Adapter != "typescript" || first.SchemaVersion != model.SurfaceSchemaVersion {
		t.Errorf("surface header %+v", first)
	}

	// The entry answers for the same files: what it holds comes back.
	marked := *first
	marked.EntryPoints = append([]string{"from-the-cache"}, first.EntryPoints...)
	if err := os.WriteFile(file, gobBytes(t, &marked), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := a.ExtractSurface(ctx, dir, "@acme/stripe-like", "1.2.3")
	if err != nil {
		t.Fatalf("cached surface: %v", err)
	}
	if !reflect.DeepEqual(&marked, second) {
		t.Error("the cache entry of the same files did not answer")
	}
	if err := os.WriteFile(file, gobBytes(t, first), 0o644); err != nil {
		t.Fatal(err)
	}

	// Other declarations under the same name and version (a mirror's
	// tarball, a local package rebuilt) are another entry, never the
	// first one's surface.
	decl := filepath.Join(dir, "index.d.ts")
	text, err := os.ReadFile(decl)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(decl, append(text, []byte("export declare function mirrored(): void;\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	other, err := a.ExtractSurface(ctx, dir, "@acme/stripe-like", "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	if !hasSymbol(other, "mirrored") || hasSymbol(first, "mirrored") {
		t.Errorf("the changed declarations' surface lacks mirrored(): %d symbols, the first had %d", len(other.Symbols), len(first.Symbols))
	}
	if err := os.WriteFile(decl, text, 0o644); err != nil {
		t.Fatal(err)
	}

	if _, err := surfaceCachePath("JSONStream", "1.3.5"); err != nil {
		t.Errorf("a legacy capitalized name is a valid cache key: %v", err)
	}

	// A damaged entry, or one from another schema, is a miss: the surface
	// is extracted again and the entry rewritten.
	stale := *first
	stale.SchemaVersion = 0
	for _, content := range [][]byte{[]byte("{broken"), gobBytes(t, &stale)} {
		if err := os.WriteFile(file, content, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := a.ExtractSurface(ctx, dir, "@acme/stripe-like", "1.2.3")
		if err != nil || !reflect.DeepEqual(got, first) {
			t.Errorf("cache entry %.30q was trusted (%v)", content, err)
		}
		if b, _ := os.ReadFile(file); !bytes.Equal(b, gobBytes(t, first)) {
			t.Errorf("cache entry %.30q was not rewritten", content)
		}
	}

	for _, bad := range [][2]string{{"../evil", "1.0.0"}, {"ok", "../1.0.0"}, {"@a/b/c", "1.0.0"}, {"", "1.0.0"}, {"..", "1.0.0"}, {"@a/..", "1.0.0"}, {"@a/.", "1.0.0"}, {"a", ""}} {
		if _, err := a.ExtractSurface(ctx, dir, bad[0], bad[1]); err == nil || !strings.Contains(err.Error(), "surface cache") {
			t.Errorf("ExtractSurface(%q, %q): %v, want a cache key error", bad[0], bad[1], err)
		}
	}
}

func hasSymbol(s *model.Surface, path string) bool {
	for _, sym := range s.Symbols {
		if sym.Path == path {
			return true
		}
	}
	return false
}

func TestExtractSurfaceErrors(t *testing.T) {
	a := sharedAdapter(t)
	ctx := context.Background()
	_, err := a.ExtractSurface(ctx, filepath.Join(pairsDir, "no-types", "a"), "pair-no-types", "1.0.0")
	var nt *NoTypesError
	if !errors.As(err, &nt) || nt.Package != "pair-no-types" || nt.Version != "1.0.0" {
		t.Fatalf("want NoTypesError naming the package, got %v", err)
	}
	missing := filepath.Join(t.TempDir(), "nowhere")
	if _, err := a.ExtractSurface(ctx, missing, "x", "1.0.0"); err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("a missing directory must be named, got %v", err)
	}
	noManifest := t.TempDir()
	if _, err := a.ExtractSurface(ctx, noManifest, "x", "1.0.0"); err == nil || !strings.Contains(err.Error(), "package.json") {
		t.Fatalf("a missing package.json must be named, got %v", err)
	}
}

// A driver killed under the adapter is started again for the next request.
func TestAdapterRestartsDriver(t *testing.T) {
	a := newAdapter(t)
	ctx := context.Background()
	dir := filepath.Join(pairsDir, "overloads", "a")
	if _, err := a.ExtractSurface(ctx, dir, "pair-overloads", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	a.mu.Lock()
	first := a.proc
	first.mu.Lock()
	first.broken = errors.New("killed by the test")
	first.mu.Unlock()
	first.kill()
	a.mu.Unlock()
	if _, err := a.ExtractSurface(ctx, dir, "pair-overloads", "1.0.0"); err != nil {
		t.Fatalf("after a driver crash: %v", err)
	}
	if a.proc == first {
		t.Error("the dead driver was reused")
	}
	version, err := a.CompilerVersion(ctx)
	if err != nil || version != PinnedVersion {
		t.Errorf("CompilerVersion = %q, %v", version, err)
	}
	a.Close()
	if _, err := a.ExtractSurface(ctx, dir, "pair-overloads", "1.0.0"); !errors.Is(err, errClosed) {
		t.Errorf("after Close: %v", err)
	}
}

// Equal inputs give identical bytes.
func TestSurfaceDeterministic(t *testing.T) {
	a := sharedAdapter(t)
	ctx := context.Background()
	dir := filepath.Join(pairsDir, "alias-reexport", "a")
	var last []byte
	for i := 0; i < 3; i++ {
		s, err := a.ExtractSurface(ctx, dir, "pair-alias-reexport", "1.0.0")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(s)
		if last != nil && string(b) != string(last) {
			t.Fatal("two extractions of one package differ")
		}
		last = b
	}
}

func TestCompareTypes(t *testing.T) {
	a := sharedAdapter(t)
	ctx := context.Background()
	rel := func(aToB, bToA bool) Relation { return Relation{AToB: aToB, BToA: bToA} }
	tests := []struct {
		pair string
		want map[string]Relation
		// params relates the first overload's parameters, when set.
		params map[string][]Relation
	}{
		{pair: "union-widened-parameter", want: map[string]Relation{"setMode": rel(false, true)},
			params: map[string][]Relation{"setMode": {rel(true, false)}}},
		{pair: "union-narrowed-return", want: map[string]Relation{"getMode": rel(false, true)}},
		{pair: "union-widened-callback-parameter", want: map[string]Relation{"Handlers#onChange": rel(false, true)},
			params: map[string][]Relation{"Handlers#onChange": {rel(true, false)}}},
		{pair: "union-widened-property", want: map[string]Relation{"Config#mode": rel(true, false), "Config": rel(true, false)}},
		{pair: "union-narrowed-property", want: map[string]Relation{"Config#mode": rel(false, true)}},
		{pair: "union-reordered", want: map[string]Relation{"Level": rel(true, true), "log": rel(true, true)}},
		{pair: "union-any-widened", want: map[string]Relation{"Meta#value": rel(true, false)}},
		{pair: "optional-to-required", want: map[string]Relation{"Options#timeout": rel(false, true), "Options": rel(false, true)}},
		{pair: "enum-members", want: map[string]Relation{"Flags.Write": rel(false, false)}},
		{pair: "anonymous-object-expansion", want: map[string]Relation{"Metadata#[string]": rel(true, true), "SubscriptionCreateParams#items[]#quantity": rel(true, true)}},
		// Both versions declare module 'pair-declare-module-own-name': each is renamed
		// privately so the two do not merge.
		{pair: "declare-module-own-name", want: map[string]Relation{"Lib.Options": rel(true, true), "Lib.Options#key": rel(true, true)}},
		{pair: "rename-hint", want: map[string]Relation{}},
	}
	for _, tt := range tests {
		t.Run(tt.pair, func(t *testing.T) {
			paths := []string{"not-a-path"}
			for p := range tt.want {
				paths = append(paths, p)
			}
			if tt.pair == "rename-hint" {
				paths = append(paths, "createConnection")
			}
			got, err := a.CompareTypes(ctx, filepath.Join(pairsDir, tt.pair, "a"), filepath.Join(pairsDir, tt.pair, "b"), paths)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Errorf("got %d relations %v, want %d", len(got), got, len(tt.want))
			}
			for p, w := range tt.want {
				g, ok := got[p]
				if !ok || g.AToB != w.AToB || g.BToA != w.BToA {
					t.Errorf("%s: got %+v (present %v), want %+v", p, g, ok, w)
				}
			}
			for p, w := range tt.params {
				g := got[p]
				if len(g.Overloads) == 0 || !reflect.DeepEqual(g.Overloads[0].Params, w) {
					t.Errorf("%s: overloads %+v, want first params %+v", p, g.Overloads, w)
				}
			}
		})
	}
}

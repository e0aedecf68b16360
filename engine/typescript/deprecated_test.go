package typescript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCompileDeprecatedKeys: the overlay names the object-literal keys
// whose property the target newly deprecates (the compiler itself reports
// no suggestion there), with the declaration's place in the target; a key
// deprecated before the upgrade already, and a literal no params type
// types, are not named. Each key says the named type it was typed by, the
// parameter's declared one where the contextual type is anonymous. The
// same on every supported compiler.
func TestCompileDeprecatedKeys(t *testing.T) {
	target, err := os.ReadFile(filepath.Join(fixturePkg("paramkit", "2.0.0"), "index.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	// The offset of name's declaration after the text marker.
	decl := func(marker, name string) int {
		m := strings.Index(string(target), marker)
		return m + strings.Index(string(target)[m:], name)
	}
	want := []string{
		fmt.Sprintf("src/use.ts:3:9 message write paramkit index.d.ts@%d in index.d.ts@%d This parameter is deprecated. Use `error` instead.",
			decl("interface CheckParams", "message?"), decl("export interface ", "CheckParams")),
		fmt.Sprintf("src/use.ts:5:9 onDone implement paramkit index.d.ts@%d in index.d.ts@%d Use onFinish.", decl("interface Hooks", "onDone?"), decl("export interface Hooks", "Hooks")),
		fmt.Sprintf("src/use.ts:6:9 onDone implement paramkit index.d.ts@%d in index.d.ts@%d Use onFinish.", decl("interface Hooks", "onDone?"), decl("export interface Hooks", "Hooks")),
		// An anonymous (mapped) params type is named by the parameter's
		// declared type.
		fmt.Sprintf("src/use.ts:8:13 message write paramkit index.d.ts@%d in index.d.ts@%d This parameter is deprecated. Use `error` instead.",
			decl("type Params<", "message?"), decl("export type LengthParams", "LengthParams")),
	}
	run := func(t *testing.T, a *Adapter, edit func(t *testing.T, repo string), names []string, want []string) {
		ctx := context.Background()
		repo := fixtureRepo(t, "deprecated", "paramkit@1.0.0")
		if edit != nil {
			edit(t, repo)
		}
		ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: repo, TempDir: t.TempDir(), Targets: linkedFixtures([]string{"paramkit@2.0.0"})})
		if err != nil {
			t.Fatal(err)
		}
		defer ov.Cleanup()
		r, err := a.Compile(ctx, CompileRequest{RepoRoot: repo, Workspace: repo, Overlay: ov, DeprecatedNames: names})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.New) != 0 || r.PreExisting != 0 {
			t.Errorf("new %v, %d pre-existing: the fixture compiles on both sides", diagLines(r.New), r.PreExisting)
		}
		got := []string{}
		for _, k := range r.DeprecatedKeys {
			got = append(got, fmt.Sprintf("%s:%d:%d %s %s %s %s@%d in %s@%d %s", k.File, k.Line, k.Column, k.Name, k.Access, k.Package, k.DeclFile, k.DeclPos, k.ContainerFile, k.ContainerPos, k.Message))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("deprecated keys\n got %q\nwant %q", got, want)
		}
	}
	names := []string{"message", "onDone", "legacy"}
	t.Run("pinned", func(t *testing.T) { run(t, sharedAdapter(t), nil, names, want) })
	// Only keys of the names the targets' surfaces deprecate are judged.
	t.Run("one name", func(t *testing.T) { run(t, sharedAdapter(t), nil, []string{"onDone"}, want[1:3]) })
	t.Run("no name", func(t *testing.T) { run(t, sharedAdapter(t), nil, nil, []string{}) })
	for _, v := range supportedVersions {
		t.Run(v, func(t *testing.T) {
			a := New(cachedCompiler(t, v), Options{NoSurfaceCache: true})
			t.Cleanup(func() { a.Close() })
			run(t, a, olderConfig(v), names, want)
		})
	}
}

package typescript

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// nativeTSCEnv names a native tsc (TypeScript 7's platform executable) the
// tests judge with. The registry copy a test may fetch is the pinned
// TypeScript 6, so the native compiler cannot come from there.
const nativeTSCEnv = "UPTIDE_NATIVE_TSC"

// nativeTSC is the native tsc under test, or skips: without one, the
// native judgment cannot run at all (the rest of this file's behaviour is
// covered by native_test.go).
func nativeTSC(t *testing.T) (exe, version string) {
	t.Helper()
	exe = os.Getenv(nativeTSCEnv)
	if exe == "" {
		t.Skipf("%s is not set: point it at a native tsc (node_modules/@typescript/typescript-%s-%s/lib/tsc of an install of typescript@7) to run the native judgment", nativeTSCEnv, runtime.GOOS, runtime.GOARCH)
	}
	out, err := exec.Command(exe, "--version").Output()
	if err != nil {
		t.Fatalf("%s=%s: %v", nativeTSCEnv, exe, err)
	}
	version = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "Version"))
	if version == "" || !strings.HasPrefix(version, "7") {
		t.Fatalf("%s=%s says %q: not a native TypeScript 7", nativeTSCEnv, exe, out)
	}
	return exe, version
}

// installNative lays out typescript@version in repo/node_modules the way
// npm installs TypeScript 7: the typescript package (no JavaScript API)
// and, beside it, its platform package, here the one exe belongs to.
func installNative(t *testing.T, repo, exe, version string) {
	t.Helper()
	platformPkg, exeName := nativePlatformPackage("typescript", runtime.GOOS, runtime.GOARCH)
	nm := filepath.Join(repo, "node_modules")
	tsDir := filepath.Join(nm, "typescript")
	if err := os.MkdirAll(tsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest, _ := json.Marshal(map[string]any{
		"name": "typescript", "version": version, "bin": map[string]string{"tsc": "./bin/tsc"},
		"optionalDependencies": map[string]string{platformPkg: version},
	})
	if err := os.WriteFile(filepath.Join(tsDir, "package.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(real) != exeName {
		t.Fatalf("%s is %s, not the platform package's %s", nativeTSCEnv, real, exeName)
	}
	at := filepath.Join(nm, filepath.FromSlash(platformPkg))
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		t.Fatal(err)
	}
	// The whole package: tsc reads the lib files next to it.
	if err := os.Symlink(filepath.Dir(filepath.Dir(real)), at); err != nil {
		t.Fatal(err)
	}
}

// TestCompileNative runs the compile fixtures twice, judged by the pinned
// compiler and by the native tsc of a repository installing TypeScript 7,
// and requires the same verdicts: what is new, what was there before, what
// was covered.
func TestCompileNative(t *testing.T) {
	exe, version := nativeTSC(t)
	pinnedAd := sharedAdapter(t)
	ctx := context.Background()
	tests := []struct {
		name      string
		repo      string
		workspace string
		installed []string
		extra     map[string]string
		targets   []string
		baseline  []string
		registry  []string
		files     []string

		// wantNew, when set, is checked too (the verdicts must also be
		// the ones TestCompile pins).
		wantNew        []string
		overlaySkipped string
		newer          bool
		// deprecatedKeys is how many keys of deprecatedNames the target
		// newly deprecates.
		deprecatedNames []string
		deprecatedKeys  int
	}{
		{
			name: "removed parameter and property; a dependency fetched in a round",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			targets: []string{"fakepkg@2.0.0"}, registry: []string{"helper@1.0.0", "helper@2.0.0"},
			wantNew: []string{
				"src/legacy.js:4 TS2554", "src/preexisting.ts:6 TS2554", "src/preexisting.ts:6 TS2554",
				"src/use.ts:4 TS2554", "src/use.ts:7 TS2353", "src/use.ts:9 TS2322",
			},
		},
		{
			name: "nothing can fetch the dependency",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			targets: []string{"fakepkg@2.0.0"},
		},
		{
			name: "the consumer's copy serves the target's dependency",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@2.0.0"},
			targets: []string{"fakepkg@2.0.0"}, registry: []string{},
		},
		{
			name: "scoped, with files outside the tsconfig and missing",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			extra:   map[string]string{"scripts/tool.ts": "import { greet } from 'fakepkg';\ngreet('a', 'b');\n"},
			targets: []string{"fakepkg@2.0.0"}, files: []string{"src/use.ts", "scripts/tool.ts", "src/gone.ts"},
			wantNew: []string{"src/use.ts:4 TS2554", "src/use.ts:7 TS2353"},
		},
		{
			name: "baseline alone",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
		},
		{
			name: "invalid tsconfig", repo: "broken", installed: []string{"fakepkg@1.0.0"},
			targets: []string{"fakepkg@2.0.0"}, files: []string{"src/use.ts"}, overlaySkipped: "invalid tsconfig",
		},
		{
			name: "structurally broken baseline", repo: "basic", targets: []string{"fakepkg@2.0.0"},
			overlaySkipped: "structurally broken",
		},
		{
			name: "declarations the compiler cannot parse",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			targets: []string{"fakepkg@3.0.0"}, newer: true,
		},
		{
			name: "types via @types", repo: "typed", installed: []string{"legacy-lib@1.0.0", "@types/legacy-lib@1.0.0"},
			targets: []string{"@types/legacy-lib@2.0.0"}, wantNew: []string{"src/run.ts:3 TS2554"},
		},
		{
			name: "a baseline overlay", repo: "basic", installed: []string{"fakepkg@2.0.0", "helper@2.0.0"},
			baseline: []string{"fakepkg@1.0.0"}, targets: []string{"fakepkg@2.0.0"},
		},
		{
			name: "project references", repo: "refs", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			targets: []string{"fakepkg@2.0.0"},
			wantNew: []string{"packages/app/src/use.ts:4 TS2554", "packages/app/src/use.ts:7 TS2353"},
		},
		{
			// Every kind of root the tracer finds, on the native verdicts.
			name: "roots traced", repo: "causes",
			installed: []string{"reactish@1.0.0", "refkit@1.0.0", "matchkit@1.0.0", "rowkit@1.0.0", "errkit@1.0.0", "globkit@1.0.0"},
			targets:   []string{"reactish@2.0.0", "refkit@2.0.0", "matchkit@2.0.0", "rowkit@2.0.0", "errkit@2.0.0", "globkit@2.0.0"},
		},
		{
			name: "props typed with a package's type", repo: "causes-props",
			installed: []string{"reactish@1.0.0", "refkit@1.0.0"}, targets: []string{"refkit@2.0.0"},
		},
		{
			// No tsc reports them: the driver's overlay names them for the
			// native judgment too.
			name: "deprecated keys", repo: "deprecated", installed: []string{"paramkit@1.0.0"}, targets: []string{"paramkit@2.0.0"},
			deprecatedNames: []string{"message", "onDone"}, deprecatedKeys: 4,
		},
		{
			name: "the options of the tsconfig above", repo: "monorepo", workspace: "packages/app",
			installed: []string{"fakepkg@1.0.0", "helper@1.0.0"}, targets: []string{"fakepkg@2.0.0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := func(native bool) *CompileResult {
				repo := fixtureRepo(t, tt.repo, tt.installed...)
				for f, text := range tt.extra {
					p := filepath.Join(repo, filepath.FromSlash(f))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				ad := pinnedAd
				if native {
					installNative(t, repo, exe, version)
					c, err := ResolveCompiler(ctx, repo, registryFetch, nil)
					if err != nil {
						t.Fatal(err)
					}
					if c.RepoNative != version {
						t.Fatalf("ResolveCompiler: RepoNative %q, want %q", c.RepoNative, version)
					}
					ad = New(c, Options{NoSurfaceCache: true})
					t.Cleanup(func() { ad.Close() })
				}
				ws := repo
				if tt.workspace != "" {
					ws = filepath.Join(repo, filepath.FromSlash(tt.workspace))
				}
				req := CompileRequest{RepoRoot: repo, Workspace: ws, Files: tt.files, DeprecatedNames: tt.deprecatedNames}
				if tt.baseline != nil {
					ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: ws, TempDir: t.TempDir(), Targets: linkedFixtures(tt.baseline)})
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { ov.Cleanup() })
					req.Baseline = ov
				}
				if tt.targets != nil {
					oreq := OverlayRequest{Workspace: ws, TempDir: t.TempDir(), Targets: linkedFixtures(tt.targets)}
					if tt.registry != nil {
						oreq.Fetch = newFakeRegistry(tt.registry...).fetch
					}
					ov, err := BuildOverlay(ctx, oreq)
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { ov.Cleanup() })
					req.Overlay = ov
				}
				r, err := ad.Compile(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			want, got := run(false), run(true)
			if got.Compiler != "the repo's TypeScript "+version || got.TypeScript != version {
				t.Errorf("judged by %q (%s), want the repo's TypeScript %s", got.Compiler, got.TypeScript, version)
			}
			if g, w := diagLines(got.New), diagLines(want.New); !reflect.DeepEqual(g, w) {
				t.Errorf("new diagnostics\nnative %q\npinned %q", g, w)
			}
			if tt.wantNew != nil && !reflect.DeepEqual(diagLines(got.New), tt.wantNew) {
				t.Errorf("new diagnostics %q, want %q", diagLines(got.New), tt.wantNew)
			}
			for i := range got.New {
				if i >= len(want.New) {
					break
				}
				g, w := got.New[i], want.New[i]
				if g.Start != w.Start || g.Length != w.Length {
					t.Errorf("%s: span %d+%d, the driver's %d+%d", diagLines(got.New[i:i+1]), g.Start, g.Length, w.Start, w.Length)
				}
				if rootSummary(g.Root) != rootSummary(w.Root) {
					t.Errorf("%s: root %s, the driver's %s", diagLines(got.New[i:i+1]), rootSummary(g.Root), rootSummary(w.Root))
				}
			}
			if got.PreExisting != want.PreExisting {
				t.Errorf("pre-existing %d, pinned %d", got.PreExisting, want.PreExisting)
			}
			if got.Coverage.Asked != want.Coverage.Asked || got.Coverage.Compiled != want.Coverage.Compiled || len(got.Coverage.Skipped) != len(want.Coverage.Skipped) {
				t.Errorf("coverage %+v, pinned %+v", got.Coverage, want.Coverage)
			}
			if !strings.Contains(got.OverlaySkipped, tt.overlaySkipped) || (got.OverlaySkipped == "") != (tt.overlaySkipped == "") {
				t.Errorf("overlay skipped %q, want %q", got.OverlaySkipped, tt.overlaySkipped)
			}
			if (got.NewerTypeScript != nil) != tt.newer {
				t.Errorf("newer TypeScript %v, want %v", got.NewerTypeScript, tt.newer)
			}
			if fmt.Sprint(got.DeprecatedKeys) != fmt.Sprint(want.DeprecatedKeys) && len(got.DeprecatedKeys)+len(want.DeprecatedKeys) > 0 {
				t.Errorf("deprecated keys %+v, pinned %+v", got.DeprecatedKeys, want.DeprecatedKeys)
			}
			if len(got.DeprecatedKeys) != tt.deprecatedKeys {
				t.Errorf("%d deprecated keys, want %d", len(got.DeprecatedKeys), tt.deprecatedKeys)
			}
			// The driver finds a structurally broken baseline before any
			// dependency round; the native judge's tsc after them.
			if len(got.UnresolvedInTarget) != len(want.UnresolvedInTarget) || (got.Rounds != want.Rounds && want.OverlaySkipped == "") {
				t.Errorf("unresolved %v in %d rounds, pinned %v in %d", got.UnresolvedInTarget, got.Rounds, want.UnresolvedInTarget, want.Rounds)
			}
		})
	}
}

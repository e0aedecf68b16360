package typescript

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/uptide/uptide/internal/testkit/tsctruth"
)

// olderConfig rewrites the repository's tsconfigs for a compiler that
// lacks what they ask for: moduleResolution "bundler" (5.0) becomes "node",
// which resolves the fixtures' packages (types fields, no exports maps) the
// same way; target "es2022" (4.6) becomes "es2021". nil when nothing needs it.
func olderConfig(version string) func(t *testing.T, repo string) {
	var rewrites []string
	if !versionAtLeast(version, 5, 0) {
		rewrites = append(rewrites, `"bundler"`, `"node"`)
	}
	if !versionAtLeast(version, 5, 4) {
		// module preserve: what it implies for these fixtures (require()
		// and import = as CommonJS, default imports of export =).
		rewrites = append(rewrites, `"module": "preserve"`, `"module": "commonjs", "moduleResolution": "node", "esModuleInterop": true`)
	}
	if !versionAtLeast(version, 4, 6) {
		rewrites = append(rewrites, `"es2022"`, `"es2021"`)
	}
	if len(rewrites) == 0 {
		return nil
	}
	r := strings.NewReplacer(rewrites...)
	return func(t *testing.T, repo string) {
		err := filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasPrefix(d.Name(), "tsconfig") || !strings.HasSuffix(d.Name(), ".json") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, []byte(r.Replace(string(b))), 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func versionAtLeast(version string, major, minor int) bool {
	parts := strings.SplitN(version, ".", 3)
	ma, _ := strconv.Atoi(parts[0])
	mi := 0
	if len(parts) > 1 {
		mi, _ = strconv.Atoi(parts[1])
	}
	return ma > major || (ma == major && mi >= minor)
}

// olderCodes is what an older compiler says instead: before 5.4 (of the
// versions tested) an excess property in an argument is TS2345, the
// argument's error, with TS2353 only in its chain.
func olderCodes(version string, want []string) []string {
	if versionAtLeast(version, 5, 4) {
		return want
	}
	out := make([]string, len(want))
	for i, w := range want {
		out[i] = strings.Replace(w, " TS2353", " TS2345", 1)
	}
	return out
}

// Signal B on every supported compiler: the same cases, the same answers,
// and the same pre-existing errors as that compiler's own tsc.
func TestCompileEveryTypeScript(t *testing.T) {
	pick := map[string]bool{
		"removed parameter and property; the target's dependency fetched at its range": true,
		"same through TypeScript 4.x's resolver hooks":                                 true,
		"scoped to the usage files":                                                    true,
		"files that declare globals are in every scoped program":                       true,
		"invalid tsconfig: overlay skipped, and said so":                               true,
		"an extends cycle: overlay skipped, the cycle named":                           true,
		"declarations the compiler cannot parse are the finding":                       true,
		"skipLibCheck off: an error in the target's declarations is the build's":       true,
		"project references one level down, each with its own options":                 true,
	}
	var cases []compileCase
	for _, tt := range compileCases() {
		if pick[tt.name] {
			cases = append(cases, tt)
			delete(pick, tt.name)
		}
	}
	if len(pick) != 0 {
		t.Fatalf("no TestCompile case named %v", pick)
	}
	for _, v := range supportedVersions {
		t.Run(v, func(t *testing.T) {
			a := New(cachedCompiler(t, v), Options{NoSurfaceCache: true})
			t.Cleanup(func() { a.Close() })
			for _, tt := range cases {
				tt.wantNew = olderCodes(v, tt.wantNew)
				t.Run(tt.name, func(t *testing.T) { runCompileCase(t, a, tt, olderConfig(v)) })
			}
		})
	}
}

// A target whose declarations use syntax newer than the repository's
// compiler (a const type parameter, TypeScript 5.0) gives what that
// compiler's tsc gives after the upgrade: its parse errors in the target's
// declarations and nothing else before 5.0, no new error from 5.0 on.
func TestCompileNewerSyntaxEveryTypeScript(t *testing.T) {
	ctx := context.Background()
	for _, v := range supportedVersions {
		t.Run(v, func(t *testing.T) {
			c := cachedCompiler(t, v)
			a := New(c, Options{NoSurfaceCache: true})
			defer a.Close()
			edit := olderConfig(v)
			repo := fixtureRepo(t, "basic", "fakepkg@1.0.0", "helper@1.0.0")
			upgraded := fixtureRepo(t, "basic", "fakepkg@4.0.0", "helper@1.0.0")
			if edit != nil {
				edit(t, repo)
				edit(t, upgraded)
			}
			ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: repo, TempDir: t.TempDir(), Targets: linkedFixtures([]string{"fakepkg@4.0.0"})})
			if err != nil {
				t.Fatal(err)
			}
			defer ov.Cleanup()
			r, err := a.Compile(ctx, CompileRequest{RepoRoot: repo, Overlay: ov})
			if err != nil {
				t.Fatal(err)
			}
			// tsc stops at syntax errors: it prints those alone.
			after, err := tsctruth.Errors(ctx, c.ScriptPath(), filepath.Join(upgraded, "tsconfig.json"), upgraded)
			if err != nil {
				t.Fatal(err)
			}
			var syntax, truthNew []string
			for _, e := range after {
				if strings.HasPrefix(e.File, "node_modules/") && e.Code < 2000 {
					syntax = append(syntax, e.String())
				}
			}
			sort.Strings(syntax)
			if len(syntax) == 0 {
				before := tscPreExisting(t, c, repo, repo, nil)
				truthNew = multisetMinus(tscPreExisting(t, c, upgraded, upgraded, nil), before)
			}
			if got := diagLines(r.NewerTypeScript); !reflect.DeepEqual(nonNil(got), nonNil(syntax)) {
				t.Errorf("newer-TypeScript evidence %q, tsc after the upgrade says %q", got, syntax)
			}
			if got := diagLines(r.New); !reflect.DeepEqual(nonNil(got), nonNil(truthNew)) {
				t.Errorf("new errors %q, tsc after the upgrade adds %q", got, truthNew)
			}
			if (len(syntax) > 0) != !versionAtLeast(v, 5, 0) {
				t.Errorf("TypeScript %s: %d syntax errors for a const type parameter", v, len(syntax))
			}
			if want := "the bundled TypeScript " + v; r.Compiler != want {
				t.Errorf("judged by %q, want %q", r.Compiler, want)
			}
		})
	}
}

// multisetMinus is a without one occurrence of each line of b.
func multisetMinus(a, b []string) []string {
	left := map[string]int{}
	for _, x := range b {
		left[x]++
	}
	out := []string{}
	for _, x := range a {
		if left[x] > 0 {
			left[x]--
			continue
		}
		out = append(out, x)
	}
	return out
}

// A tsconfig option value the repository's compiler rejects (bundler
// resolution on 4.9) makes the compile and the usage scan not analyzed,
// with a reason naming the tsconfig: tsc would fall back to another
// resolution and judge a different program.
func TestRejectedOptionNamesTheTSConfig(t *testing.T) {
	ctx := context.Background()
	a := New(cachedCompiler(t, "4.9.5"), Options{NoSurfaceCache: true})
	defer a.Close()
	repo := fixtureRepo(t, "basic", "fakepkg@1.0.0", "helper@1.0.0")
	ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: repo, TempDir: t.TempDir(), Targets: linkedFixtures([]string{"fakepkg@2.0.0"})})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Cleanup()
	r, err := a.Compile(ctx, CompileRequest{RepoRoot: repo, Overlay: ov})
	if err != nil {
		t.Fatal(err)
	}
	tsconfig := filepath.Join(repo, "tsconfig.json")
	// The compile names it from the repository's root, as every path it gives.
	for _, want := range []string{"invalid tsconfig tsconfig.json:7:", "TypeScript 4.9.5", "--moduleResolution"} {
		if !strings.Contains(r.OverlaySkipped, want) {
			t.Errorf("overlay skipped %q, want it to say %q", r.OverlaySkipped, want)
		}
	}
	if len(r.New) != 0 || r.Coverage.Compiled != 0 {
		t.Errorf("a program under the wrong resolution was judged: %d new, %d compiled", len(r.New), r.Coverage.Compiled)
	}
	_, err = a.FindUsages(ctx, UsageRequest{RepoRoot: repo, Package: "fakepkg"})
	var de *DriverError
	if !errors.As(err, &de) || de.Code != "BAD_CONFIG" || !strings.Contains(de.Message, tsconfig) || !strings.Contains(de.Message, "--moduleResolution") {
		t.Errorf("usages: want BAD_CONFIG naming %s and the option, got %v", tsconfig, err)
	}
}

// Signal A on every supported compiler: the same usages as the pinned one
// reads (the position map from the installed surface included).
func TestFindUsagesEveryTypeScript(t *testing.T) {
	pick := map[string]bool{
		"typescript imports, members, types and literals":                    true,
		"javascript and require":                                             true,
		"a barrel re-exporting the package":                                  true,
		"JSX props through the component's contextual type":                  true,
		"export = through import =, a default import and an untyped require": true,
		"globals an @types package declares, used without an import":         true,
		"options from the tsconfig above, files from the workspace":          true,
	}
	var cases []usageCase
	for _, tt := range usageCases() {
		if pick[tt.name] {
			cases = append(cases, tt)
			delete(pick, tt.name)
		}
	}
	if len(pick) != 0 {
		t.Fatalf("no TestFindUsages case named %v", pick)
	}
	for _, v := range supportedVersions {
		t.Run(v, func(t *testing.T) {
			a := New(cachedCompiler(t, v), Options{NoSurfaceCache: true})
			t.Cleanup(func() { a.Close() })
			for _, tt := range cases {
				t.Run(tt.name, func(t *testing.T) { runUsageCase(t, a, tt, olderConfig(v)) })
			}
		})
	}
}

// A TypeScript older than the driver loads (4.4) still judges, through its
// own tsc on generated tsconfigs (the pinned compiler scopes): the same
// verdicts as its tsc after the upgrade. A target 4.4 cannot parse (a const
// type parameter) is its parse errors inside the target and nothing else;
// one it reads is judged by the new errors, resolved as 4.4 resolves it.
// olderInstall fetches typescript@version once and gives what installs
// it in a fixture repository, its tsconfig rewritten for that version.
func olderInstall(t *testing.T, version string) func(t *testing.T, repo string) {
	t.Helper()
	tsc, err := FetchTSC(context.Background(), registryFetch, nil, version)
	if err != nil {
		t.Fatalf("typescript@%s: %v", version, err)
	}
	return func(t *testing.T, repo string) {
		t.Helper()
		if err := copyPackage(tsc.Dir, filepath.Join(repo, "node_modules", "typescript")); err != nil {
			t.Fatal(err)
		}
		olderConfig(version)(t, repo)
	}
}

// olderAdapter is the adapter of repo, whose installed TypeScript (version)
// the driver cannot load: the pinned compiler stands in, the repo's tsc
// judges.
func olderAdapter(t *testing.T, repo, version string) *Adapter {
	t.Helper()
	c, err := ResolveCompiler(context.Background(), repo, registryFetch, nil)
	if err != nil || c.RepoTooOld != version {
		t.Fatalf("resolved %+v, %v: want the pinned compiler standing in for %s", c, err, version)
	}
	a := New(c, Options{NoSurfaceCache: true})
	t.Cleanup(func() { a.Close() })
	return a
}

func TestCompileTypeScriptOlderThanTheDriver(t *testing.T) {
	requireNode(t)
	ctx := context.Background()
	const version = "4.4.4"
	install := olderInstall(t, version)
	for _, tt := range []struct {
		target string
		newer  bool
	}{
		{"fakepkg@4.0.0", true},
		{"fakepkg@2.0.0", false},
		// types names index.d.cts, which 4.4 cannot read: its tsc falls
		// back to index.d.ts, and so must the overlay (not to the
		// installed 1.0.0).
		{"fakepkg@5.0.0", false},
	} {
		t.Run(tt.target, func(t *testing.T) {
			repo := fixtureRepo(t, "basic", "fakepkg@1.0.0", "helper@1.0.0")
			upgraded := fixtureRepo(t, "basic", tt.target, "helper@1.0.0")
			install(t, repo)
			install(t, upgraded)
			a := olderAdapter(t, repo, version)
			ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: repo, TempDir: t.TempDir(), Targets: linkedFixtures([]string{tt.target}),
				Fetch: newFakeRegistry("helper@1.0.0").fetch})
			if err != nil {
				t.Fatal(err)
			}
			defer ov.Cleanup()
			r, err := a.Compile(ctx, CompileRequest{RepoRoot: repo, Overlay: ov})
			if err != nil {
				t.Fatal(err)
			}
			if want := "the repo's TypeScript " + version; r.Compiler != want || r.TypeScript != version {
				t.Errorf("judged by %q (%s), want %q", r.Compiler, r.TypeScript, want)
			}
			script := filepath.Join(repo, "node_modules", "typescript", "lib", "typescript.js")
			after, err := tsctruth.Errors(ctx, script, filepath.Join(upgraded, "tsconfig.json"), upgraded)
			if err != nil {
				t.Fatal(err)
			}
			var syntax []string
			for _, e := range after {
				if strings.HasPrefix(e.File, "node_modules/") && e.Code < 2000 {
					syntax = append(syntax, e.String())
				}
			}
			sort.Strings(syntax)
			if (len(syntax) > 0) != tt.newer {
				t.Fatalf("tsc %s after the upgrade: %d syntax errors in the target", version, len(syntax))
			}
			if got := diagLines(r.NewerTypeScript); !reflect.DeepEqual(nonNil(got), nonNil(syntax)) {
				t.Errorf("newer-TypeScript evidence %q, tsc after the upgrade says %q", got, syntax)
			}
			truthNew := []string{}
			if !tt.newer {
				truthNew = multisetMinus(tscPreExisting(t, &Compiler{Dir: filepath.Join(repo, "node_modules", "typescript")}, upgraded, upgraded, nil),
					tscPreExisting(t, &Compiler{Dir: filepath.Join(repo, "node_modules", "typescript")}, repo, repo, nil))
				if len(truthNew) == 0 {
					t.Fatal("the target breaks nothing under tsc: the case proves nothing")
				}
			}
			// JavaScript is judged as the driver judges it (checked on
			// both sides, TestCompile's legacy.js), which a plain tsc -p
			// with checkJs off does not.
			var got []string
			for _, l := range diagLines(r.New) {
				if !strings.HasPrefix(l, "src/legacy.js:") {
					got = append(got, l)
				}
			}
			if !reflect.DeepEqual(nonNil(got), nonNil(truthNew)) {
				t.Errorf("new errors %q, tsc after the upgrade adds %q", got, truthNew)
			}
		})
	}
}

// A repository whose dependencies are not installed, judged by a tsc the
// driver cannot load: that tsc's baseline finds most files unable to
// resolve their imports, and the overlay is not judged, as the driver
// skips it (the driver's dependency rounds no longer compile a baseline).
func TestOlderTypeScriptFindsAStructurallyBrokenBaseline(t *testing.T) {
	requireNode(t)
	ctx := context.Background()
	const version = "4.4.4"
	repo := fixtureRepo(t, "basic")
	olderInstall(t, version)(t, repo)
	a := olderAdapter(t, repo, version)
	ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: repo, TempDir: t.TempDir(), Targets: linkedFixtures([]string{"fakepkg@2.0.0"})})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Cleanup()
	r, err := a.Compile(ctx, CompileRequest{RepoRoot: repo, Overlay: ov})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.OverlaySkipped, "the baseline is structurally broken") || len(r.New) != 0 || r.Coverage.Compiled != 0 ||
		len(r.Coverage.Skipped) == 0 || len(r.UnresolvedInTarget) != 0 {
		t.Fatalf("overlay skipped %q, %d new, coverage %+v, unresolved %v: want it skipped as structurally broken, nothing judged",
			r.OverlaySkipped, len(r.New), r.Coverage, r.UnresolvedInTarget)
	}
	if r.Compiler != "the repo's TypeScript "+version {
		t.Errorf("judged by %q, want the repo's TypeScript %s", r.Compiler, version)
	}
}

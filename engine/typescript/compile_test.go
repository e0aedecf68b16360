package typescript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/testkit/tsctruth"
)

// fixtureRepo copies testdata/compile/<name> and installs the packages
// (name@version) into its node_modules, as the package manager would.
func fixtureRepo(t *testing.T, name string, installed ...string) string {
	t.Helper()
	dir := copyDir(t, filepath.Join(compileFixtures, name))
	for _, p := range installed {
		n, v := splitSpec(p)
		installPkg(t, dir, n, v)
	}
	return dir
}

// splitSpec splits "name@version", scoped names included.
func splitSpec(p string) (string, string) {
	i := strings.LastIndex(p, "@")
	if i <= 0 {
		return p, ""
	}
	return p[:i], p[i+1:]
}

// tscPreExisting are the errors the compiler's own tsc -p reports in the
// files asked (every file of the repository when files is nil), as
// "file:line TScode", sorted.
func tscPreExisting(t *testing.T, c *Compiler, ws, repo string, files []string) []string {
	t.Helper()
	errs, err := tsctruth.Errors(context.Background(), c.ScriptPath(), filepath.Join(ws, "tsconfig.json"), repo)
	if err != nil {
		t.Fatal(err)
	}
	if files != nil {
		errs = tsctruth.In(errs, files)
	}
	out := []string{}
	for _, e := range errs {
		if !strings.HasPrefix(e.File, "node_modules/") {
			out = append(out, e.String())
		}
	}
	sort.Strings(out)
	return out
}

func truthLines(ds []model.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, tsctruth.Error{File: d.File, Line: d.Line, Code: d.Code}.String())
	}
	sort.Strings(out)
	return out
}

// diagLines are "file:line TScode", sorted: what the tests pin down.
func diagLines(ds []model.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s:%d TS%d", d.File, d.Line, d.Code))
	}
	sort.Strings(out)
	return out
}

// compileCase is one Signal B case: a fixture repository, what it installs,
// the targets, and what the compile must report.
type compileCase struct {
	name      string
	repo      string
	workspace string
	installed []string
	extra     map[string]string // files written into the repository
	targets   []string          // name@version; none compiles the baseline alone
	baseline  []string          // name@version the baseline resolves instead of the installed copies
	registry  []string          // nil: no fetch function
	files     []string          // nil: every file the tsconfig lists
	legacy    bool

	wantNew        []string
	preExisting    int
	asked          int
	compiled       int
	skipped        []string // "file: reason fragment"
	overlaySkipped string
	unresolved     []string
	fetched        []string
	rounds         int
	newer          []string
	configKind     string
}

func TestCompile(t *testing.T) {
	a := sharedAdapter(t)
	for _, tt := range compileCases() {
		t.Run(tt.name, func(t *testing.T) { runCompileCase(t, a, tt, nil) })
	}
}

// compileCases are TestCompile's table, shared with the runs on every
// supported compiler (compat_test.go).
func compileCases() []compileCase {
	return []compileCase{
		{
			// brandkit/sub.d.ts imports "./": resolved from the overlay's
			// link it would read index.d.ts a second time, beside the copy
			// "brandkit" resolves to, and Props would not be Options (two
			// TS2322 on bulletproof-react's react 19 check, tsc none).
			name: "a linked package's relative import reads its files once",
			repo: "brand", installed: []string{"brandkit@1.0.0"},
			targets: []string{"brandkit@2.0.0"},
			wantNew: []string{}, asked: 1, compiled: 1, configKind: "own",
		},
		{
			name: "removed parameter and property; the target's dependency fetched at its range",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			targets: []string{"fakepkg@2.0.0"}, registry: []string{"helper@1.0.0", "helper@2.0.0"},
			wantNew: []string{
				// checkJs on both sides: the repository's checkJs: false does
				// not hide the JavaScript call.
				"src/legacy.js:4 TS2554",
				"src/preexisting.ts:6 TS2554",
				"src/preexisting.ts:6 TS2554",
				"src/use.ts:4 TS2554",
				"src/use.ts:7 TS2353",
				// Only visible with helper@2, which the consumer does not have.
				"src/use.ts:9 TS2322",
			},
			preExisting: 1, asked: 5, compiled: 5, fetched: []string{"helper@^2.0.0"}, rounds: 1, configKind: "own",
		},
		{
			name: "same through TypeScript 4.x's resolver hooks",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			targets: []string{"fakepkg@2.0.0"}, registry: []string{"helper@2.0.0"}, legacy: true,
			wantNew: []string{
				"src/legacy.js:4 TS2554",
				"src/preexisting.ts:6 TS2554",
				"src/preexisting.ts:6 TS2554",
				"src/use.ts:4 TS2554",
				"src/use.ts:7 TS2353",
				"src/use.ts:9 TS2322",
			},
			preExisting: 1, asked: 5, compiled: 5, fetched: []string{"helper@^2.0.0"}, rounds: 1, configKind: "own",
		},
		{
			name: "nothing can fetch the dependency: counted, not invented",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			targets: []string{"fakepkg@2.0.0"},
			wantNew: []string{
				"src/legacy.js:4 TS2554",
				"src/preexisting.ts:6 TS2554",
				"src/preexisting.ts:6 TS2554",
				"src/use.ts:4 TS2554",
				"src/use.ts:7 TS2353",
			},
			preExisting: 1, asked: 5, compiled: 5, rounds: 1, configKind: "own",
			unresolved: []string{"fakepkg helper"},
		},
		{
			name: "the consumer's copy satisfies the target's range: linked, not fetched",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@2.0.0"},
			targets: []string{"fakepkg@2.0.0"}, registry: []string{},
			wantNew: []string{
				"src/legacy.js:4 TS2554",
				"src/preexisting.ts:6 TS2554",
				"src/preexisting.ts:6 TS2554",
				"src/use.ts:4 TS2554",
				"src/use.ts:7 TS2353",
			},
			// helper@2 breaks use.ts:9 before the upgrade already.
			preExisting: 2, asked: 5, compiled: 5, configKind: "own",
		},
		{
			name: "scoped to the usage files",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			targets: []string{"fakepkg@2.0.0"}, files: []string{"src/use.ts"},
			wantNew:     []string{"src/use.ts:4 TS2554", "src/use.ts:7 TS2353"},
			preExisting: 0, asked: 1, compiled: 1, rounds: 1, configKind: "own",
			unresolved: []string{"fakepkg helper"},
		},
		{
			// @types/react 19's jsx-runtime.d.ts reads its index through "./"
			// while the repository's own imports name "react": both are one
			// file, or its unique-symbol types (a callback ref's cleanup) are
			// "two different types with this name" tsc never reports.
			name: "a target's file importing its own index relatively reads the one copy",
			repo: "selfref", installed: []string{"selfkit@1.0.0"},
			targets: []string{"selfkit@2.0.0"},
			wantNew: []string{"src/use.ts:1 TS2305"},
			asked:   1, compiled: 1, configKind: "own",
		},
		{
			name: "files the tsconfig does not list, or that do not exist",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			extra:   map[string]string{"scripts/tool.ts": "import { greet } from 'fakepkg';\ngreet('a', 'b');\n"},
			targets: []string{"fakepkg@2.0.0"}, files: []string{"src/use.ts", "scripts/tool.ts", "src/gone.ts"},
			wantNew:     []string{"src/use.ts:4 TS2554", "src/use.ts:7 TS2353"},
			preExisting: 0, asked: 3, compiled: 1, rounds: 1, configKind: "own",
			unresolved: []string{"fakepkg helper"},
			skipped: []string{
				"scripts/tool.ts: outside the workspace's tsconfig (tsconfig.json)",
				"src/gone.ts: file not found",
			},
		},
		{
			name: "baseline alone",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			wantNew: []string{}, preExisting: 1, asked: 5, compiled: 5, configKind: "own",
		},
		{
			// Nothing imports the setup file, the script, the declare global
			// or the tsconfig's files entry, and the test file sees them all
			// (through a side-effect import, global scope, a triple-slash
			// reference): the baseline is tsc's, one error.
			name: "files that declare globals are in every scoped program",
			repo: "globals", installed: []string{"assertkit@1.0.0", "assertkit-dom@1.0.0", "fakepkg@1.0.0", "helper@1.0.0"},
			targets: []string{"fakepkg@2.0.0"}, registry: []string{"helper@2.0.0"}, files: []string{"src/app.test.ts"},
			wantNew:     []string{"src/app.test.ts:4 TS2554"},
			preExisting: 1, asked: 1, compiled: 1, configKind: "own", fetched: []string{"helper@^2.0.0"}, rounds: 1,
		},
		{
			name: "invalid tsconfig: overlay skipped, and said so",
			repo: "broken", installed: []string{"fakepkg@1.0.0"},
			targets: []string{"fakepkg@2.0.0"}, files: []string{"src/use.ts"},
			wantNew: []string{}, asked: 1, compiled: 0, configKind: "own",
			overlaySkipped: "invalid tsconfig tsconfig.json:5: ',' expected: fix it and run again",
			skipped:        []string{"src/use.ts: invalid tsconfig tsconfig.json:5: "},
		},
		{
			// tsc reports TS18000 and compiles without the options of the
			// files in the cycle: not the repository's program.
			name: "an extends cycle: overlay skipped, the cycle named",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			extra: map[string]string{
				"tsconfig.json": `{"extends": "./base.json", "include": ["src"]}`,
				"base.json":     `{"extends": "./tsconfig.json", "compilerOptions": {"strict": true}}`,
			},
			targets: []string{"fakepkg@2.0.0"}, files: []string{"src/use.ts"},
			wantNew: []string{}, asked: 1, compiled: 0, configKind: "own",
			overlaySkipped: "invalid tsconfig tsconfig.json: Circularity detected while resolving configuration: tsconfig.json -> base.json -> tsconfig.json: fix it",
			skipped:        []string{"src/use.ts: invalid tsconfig tsconfig.json: Circularity"},
		},
		{
			name: "dependencies not installed: the baseline is structurally broken",
			repo: "basic", targets: []string{"fakepkg@2.0.0"},
			wantNew: []string{}, preExisting: 4, asked: 5, compiled: 0, configKind: "own",
			overlaySkipped: "structurally broken: 3 of 5 files cannot resolve their imports",
			skipped: []string{
				"src/legacy.js: the baseline is structurally broken",
				"src/nocheck.ts: the baseline is structurally broken",
				"src/plain.ts: the baseline is structurally broken",
				"src/preexisting.ts: the baseline is structurally broken",
				"src/use.ts: the baseline is structurally broken",
			},
		},
		{
			name: "declarations the compiler cannot parse are the finding",
			repo: "basic", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			targets: []string{"fakepkg@3.0.0"},
			wantNew: []string{}, preExisting: 1, asked: 5, compiled: 5, configKind: "own",
			newer: []string{"node_modules/fakepkg/index.d.ts:3 TS1005", "node_modules/fakepkg/index.d.ts:3 TS1109"},
		},
		{
			name: "types via @types: the runtime specifier resolves to the linked release",
			repo: "typed", installed: []string{"legacy-lib@1.0.0", "@types/legacy-lib@1.0.0"},
			targets: []string{"@types/legacy-lib@2.0.0"},
			wantNew: []string{"src/run.ts:3 TS2554"}, asked: 1, compiled: 1, configKind: "own",
		},
		{
			name: "a baseline overlay stands in for the installed copy",
			repo: "basic", installed: []string{"fakepkg@2.0.0", "helper@2.0.0"},
			baseline: []string{"fakepkg@1.0.0"}, targets: []string{"fakepkg@2.0.0"},
			wantNew: []string{
				"src/legacy.js:4 TS2554",
				"src/preexisting.ts:6 TS2554",
				"src/preexisting.ts:6 TS2554",
				"src/use.ts:4 TS2554",
				"src/use.ts:7 TS2353",
				// The baseline's helper@^1 is nowhere: Level is any there.
				"src/use.ts:9 TS2322",
			},
			preExisting: 1, asked: 5, compiled: 5, configKind: "own",
		},
		{
			// The target's augmentation of a package typed by @types must
			// reach the consumer's @types copy, as the upgraded install's
			// hoisting gives it: no error tsc would not report.
			name: "a target augmenting a package typed by @types",
			repo: "augment", installed: []string{"framework@1.0.0", "uikit-js@1.0.0", "@types/uikit-js@1.0.0"},
			targets: []string{"framework@2.0.0"},
			wantNew: []string{}, asked: 1, compiled: 1, rounds: 1, configKind: "own",
		},
		{
			name: "skipLibCheck off: an error in the target's declarations is the build's",
			repo: "libcheck", installed: []string{"typokit@1.0.0"}, targets: []string{"typokit@2.0.0"},
			wantNew: []string{"node_modules/typokit/index.d.ts:2 TS2304"}, asked: 1, compiled: 1, configKind: "own",
		},
		{
			name: "skipLibCheck on: the same declarations are not checked",
			repo: "libcheck", installed: []string{"typokit@1.0.0"}, targets: []string{"typokit@2.0.0"},
			extra:   map[string]string{"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true, "skipLibCheck": true, "moduleResolution": "bundler", "module": "esnext", "types": []}, "include": ["src"]}`},
			wantNew: []string{}, asked: 1, compiled: 1, configKind: "own",
		},
		{
			name: "project references one level down, each with its own options",
			repo: "refs", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			targets:     []string{"fakepkg@2.0.0"},
			wantNew:     []string{"packages/app/src/use.ts:4 TS2554", "packages/app/src/use.ts:7 TS2353"},
			preExisting: 0, asked: 1, compiled: 1, rounds: 1, configKind: "own",
			unresolved: []string{"fakepkg helper"},
		},
		{
			name: "a workspace without a tsconfig takes the options of the one above, not its files",
			repo: "monorepo", workspace: "packages/app", installed: []string{"fakepkg@1.0.0", "helper@1.0.0"},
			targets:     []string{"fakepkg@2.0.0"},
			wantNew:     []string{"packages/app/src/use.ts:4 TS2554", "packages/app/src/use.ts:7 TS2353"},
			preExisting: 0, asked: 1, compiled: 1, rounds: 1, configKind: "above",
			unresolved: []string{"fakepkg helper"},
		},
	}
}

// driverRequests starts a's driver and says how many requests it was sent.
func driverRequests(t *testing.T, a *Adapter) int64 {
	t.Helper()
	p, err := a.driver(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nextID
}

// runCompileCase compiles tt with a and checks every field; edit, when set,
// changes the copied repository first (an older compiler's tsconfig).
func runCompileCase(t *testing.T, a *Adapter, tt compileCase, edit func(t *testing.T, repo string)) {
	runSharedCompileCase(t, a, nil, tt, edit)
}

// Several checks of one workspace (plan --check's steps) share its
// baseline: one driver compiles it once (ShareBaseline) and every other
// compile, in any driver, takes it instead of a baseline program of its
// own. Each case then answers exactly what it answers alone.
func TestCompileWithASharedBaseline(t *testing.T) {
	a, share := sharedAdapter(t), newAdapter(t)
	reused := 0
	for _, tt := range compileCases() {
		t.Run(tt.name, func(t *testing.T) { reused += runSharedCompileCase(t, a, share, tt, nil) })
	}
	if reused == 0 {
		t.Fatal("no case took its baseline from the shared one: the test shows nothing")
	}
}

// runSharedCompileCase is runCompileCase with the baseline compiled by
// share first (nil: none) and handed to a's compile; it returns how many
// files took their baseline from it.
func runSharedCompileCase(t *testing.T, a, share *Adapter, tt compileCase, edit func(t *testing.T, repo string)) int {
	ctx := context.Background()
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
	if edit != nil {
		edit(t, repo)
	}
	ws := repo
	if tt.workspace != "" {
		ws = filepath.Join(repo, filepath.FromSlash(tt.workspace))
	}
	req := CompileRequest{RepoRoot: repo, Workspace: ws, Files: tt.files, legacyHooks: tt.legacy}
	var reg *fakeRegistry
	if tt.baseline != nil {
		ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: ws, TempDir: t.TempDir(), Targets: linkedFixtures(tt.baseline)})
		if err != nil {
			t.Fatal(err)
		}
		defer ov.Cleanup()
		req.Baseline = ov
	}
	if tt.targets != nil {
		oreq := OverlayRequest{Workspace: ws, TempDir: t.TempDir(), Targets: linkedFixtures(tt.targets)}
		if tt.registry != nil {
			reg = newFakeRegistry(tt.registry...)
			oreq.Fetch = reg.fetch
		}
		ov, err := BuildOverlay(ctx, oreq)
		if err != nil {
			t.Fatal(err)
		}
		defer ov.Cleanup()
		req.Overlay = ov
	}
	if share != nil {
		sreq := req
		sreq.Overlay, sreq.ShareBaseline = nil, true
		sr, err := share.Compile(ctx, sreq)
		if err != nil {
			t.Fatal(err)
		}
		if sr.Shared != nil && tt.baseline != nil {
			t.Error("a baseline through a mapping was shared: it is not the installed one")
		}
		req.SharedBaseline = sr.Shared
	}
	before := driverRequests(t, a)
	r, err := a.Compile(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if share == nil && r.BaselineShared != 0 {
		t.Errorf("%d files took a shared baseline, none was given", r.BaselineShared)
	}
	// The judging request is the last dependency round: a round of its
	// own before it would build the same programs twice.
	if got, want := driverRequests(t, a)-before, int64(r.Rounds+1); got != want {
		t.Errorf("%d driver requests for %d rounds, want %d", got, r.Rounds, want)
	}
	if got := diagLines(r.New); !reflect.DeepEqual(got, tt.wantNew) {
		t.Errorf("new diagnostics\n got %q\nwant %q", got, tt.wantNew)
		for _, d := range r.New {
			t.Logf("  %+v", d)
		}
	}
	if r.PreExisting != tt.preExisting || len(r.PreExistingErrors) != r.PreExisting {
		t.Errorf("pre-existing %d (%d listed), want %d", r.PreExisting, len(r.PreExistingErrors), tt.preExisting)
	}
	if tt.baseline == nil && tt.overlaySkipped == "" && tt.configKind == "own" {
		// The repository's own tsc, on the same files, says the same.
		if got, want := truthLines(r.PreExistingErrors), tscPreExisting(t, a.compiler, ws, repo, tt.files); !reflect.DeepEqual(got, want) {
			t.Errorf("pre-existing errors %q, tsc says %q", got, want)
		}
	}
	if r.Coverage.Asked != tt.asked || r.Coverage.Compiled != tt.compiled {
		t.Errorf("coverage %d asked, %d compiled; want %d, %d", r.Coverage.Asked, r.Coverage.Compiled, tt.asked, tt.compiled)
	}
	if len(r.Coverage.Skipped) != len(tt.skipped) {
		t.Errorf("skipped %+v, want %q", r.Coverage.Skipped, tt.skipped)
	} else {
		for i, s := range r.Coverage.Skipped {
			got := s.File + ": " + s.Reason
			if !strings.HasPrefix(got, tt.skipped[i]) && !strings.Contains(got, tt.skipped[i]) {
				t.Errorf("skipped %q, want %q", got, tt.skipped[i])
			}
			// The checker drops the files outside the program by the flag,
			// never by the words.
			if outside := strings.HasPrefix(s.Reason, "outside the workspace's tsconfig"); s.Outside != outside {
				t.Errorf("skipped %q: Outside %v, want %v", got, s.Outside, outside)
			}
		}
	}
	if (tt.overlaySkipped == "") != (r.OverlaySkipped == "") || !strings.Contains(r.OverlaySkipped, tt.overlaySkipped) {
		t.Errorf("overlay skipped %q, want %q", r.OverlaySkipped, tt.overlaySkipped)
	}
	var un []string
	for _, u := range r.UnresolvedInTarget {
		un = append(un, u.Importer+" "+u.Specifier)
	}
	if !reflect.DeepEqual(un, tt.unresolved) {
		t.Errorf("unresolved in target %q, want %q", un, tt.unresolved)
	}
	if reg != nil {
		if got := reg.calls(); !reflect.DeepEqual(got, tt.fetched) && len(got)+len(tt.fetched) > 0 {
			t.Errorf("fetched %q, want %q", got, tt.fetched)
		}
	}
	if r.Rounds != tt.rounds {
		t.Errorf("%d rounds, want %d", r.Rounds, tt.rounds)
	}
	if tt.newer == nil && r.NewerTypeScript != nil {
		t.Errorf("newer TypeScript reported: %+v", r.NewerTypeScript)
	}
	if tt.newer != nil {
		if r.NewerTypeScript == nil || len(r.New) != 0 {
			t.Errorf("unreadable target not reported: newer %+v, new %+v", r.NewerTypeScript, r.New)
		} else if got := diagLines(r.NewerTypeScript); !reflect.DeepEqual(got, tt.newer) {
			t.Errorf("parse errors %q, want %q", got, tt.newer)
		}
	}
	if r.ConfigKind != tt.configKind {
		t.Errorf("config kind %q, want %q", r.ConfigKind, tt.configKind)
	}
	if v := a.compiler.Version; r.Compiler != "the bundled TypeScript "+v || r.TypeScript != v {
		t.Errorf("compiler %q (%s)", r.Compiler, r.TypeScript)
	}
	for _, d := range r.New {
		if d.Workspace != filepath.ToSlash(tt.workspace) || d.Line < 1 || d.Column < 1 || d.Length < 1 || d.Message == "" {
			t.Errorf("diagnostic %+v: workspace, position or message missing", d)
		}
	}
	return r.BaselineShared
}

// The repository's own TypeScript judges, and the coverage line says so.
func TestCompileWithRepoCompiler(t *testing.T) {
	pinned := pinnedCompiler(t)
	repo := fixtureRepo(t, "basic", "fakepkg@1.0.0", "helper@1.0.0")
	if err := os.Symlink(pinned.Dir, filepath.Join(repo, "node_modules", "typescript")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := ResolveCompiler(ctx, repo, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !c.FromRepo {
		t.Fatalf("compiler %+v is not the repository's", c)
	}
	a := New(c, Options{NoSurfaceCache: true})
	defer a.Close()
	ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: repo, TempDir: t.TempDir(), Targets: []LinkedPackage{{Name: "fakepkg", Dir: fixturePkg("fakepkg", "2.0.0")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Cleanup()
	r, err := a.Compile(ctx, CompileRequest{RepoRoot: repo, Files: []string{filepath.Join(repo, "src", "use.ts")}, Overlay: ov})
	if err != nil {
		t.Fatal(err)
	}
	if want := "the repo's TypeScript " + PinnedVersion; r.Compiler != want {
		t.Errorf("compiler %q, want %q", r.Compiler, want)
	}
	if got, want := diagLines(r.New), []string{"src/use.ts:4 TS2554", "src/use.ts:7 TS2353"}; !reflect.DeepEqual(got, want) {
		t.Errorf("new diagnostics %q, want %q", got, want)
	}
	if w := r.UnresolvedWarning("fakepkg@2.0.0"); w != "1 unresolved module inside fakepkg@2.0.0, results may be incomplete" {
		t.Errorf("warning %q", w)
	}
	// The message is the compiler's, flattened.
	for _, d := range r.New {
		if d.Code == 2353 && !strings.Contains(d.Message, "'retries' does not exist in type 'Options'") {
			t.Errorf("message %q", d.Message)
		}
	}
}

func TestCompileBadRequests(t *testing.T) {
	a := sharedAdapter(t)
	ctx := context.Background()
	if _, err := a.Compile(ctx, CompileRequest{}); err == nil {
		t.Error("a compile without a repository root succeeded")
	}
	// An empty scope compiles nothing (nil would mean every file).
	repo := fixtureRepo(t, "basic", "fakepkg@1.0.0", "helper@1.0.0")
	r, err := a.Compile(ctx, CompileRequest{RepoRoot: repo, Files: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Coverage.Asked != 0 || r.Coverage.Compiled != 0 || r.PreExisting != 0 {
		t.Errorf("empty scope: coverage %+v, %d pre-existing", r.Coverage, r.PreExisting)
	}
	// A workspace that does not exist has no files, not a crash.
	dir := t.TempDir()
	r, err = a.Compile(ctx, CompileRequest{RepoRoot: dir, Files: []string{"src/a.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Coverage.Asked != 1 || r.Coverage.Compiled != 0 || len(r.Coverage.Skipped) != 1 {
		t.Errorf("coverage %+v", r.Coverage)
	}
}

// BenchmarkCompile: one package's Signal B on the small fixture. "cold" is
// a repository the driver has not seen (its files parsed and checked on both
// sides; the compiler's lib files stay parsed, as they do across a run),
// "warm" the same repository again (baseline diagnostics cached, so only the
// overlay is built and checked).
func BenchmarkCompile(b *testing.B) {
	a := sharedAdapter(b)
	ctx := context.Background()
	run := func(b *testing.B, repo string) {
		ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: repo, TempDir: b.TempDir(), Targets: []LinkedPackage{{Name: "fakepkg", Dir: fixturePkg("fakepkg", "2.0.0")}}})
		if err != nil {
			b.Fatal(err)
		}
		defer ov.Cleanup()
		r, err := a.Compile(ctx, CompileRequest{RepoRoot: repo, Overlay: ov})
		if err != nil {
			b.Fatal(err)
		}
		if len(r.New) != 5 {
			b.Fatalf("%d new diagnostics, want 5", len(r.New))
		}
	}
	newRepo := func(b *testing.B) string {
		dir := b.TempDir()
		for _, p := range []string{"fakepkg@1.0.0", "helper@1.0.0"} {
			n, v := splitSpec(p)
			if err := copyTree(fixturePkg(n, v), filepath.Join(dir, "node_modules", n)); err != nil {
				b.Fatal(err)
			}
		}
		if err := copyTree(filepath.Join(compileFixtures, "basic"), dir); err != nil {
			b.Fatal(err)
		}
		return dir
	}
	run(b, newRepo(b)) // the driver starts and parses the lib files once
	b.Run("cold", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			repo := newRepo(b)
			b.StartTimer()
			run(b, repo)
		}
	})
	b.Run("warm", func(b *testing.B) {
		repo := newRepo(b)
		run(b, repo)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			run(b, repo)
		}
	})
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
}

// linkedFixtures are fixture packages ("name@version") to link into an
// overlay.
func linkedFixtures(list []string) []LinkedPackage {
	var out []LinkedPackage
	for _, p := range list {
		n, v := splitSpec(p)
		out = append(out, LinkedPackage{Name: n, Dir: fixturePkg(n, v)})
	}
	return out
}

// A check compile after Release gives what it gave before: the driver only
// dropped what it keeps to go faster.
func TestCompileAfterRelease(t *testing.T) {
	a := newAdapter(t)
	tt := compileCases()[0]
	runCompileCase(t, a, tt, nil)
	if err := a.Release(context.Background()); err != nil {
		t.Fatal(err)
	}
	runCompileCase(t, a, tt, nil)
}

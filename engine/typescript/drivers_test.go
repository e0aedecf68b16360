package typescript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// writeTree writes files (slash paths relative to dir) into dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		writeFile(t, dir, name, text)
	}
}

// A project with every kind of output tsc -p writes: an option the config
// gets wrong, errors in the sources, a message over several lines, an error
// located in the compiler's own lib.dom.d.ts, an unresolved import.
var serverProject = map[string]string{
	"tsconfig.json": `{
  "compilerOptions": { "target": "es2020", "lib": ["es2020", "dom"], "strict": true, "noEmit": true, "notAnOption": true },
  "include": ["src"]
}`,
	"src/a.ts": "export const count: number = \"three\";\n",
	"src/b.ts": "type Deep = { a: { b: { c: number } } };\nexport const d: Deep = { a: { b: { c: \"x\" } } };\nexport function f(x: { n: number }) { return x.n; }\nf({ n: \"1\" } as unknown as { n: string });\n",
	"src/g.ts": "declare const name: number;\n",
	"src/c.ts": "import { nothing } from \"not-installed\";\nexport const n = nothing;\n",
}

// fetchedTSC is typescript@version whole (its lib/tsc.js too), fetched
// once into the tool cache.
func fetchedTSC(t *testing.T, version string) TSC {
	t.Helper()
	requireNode(t)
	tsc, err := FetchTSC(context.Background(), registryFetch, nil, version)
	if err != nil {
		t.Fatalf("typescript@%s: %v", version, err)
	}
	return tsc
}

// driversProject is typescript@version's tsc, a root holding files, its
// tsconfig.json and drivers closed with the test.
func driversProject(t *testing.T, version string, files map[string]string) (TSC, string, string, *Drivers) {
	t.Helper()
	tsc := fetchedTSC(t, version)
	root := t.TempDir()
	writeTree(t, root, files)
	s := NewDrivers()
	t.Cleanup(func() { s.Close() })
	return tsc, root, filepath.Join(root, "tsconfig.json"), s
}

func mustRun(t *testing.T, tsc TSC, root, config string) *ProjectRun {
	t.Helper()
	run, err := tsc.RunProject(context.Background(), root, config, 2*time.Minute)
	if err != nil {
		t.Fatalf("%s: %v", tsc.Label(), err)
	}
	return run
}

// The driver's tsc -p reports what tsc's command line reports, on every
// supported compiler, and keeps doing so when a file changes between runs
// (the kept source files never hide an edit).
func TestDriversRunTscAsTscDoes(t *testing.T) {
	versions := append([]string{PinnedVersion}, supportedVersions...)
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			tsc, root, config, s := driversProject(t, v, serverProject)
			served := s.Serve(tsc)
			if served.server == nil {
				t.Fatalf("TypeScript %s has a JavaScript API: the server runs it", v)
			}

			want := mustRun(t, tsc, root, config)
			if len(want.Diagnostics) < 6 || want.Files != 4 {
				t.Fatalf("the project should give tsc's config, source, lib and import errors over 4 files: %+v", want)
			}
			for i := 0; i < 2; i++ {
				if got := mustRun(t, served, root, config); !reflect.DeepEqual(got, want) {
					t.Fatalf("run %d: the server gave\n%+v\ntsc gave\n%+v", i+1, got, want)
				}
			}
			assertServed(t, s, tsc)

			// An edit between runs: a fixed error and a new one.
			writeTree(t, root, map[string]string{"src/a.ts": "export const count: number = 3;\nexport const s: string = 4;\n"})
			want = mustRun(t, tsc, root, config)
			if got := mustRun(t, served, root, config); !reflect.DeepEqual(got, want) {
				t.Fatalf("after an edit: the server gave\n%+v\ntsc gave\n%+v", got, want)
			}

			// A syntax error: tsc stops before the semantic errors.
			writeTree(t, root, map[string]string{"src/a.ts": "export const = ;\n"})
			want = mustRun(t, tsc, root, config)
			if got := mustRun(t, served, root, config); !reflect.DeepEqual(got, want) {
				t.Fatalf("a syntax error: the server gave\n%+v\ntsc gave\n%+v", got, want)
			}
			for _, d := range want.Diagnostics {
				if d.Code == 2322 {
					t.Fatalf("tsc reports no semantic error beside a syntax error: %+v", want.Diagnostics)
				}
			}

			// A config that is not there.
			missing := filepath.Join(root, "nope", "tsconfig.json")
			want = mustRun(t, tsc, root, missing)
			if got := mustRun(t, served, root, missing); !reflect.DeepEqual(got, want) || len(got.Diagnostics) != 1 {
				t.Fatalf("a missing config: the server gave\n%+v\ntsc gave\n%+v", got, want)
			}
		})
	}
}

// Two installations of one compiler (the checkout's and a clone's copy)
// share a driver, and an error in a default library is named under the
// installation the caller ran, as its own tsc names it.
func TestDriversShareACopiedCompiler(t *testing.T) {
	c := fetchedTSC(t, PinnedVersion)
	checkout, clone := t.TempDir(), t.TempDir()
	for _, root := range []string{checkout, clone} {
		writeTree(t, root, serverProject)
		if err := copyTree(c.Dir, filepath.Join(root, "node_modules", "typescript")); err != nil {
			t.Fatal(err)
		}
	}
	s := NewDrivers()
	defer s.Close()
	var runs []*ProjectRun
	for _, root := range []string{checkout, clone} {
		tsc, err := TSCAt(context.Background(), filepath.Join(root, "node_modules", "typescript"))
		if err != nil {
			t.Fatal(err)
		}
		want := mustRun(t, tsc, root, filepath.Join(root, "tsconfig.json"))
		got := mustRun(t, s.Serve(tsc), root, filepath.Join(root, "tsconfig.json"))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the server gave\n%+v\ntsc gave\n%+v", root, got, want)
		}
		runs = append(runs, got)
	}
	if len(s.drivers) != 1 {
		t.Errorf("one compiler, copied: want one driver, got %d", len(s.drivers))
	}
	for _, root := range []string{checkout, clone} {
		tsc, err := TSCAt(context.Background(), filepath.Join(root, "node_modules", "typescript"))
		if err != nil {
			t.Fatal(err)
		}
		assertServed(t, s, tsc)
	}
	if !reflect.DeepEqual(runs[0], runs[1]) {
		t.Errorf("the same project reads the same in the checkout and the clone:\n%+v\n%+v", runs[0], runs[1])
	}
	found := false
	for _, d := range runs[1].Diagnostics {
		found = found || d.File == "node_modules/typescript/lib/lib.dom.d.ts"
	}
	if !found {
		t.Errorf("the redeclared global is an error in the clone's lib.dom.d.ts: %+v", runs[1].Diagnostics)
	}
}

// Projects over the same files with options that change what parsing and
// binding store on a file (imports tslib adds, the binder's unreachable
// code and unused label errors), run one after the other in one driver in
// both orders, each give what tsc gives.
func TestDriversKeepProjectsOptionsApart(t *testing.T) {
	for _, v := range []string{"4.5.5", "5.4.5", "5.9.3", PinnedVersion} {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			tsc := fetchedTSC(t, v)
			root := t.TempDir()
			base := `"target": "es5", "module": "commonjs", "strict": true`
			if strings.HasPrefix(v, "6.") {
				base += `, "ignoreDeprecations": "6.0"`
			}
			writeTree(t, root, map[string]string{
				"src/a.ts":                        "export class B {}\nexport class A extends B {}\nexport function f(x: number) {\n  return x;\n  x++;\n}\nlbl: for (;;) { break; }\n",
				"tsconfig.plain.json":             `{ "compilerOptions": { ` + base + ` }, "include": ["src"] }`,
				"tsconfig.strict.json":            `{ "compilerOptions": { ` + base + `, "importHelpers": true, "allowUnreachableCode": false, "allowUnusedLabels": false }, "include": ["src"] }`,
				"node_modules/tslib/package.json": `{"name":"tslib","version":"2.6.2","types":"tslib.d.ts"}`,
				"node_modules/tslib/tslib.d.ts":   "export declare function __extends(d: Function, b: Function): void;\n",
			})
			plain, strict := filepath.Join(root, "tsconfig.plain.json"), filepath.Join(root, "tsconfig.strict.json")
			want := map[string]*ProjectRun{plain: mustRun(t, tsc, root, plain), strict: mustRun(t, tsc, root, strict)}
			codes := func(r *ProjectRun) map[int]bool {
				out := map[int]bool{}
				for _, d := range r.Diagnostics {
					out[d.Code] = true
				}
				return out
			}
			if s, p := codes(want[strict]), codes(want[plain]); !s[7027] || !s[7028] || p[7027] || p[7028] {
				t.Fatalf("tsc: the strict project has the unreachable code (7027) and the unused label (7028), the plain one neither: %+v %+v",
					want[strict].Diagnostics, want[plain].Diagnostics)
			}
			for _, order := range [][]string{{plain, strict}, {strict, plain}} {
				s := NewDrivers()
				for _, config := range order {
					if got := mustRun(t, s.Serve(tsc), root, config); !reflect.DeepEqual(got, want[config]) {
						t.Errorf("%s after %v: the driver gave\n%+v\ntsc gave\n%+v", filepath.Base(config), order, got, want[config])
					}
				}
				assertServed(t, s, tsc)
				s.Close()
			}
		})
	}
}

// A file edited to the same size with its old modification time back is
// read again: a kept parse is only handed out for the text on disk.
func TestDriversReadAnEditTheClockMisses(t *testing.T) {
	tsc, root, config, s := driversProject(t, PinnedVersion, serverProject)
	served := s.Serve(tsc)
	mustRun(t, served, root, config)
	file := filepath.Join(root, "src", "a.ts")
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	// Same length: the error is gone.
	writeTree(t, root, map[string]string{"src/a.ts": "export const count: number = 3333333;\n"})
	if err := os.Chtimes(file, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	want := mustRun(t, tsc, root, config)
	if got := mustRun(t, served, root, config); !reflect.DeepEqual(got, want) {
		t.Errorf("after a same-size edit: the driver gave\n%+v\ntsc gave\n%+v", got, want)
	}
	assertServed(t, s, tsc)
}

// traceResolution in a tsconfig: the traces go where tsc writes them (its
// output, which the diagnostics are read from), never onto the driver's
// answers.
func TestDriversTraceResolution(t *testing.T) {
	tsc, root, config, s := driversProject(t, PinnedVersion, map[string]string{
		"tsconfig.json": `{ "compilerOptions": { "strict": true, "traceResolution": true }, "include": ["src"] }`,
		"src/a.ts":      "import { b } from \"./b\";\nexport const x: number = b;\n",
		"src/b.ts":      "export const b = \"s\";\n",
	})
	want := mustRun(t, tsc, root, config)
	if got := mustRun(t, s.Serve(tsc), root, config); !reflect.DeepEqual(got, want) || len(got.Diagnostics) != 1 {
		t.Errorf("the driver gave\n%+v\ntsc gave\n%+v", got, want)
	}
	assertServed(t, s, tsc)
}

// assertServed fails unless the driver of tsc's compiler answered (is
// running): tsc's fall back would give the same diagnostics.
func assertServed(t *testing.T, s *Drivers, tsc TSC) {
	t.Helper()
	a, err := s.Adapter(&Compiler{Dir: tsc.Dir, Version: tsc.Version})
	if err != nil {
		t.Fatal(err)
	}
	a.mu.Lock()
	p := a.proc
	a.mu.Unlock()
	if p == nil || p.broken != nil {
		t.Errorf("the driver did not answer (tsc ran instead): %v", p)
	}
}

// A driver that dies during a compile (out of memory, say) does not fail
// it: tsc runs the project.
func TestDriversFallBackToTsc(t *testing.T) {
	tsc, root, config, s := driversProject(t, PinnedVersion, serverProject)
	a, err := s.Adapter(&Compiler{Dir: tsc.Dir, Version: tsc.Version})
	if err != nil {
		t.Fatal(err)
	}
	a.proc = startFake(t) // answers `project` by crashing
	want := mustRun(t, tsc, root, config)
	if got := mustRun(t, s.Serve(tsc), root, config); !reflect.DeepEqual(got, want) {
		t.Errorf("after the driver crashed: got\n%+v\ntsc gave\n%+v", got, want)
	}
}

// A compiler installed the way pnpm does (node_modules/typescript a link
// into .pnpm): the driver names lib files by their real path, as tsc does.
func TestDriversNameLibsAsALinkedTscDoes(t *testing.T) {
	c := fetchedTSC(t, PinnedVersion)
	root := t.TempDir()
	writeTree(t, root, serverProject)
	real := filepath.Join(root, "node_modules", ".pnpm", "typescript@"+PinnedVersion, "node_modules", "typescript")
	if err := copyTree(c.Dir, real); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(".pnpm", "typescript@"+PinnedVersion, "node_modules", "typescript"), filepath.Join(root, "node_modules", "typescript")); err != nil {
		t.Fatal(err)
	}
	tsc, err := TSCAt(context.Background(), filepath.Join(root, "node_modules", "typescript"))
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(root, "tsconfig.json")
	want := mustRun(t, tsc, root, config)
	s := NewDrivers()
	defer s.Close()
	got := mustRun(t, s.Serve(tsc), root, config)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the driver gave\n%+v\ntsc gave\n%+v", got, want)
	}
	found := false
	for _, d := range got.Diagnostics {
		found = found || strings.HasPrefix(d.File, "node_modules/.pnpm/")
	}
	if !found {
		t.Errorf("the lib.dom.d.ts error is named under the real path: %+v", got.Diagnostics)
	}
	assertServed(t, s, tsc)
}

// A target the overlay links from a real install (Kept: the fix runner's
// clone) stays parsed after the compile, so the compile after the
// upgrade, over that install, parses none of its files again; a target
// linked from the registry's copy is forgotten after the compile.
func TestAKeptTargetIsParsedOnce(t *testing.T) {
	tsc := fetchedTSC(t, PinnedVersion)
	ctx := context.Background()
	for _, kept := range []bool{true, false} {
		t.Run(fmt.Sprintf("kept=%v", kept), func(t *testing.T) {
			checkout := fixtureRepo(t, "basic", "fakepkg@1.0.0", "helper@1.0.0")
			clone := fixtureRepo(t, "basic", "fakepkg@2.0.0", "helper@1.0.0")
			for _, root := range []string{checkout, clone} {
				if err := os.Symlink(tsc.Dir, filepath.Join(root, "node_modules", "typescript")); err != nil {
					t.Fatal(err)
				}
			}
			s := NewDrivers()
			defer s.Close()
			a := repoAdapter(t, s, checkout)
			target, err := filepath.EvalSymlinks(filepath.Join(clone, "node_modules", "fakepkg"))
			if err != nil {
				t.Fatal(err)
			}
			ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: checkout, TempDir: t.TempDir(), Targets: []LinkedPackage{{Name: "fakepkg", Dir: target, Kept: kept}}})
			if err != nil {
				t.Fatal(err)
			}
			defer ov.Cleanup()
			r, err := a.Compile(ctx, CompileRequest{RepoRoot: checkout, Files: []string{filepath.Join(checkout, "src", "use.ts")}, Overlay: ov})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.New) == 0 {
				t.Fatal("the overlay compile found no new error: fakepkg 2 was not what it read")
			}
			parsed := func(record bool) []string {
				var out struct {
					Files []string `json:"files"`
				}
				if err := a.call(ctx, "parsed", map[string]bool{"record": record}, "parsed", &out); err != nil {
					t.Fatal(err)
				}
				return out.Files
			}
			parsed(true)
			ctsc, err := TSCAt(ctx, filepath.Join(clone, "node_modules", "typescript"))
			if err != nil {
				t.Fatal(err)
			}
			after := mustRun(t, s.Serve(ctsc), clone, filepath.Join(clone, "tsconfig.json"))
			if want := mustRun(t, ctsc, clone, filepath.Join(clone, "tsconfig.json")); !reflect.DeepEqual(after, want) {
				t.Fatalf("the compile after the upgrade gave\n%+v\ntsc gave\n%+v", after, want)
			}
			var again []string
			for _, f := range parsed(false) {
				if strings.HasPrefix(f, target+string(filepath.Separator)) {
					again = append(again, f)
				}
			}
			if kept && len(again) > 0 {
				t.Errorf("a kept target was parsed again by the compile after the upgrade: %q", again)
			}
			if !kept && len(again) == 0 {
				t.Errorf("a target linked from the registry's copy stayed parsed after its compile")
			}
		})
	}
}

// A compiler's identity is its files' content: the one remembered in the
// cache serves while no file changed size or time, and a changed library
// file is a new identity.
func TestCompilerIdentityFollowsItsFiles(t *testing.T) {
	c := pinnedCompiler(t)
	t.Setenv("UPTIDE_CACHE_DIR", t.TempDir())
	dir := filepath.Join(t.TempDir(), "typescript")
	if err := copyCompiler(c.Dir, dir); err != nil {
		t.Fatal(err)
	}
	id := func() string {
		t.Helper()
		got, err := NewDrivers().identity(dir, c.Version)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	first := id()
	if again := id(); again != first {
		t.Fatalf("the same files: %s, then %s", first, again)
	}
	lib := filepath.Join(dir, "lib", "lib.es5.d.ts")
	f, err := os.OpenFile(lib, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\ndeclare var addedByTheTest: number;\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if changed := id(); changed == first {
		t.Errorf("lib.es5.d.ts changed, the identity stayed %s", first)
	}
}

// repoAdapter is s's adapter of the compiler root installs.
func repoAdapter(t *testing.T, s *Drivers, root string) *Adapter {
	t.Helper()
	c, err := ResolveCompiler(context.Background(), root, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Adapter(c)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The checkout's compile before an upgrade (tsc -p in the driver, seeding)
// is the baseline of check's compiles in the same driver: they type-check
// only the overlay, and find what a compile with a baseline of its own
// finds. A project whose tsc -p judges otherwise than check's compile
// (JavaScript allowed but not checked, which check checks) seeds nothing.
func TestACheckoutCompileIsChecksBaseline(t *testing.T) {
	tsc := fetchedTSC(t, PinnedVersion)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		js     bool
		seeded int
	}{{"typescript only", false, 2}, {"javascript allowed, unchecked", true, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			checkout := fixtureRepo(t, "basic", "fakepkg@1.0.0", "helper@1.0.0")
			clone := fixtureRepo(t, "basic", "fakepkg@2.0.0", "helper@1.0.0")
			if !tc.js {
				config := `{"compilerOptions": {"target": "es2022", "module": "esnext", "moduleResolution": "bundler", "strict": true, "noEmit": true, "types": []}, "include": ["src"]}`
				if err := os.WriteFile(filepath.Join(checkout, "tsconfig.json"), []byte(config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(tsc.Dir, filepath.Join(checkout, "node_modules", "typescript")); err != nil {
				t.Fatal(err)
			}
			target, err := filepath.EvalSymlinks(filepath.Join(clone, "node_modules", "fakepkg"))
			if err != nil {
				t.Fatal(err)
			}
			files := []string{filepath.Join(checkout, "src", "use.ts"), filepath.Join(checkout, "src", "preexisting.ts")}
			compile := func(seed bool) *CompileResult {
				s := NewDrivers()
				defer s.Close()
				a := repoAdapter(t, s, checkout)
				ctsc, err := TSCAt(ctx, filepath.Join(checkout, "node_modules", "typescript"))
				if err != nil {
					t.Fatal(err)
				}
				served := s.Serve(ctsc)
				served.SeedBaseline = seed
				mustRun(t, served, checkout, filepath.Join(checkout, "tsconfig.json"))
				ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: checkout, TempDir: t.TempDir(), Targets: []LinkedPackage{{Name: "fakepkg", Dir: target}}})
				if err != nil {
					t.Fatal(err)
				}
				defer ov.Cleanup()
				r, err := a.Compile(ctx, CompileRequest{RepoRoot: checkout, Files: files, Overlay: ov})
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			sameAsOwnBaseline(t, compile(false), compile(true), tc.seeded)
		})
	}
}

// sameAsOwnBaseline: a compile whose baseline came from a seeding tsc -p
// (want files of it) judges as one with a baseline of its own, on a
// fixture with new errors and errors before.
func sameAsOwnBaseline(t *testing.T, own, seeded *CompileResult, want int) {
	t.Helper()
	if own.BaselineCached != 0 {
		t.Errorf("without seeding, %d files' baseline was cached", own.BaselineCached)
	}
	if seeded.BaselineCached != want {
		t.Errorf("after the seeding tsc -p, %d files' baseline came from it, want %d", seeded.BaselineCached, want)
	}
	if len(own.New) == 0 || len(own.PreExistingErrors) == 0 {
		t.Fatalf("the fixture has new errors (%d) and errors before (%d)", len(own.New), len(own.PreExistingErrors))
	}
	if !reflect.DeepEqual(own.New, seeded.New) || !reflect.DeepEqual(own.PreExistingErrors, seeded.PreExistingErrors) || own.PreExisting != seeded.PreExisting {
		t.Errorf("seeded compile found\n%+v\n%+v\nits own baseline\n%+v\n%+v", seeded.New, seeded.PreExistingErrors, own.New, own.PreExistingErrors)
	}
}

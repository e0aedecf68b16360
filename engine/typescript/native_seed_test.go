package typescript

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// In a fix run the checkout's tsc -p before the upgrade is the baseline of
// check's native judgment (a TypeScript the driver cannot load): the same
// new errors and errors before as with a baseline of its own, taken from
// the seed only where tsc -p judges as the generated tsconfig does and
// printed errors only in the project's own source files.
func TestACheckoutCompileIsTheNativeJudgesBaseline(t *testing.T) {
	requireNode(t)
	ctx := context.Background()
	const version = "4.4.4"
	install := olderInstall(t, version)
	tsOnly := `{"compilerOptions": {"target": "es2022", "module": "esnext", "moduleResolution": "bundler", "strict": true, "noEmit": true, "types": []}, "include": ["src"]}`
	for _, tc := range []struct {
		name   string
		config string // "" keeps the fixture's (JavaScript allowed, unchecked)
		extra  map[string]string
		seeded int
		gated  bool // tsc stops at the configuration: nothing is judged
	}{
		{"typescript only", tsOnly, nil, 2, false},
		{"javascript allowed, unchecked", "", nil, 0, false},
		// An error in a declaration file may be one of a file outside the
		// unit's program: the unit's own baseline runs.
		{"an error in a declaration file", tsOnly, map[string]string{"src/broken.d.ts": "declare const broken: Missing;\n"}, 0, false},
		// A configuration error names the tsconfig, not the generated one.
		{"an error in the tsconfig", `{"compilerOptions": {"target": "es2022", "module": "esnext", "moduleResolution": "bundler", "strict": true, "noEmit": true, "types": [], "noSuchOption": true}, "include": ["src"]}`, nil, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := fixtureRepo(t, "basic", "fakepkg@1.0.0", "helper@1.0.0")
			if tc.config != "" {
				if err := os.WriteFile(filepath.Join(repo, "tsconfig.json"), []byte(tc.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for name, text := range tc.extra {
				if err := os.WriteFile(filepath.Join(repo, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			install(t, repo)
			files := []string{filepath.Join(repo, "src", "use.ts"), filepath.Join(repo, "src", "preexisting.ts")}
			compile := func(seed bool) *CompileResult {
				s := NewDrivers()
				defer s.Close()
				a := olderAdapter(t, repo, version)
				tsc, err := TSCAt(ctx, filepath.Join(repo, "node_modules", "typescript"))
				if err != nil {
					t.Fatal(err)
				}
				served := s.Serve(tsc)
				served.SeedBaseline = seed
				mustRun(t, served, repo, filepath.Join(repo, "tsconfig.json"))
				ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: repo, TempDir: t.TempDir(), Targets: linkedFixtures([]string{"fakepkg@2.0.0"}),
					Fetch: newFakeRegistry("helper@1.0.0").fetch})
				if err != nil {
					t.Fatal(err)
				}
				defer ov.Cleanup()
				r, err := a.Compile(ctx, CompileRequest{RepoRoot: repo, Files: files, Overlay: ov, Runs: s})
				if err != nil {
					t.Fatal(err)
				}
				if r.TypeScript != version {
					t.Fatalf("judged by %s, want the repo's %s", r.Compiler, version)
				}
				return r
			}
			own, seeded := compile(false), compile(true)
			if !tc.gated {
				sameAsOwnBaseline(t, own, seeded, tc.seeded)
				return
			}
			if own.BaselineCached != 0 || seeded.BaselineCached != 0 {
				t.Errorf("%d and %d files' baseline were cached, want none at a tsconfig error", own.BaselineCached, seeded.BaselineCached)
			}
			if own.OverlaySkipped == "" || own.OverlaySkipped != seeded.OverlaySkipped {
				t.Errorf("skipped %q, seeded %q: want both to stop at the tsconfig", own.OverlaySkipped, seeded.OverlaySkipped)
			}
		})
	}
}

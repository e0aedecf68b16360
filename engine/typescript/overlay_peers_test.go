package typescript

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// A target that moved a dependency to its peers, under a manager that
// does not install peers: the peer is not linked unless the upgraded
// install still has it, and what that breaks is what the compile reports.
func TestOverlayPeersLeftOut(t *testing.T) {
	a := sharedAdapter(t)
	ctx := context.Background()
	leftOut := PeerRule{LeftOut: true, Why: "yarn does not install peers"}
	tests := []struct {
		name      string
		installed []string
		// companions move with the target.
		companions []string
		peers      PeerRule
		wantNew    []string
		missing    []string
		linked     string // how domkit is linked, "" for not at all
		notes      string
		// manifest replaces the repository's package.json.
		manifest string
	}{
		{
			name:      "left out: the re-exports vanish",
			installed: []string{"peerkit@1.0.0", "domkit@1.0.0"}, peers: leftOut,
			// skipLibCheck off: the library's declarations cannot find it either.
			wantNew: []string{"node_modules/peerkit/index.d.ts:2 TS2307", "src/app.test.ts:1 TS2305", "src/app.test.ts:1 TS2305"},
			missing: []string{"domkit ^2.0.0 peerkit 2.0.0"},
		},
		{
			name:      "installed by the manager at the peer's range",
			installed: []string{"peerkit@1.0.0", "domkit@1.0.0"},
			wantNew:   []string{}, linked: "domkit 2.0.0 fetched",
		},
		{
			name:      "kept by a package that does not move: linked as installed",
			installed: []string{"peerkit@1.0.0", "domkit@1.0.0", "otherkit@1.0.0"}, peers: leftOut,
			manifest: `{ "name": "peers", "private": true, "devDependencies": { "peerkit": "^1.0.0", "otherkit": "^1.0.0" } }`,
			wantNew:  []string{}, linked: "domkit 1.0.0 installed",
			notes: "peerkit peer-requires domkit ^2.0.0; the install keeps domkit@1.0.0",
		},
		{
			// Nothing the repository asks for needs otherkit: the install
			// keeps neither it nor the domkit it held.
			name:      "held only by a package nothing asks for: left out",
			installed: []string{"peerkit@1.0.0", "domkit@1.0.0", "otherkit@1.0.0"}, peers: leftOut,
			wantNew: []string{"node_modules/peerkit/index.d.ts:2 TS2307", "src/app.test.ts:1 TS2305", "src/app.test.ts:1 TS2305"},
			missing: []string{"domkit ^2.0.0 peerkit 2.0.0"},
		},
		{
			// storybook 8.6 depends on @testing-library/dom, which
			// @testing-library/react 16 peer-requires: the install has it
			// where the peer resolves.
			name:      "brought by another package the upgrade moves: linked at its range",
			installed: []string{"peerkit@1.0.0", "domkit@1.0.0"}, companions: []string{"storykit@2.0.0"}, peers: leftOut,
			wantNew: []string{}, linked: "domkit 2.0.0 fetched",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := fixtureRepo(t, "peers", tt.installed...)
			if tt.manifest != "" {
				if err := os.WriteFile(filepath.Join(repo, "package.json"), []byte(tt.manifest), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			reg := newFakeRegistry("domkit@1.0.0", "domkit@2.0.0")
			ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: repo, RepoRoot: repo, TempDir: t.TempDir(),
				Targets: linkedFixtures([]string{"peerkit@2.0.0"}), Companions: linkedFixtures(tt.companions), Fetch: reg.fetch, Peers: tt.peers})
			if err != nil {
				t.Fatal(err)
			}
			defer ov.Cleanup()
			r, err := a.Compile(ctx, CompileRequest{RepoRoot: repo, Overlay: ov})
			if err != nil {
				t.Fatal(err)
			}
			if got := diagLines(r.New); !reflect.DeepEqual(got, tt.wantNew) {
				t.Errorf("new diagnostics %q, want %q", got, tt.wantNew)
			}
			var missing []string
			for _, m := range ov.MissingPeers() {
				missing = append(missing, m.Name+" "+m.Range+" "+m.RequiredBy+" "+m.Version)
			}
			if !reflect.DeepEqual(missing, tt.missing) {
				t.Errorf("missing peers %q, want %q", missing, tt.missing)
			}
			linked := ""
			for _, l := range ov.Links() {
				if l.Name == "domkit" {
					linked = l.Name + " " + l.Version + " " + string(l.Origin)
				}
			}
			if linked != tt.linked {
				t.Errorf("domkit linked as %q, want %q", linked, tt.linked)
			}
			if notes := strings.Join(ov.Notes(), "\n"); tt.notes != "" && !strings.Contains(notes, tt.notes) {
				t.Errorf("notes %q, want %q", notes, tt.notes)
			}
		})
	}
}

// Which installed dependents keep their copy of a moved package: npm's
// dedupe keeps only a range the target does not meet; yarn keeps every
// lockfile entry still asked for, so a "*" stays on the installed line too,
// and the notes say so.
func TestOverlayCopiesTheManagerKeeps(t *testing.T) {
	ws := t.TempDir()
	installPkg(t, ws, "fakepkg", "1.0.0")
	write := func(name, body string) string {
		dir := filepath.Join(ws, "node_modules", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		return real
	}
	star := write("starkit", `{"name":"starkit","version":"1.0.0","dependencies":{"fakepkg":"*"}}`)
	old := write("oldkit", `{"name":"oldkit","version":"1.0.0","dependencies":{"fakepkg":"^1.0.0"}}`)
	for _, tt := range []struct {
		name  string
		rule  CopyRule
		keep  []string
		notes string
	}{
		{name: "npm dedupes what a range allows", keep: []string{old}},
		{name: "yarn keeps its entries", rule: CopyRule{KeepsLocked: true, Manager: "yarn"}, keep: []string{old, star},
			notes: "yarn keeps fakepkg 1.0.0 for starkit: the lockfile's entry for fakepkg@* stays"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, err := BuildOverlay(context.Background(), OverlayRequest{Workspace: ws, TempDir: t.TempDir(), Copies: tt.rule,
				Targets: linkedFixtures([]string{"fakepkg@2.0.0"})})
			if err != nil {
				t.Fatal(err)
			}
			defer o.Cleanup()
			var keep []string
			for _, k := range o.driverMapping().Keep {
				keep = append(keep, k.Dir)
			}
			sort.Strings(tt.keep)
			if !reflect.DeepEqual(keep, tt.keep) {
				t.Errorf("kept %q, want %q", keep, tt.keep)
			}
			notes := strings.Join(o.Notes(), "\n")
			if (tt.notes == "") != (notes == "") || !strings.Contains(notes, tt.notes) {
				t.Errorf("notes %q, want %q", notes, tt.notes)
			}
		})
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
)

// The copies the manager keeps: the overlay holds the copies the
// repository's own manager gives after the upgrade, whose lockfile
// semantics differ. Each case installs the fixture with that manager (from
// the test registry), checks, upgrades a copy the way fix does (the
// manifests edited, then the manager's install), and holds check's
// breaking evidence to tsc's new errors there.

func pnpmManager(t testing.TB) manager {
	return manager{name: "pnpm", argv0: []string{"node", filepath.Join(pinnedTool(t, "pnpm", "9.15.9"), "bin", "pnpm.cjs")}}
}

func managerNamed(t testing.TB, name string) manager {
	switch name {
	case "yarn":
		return yarnClassic(t)
	case "pnpm":
		return pnpmManager(t)
	case "yarn-berry":
		return manager{name: name, argv0: []string{"node", filepath.Join(pinnedTool(t, "@yarnpkg/cli-dist", "4.18.1"), "bin", "yarn.js")}}
	case "bun":
		return manager{name: name, argv0: []string{filepath.Join(pinnedTool(t, "@oven/bun-"+runtime.GOOS+"-"+bunArch(t), bunVersion), "bin", "bun")}}
	}
	return npmManager()
}

// berry runs yarn berry in dir, configured by the environment (it takes no
// registry flag): the test registry, node_modules laid out by its
// node-modules linker (the repository's .yarnrc.yml says so), caches under
// the private HOME, builds skipped.
func berry(t testing.TB, m manager, e env, dir string, args ...string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, ".yarnrc.yml")); err != nil {
		if err := os.WriteFile(filepath.Join(dir, ".yarnrc.yml"), []byte("nodeLinker: node-modules\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	argv := append(append([]string{}, m.argv0...), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(e.vars(), "YARN_NPM_REGISTRY_SERVER="+strings.TrimSuffix(e.registry, "/"), "YARN_UNSAFE_HTTP_WHITELIST=127.0.0.1",
		"YARN_CACHE_FOLDER="+filepath.Join(e.home, ".berry-cache"), "YARN_GLOBAL_FOLDER="+filepath.Join(e.home, ".berry"),
		"YARN_ENABLE_GLOBAL_CACHE=0", "YARN_ENABLE_TELEMETRY=0", "YARN_IGNORE_PATH=1", "YARN_ENABLE_IMMUTABLE_INSTALLS=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s in %s: %v\n%s", strings.Join(argv, " "), dir, err, out.String())
	}
}

// installOf runs the manager's install as fix does.
func installOf(t *testing.T, m manager, e env, dir string) {
	t.Helper()
	switch m.name {
	case "pnpm":
		m.run(t, e, dir, "install", "--no-frozen-lockfile")
	case "yarn-berry":
		berry(t, m, e, dir, "install", "--mode=skip-build")
	default:
		m.install(t, e, dir)
	}
}

// bump moves the packages as fix does: each manifest entry is set to the
// exact version (added to dependencies when the package is new), then the
// manager installs.
func bump(t *testing.T, m manager, e env, dir string, to map[string]string) {
	t.Helper()
	file := filepath.Join(dir, "package.json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var pkg map[string]any
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	for name, version := range to {
		placed := false
		for _, field := range []string{"dependencies", "devDependencies"} {
			if deps, ok := pkg[field].(map[string]any); ok {
				if _, has := deps[name]; has {
					deps[name] = version
					placed = true
				}
			}
		}
		if !placed {
			deps, _ := pkg["dependencies"].(map[string]any)
			if deps == nil {
				deps = map[string]any{}
				pkg["dependencies"] = deps
			}
			deps[name] = version
		}
	}
	out, err := json.MarshalIndent(pkg, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	installOf(t, m, e, dir)
}

// installWithLockedRange installs dir with m so that every range of pkg in
// the lockfile resolves to version, as a lockfile written before a newer
// major was published does. npm and pnpm dedupe a fresh install that way
// on their own; a fresh yarn install resolves each range to its highest
// version, so berry locks it with its own set resolution, and yarn 1's
// lockfile is written once under a resolution that the manifest then drops
// (yarn keeps the entries it wrote).
func installWithLockedRange(t *testing.T, m manager, e env, dir, pkg, version string) {
	t.Helper()
	installLocked(t, m, e, dir, pkg, pkg+"@npm:*", version)
}

// installLocked is installWithLockedRange for one path or descriptor:
// yarn 1's resolutions key (a package, or a glob of the dependency path
// such as "@types/webauth/**/@types/webcore") and berry's descriptor
// ("@types/webcore@npm:^5.0.0").
func installLocked(t *testing.T, m manager, e env, dir, key, descriptor, version string) {
	t.Helper()
	switch m.name {
	case "yarn-berry":
		installOf(t, m, e, dir)
		berry(t, m, e, dir, "set", "resolution", descriptor, "npm:"+version)
		installOf(t, m, e, dir)
		return
	case "yarn":
	default:
		installOf(t, m, e, dir)
		return
	}
	file := filepath.Join(dir, "package.json")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var manifest map[string]any
	if err := json.Unmarshal(orig, &manifest); err != nil {
		t.Fatal(err)
	}
	manifest["resolutions"] = map[string]string{key: version}
	with, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, with, 0o644); err != nil {
		t.Fatal(err)
	}
	m.install(t, e, dir)
	if err := os.WriteFile(file, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	m.install(t, e, dir)
}

// @types/response-time and @types/swagger-ui-express depend on
// @types/express "*". After express 4 → 5 with @types/express 5, yarn
// (1 and berry) and bun keep their lockfile entry on 4 (nested under
// each), so their handlers are express 4's and the two calls that pass
// them break; npm and pnpm's install dedupe "*" to 5 and nothing breaks.
func TestCheckCopiesTheManagerKeeps(t *testing.T) {
	for _, tt := range []struct {
		manager string
		// evidence are the breaking errors: the two calls under yarn.
		evidence int
	}{
		{manager: "yarn", evidence: 2},
		{manager: "yarn-berry", evidence: 2},
		{manager: "bun", evidence: 2},
		{manager: "npm", evidence: 0},
		{manager: "pnpm", evidence: 0},
	} {
		t.Run(tt.manager, func(t *testing.T) {
			e := checkEnv(t)
			m := managerNamed(t, tt.manager)
			dir := copyFixture(t, "copies-app")
			installWithLockedRange(t, m, e, dir, "@types/express", "4.17.21")
			r := run(t, e, dir, "check", "express", "--target", "express@5.1.0", "--json")
			var rep model.CheckReport
			decode(t, r, &rep)
			p := packageReport(t, rep, "express")
			evidence := 0
			for _, f := range p.Findings {
				if f.Severity == model.Breaking {
					evidence += len(f.Evidence)
				}
			}
			if evidence != tt.evidence {
				t.Errorf("%d breaking errors, want %d: %+v", evidence, tt.evidence, listed(p))
			}
			note := strings.Join(p.Notes, "\n")
			keeper := strings.TrimSuffix(tt.manager, "-berry")
			kept := keeper + " keeps @types/express 4.17.21 for @types/response-time, @types/swagger-ui-express: the lockfile's entry for @types/express@* stays"
			keeps := tt.evidence > 0
			if keeps != strings.Contains(note, kept) {
				t.Errorf("notes %q; want the kept copies named only where the manager keeps them (%q)", note, kept)
			}
			after := installedCopy(t, dir)
			bump(t, m, e, after, map[string]string{"express": "5.1.0", "@types/express": "5.0.0"})
			nested := filepath.Join(after, "node_modules", "@types", "response-time", "node_modules", "@types", "express")
			if _, err := os.Stat(nested); (err == nil) != keeps {
				t.Fatalf("%s nested @types/express under @types/response-time: %v; the fixture no longer says what it is for", tt.manager, err == nil)
			}
			assertTruth(t, p, dir, after)
		})
	}
}

// A peer the plan's other packages bring: react 18 → 19 moves
// @testing-library/react 15 → 16, which peer-requires @testing-library/dom,
// and storybook 8.0 → 8.6, which depends on it. yarn adds no peer, but it
// installs storybook's dependency where the peer resolves, so nothing is
// missing: installing check's own plan gives what check said.
func TestCheckPeerAnotherMoverBrings(t *testing.T) {
	for _, name := range []string{"yarn", "npm"} {
		t.Run(name, func(t *testing.T) {
			e := checkEnv(t)
			m := managerNamed(t, name)
			dir, p := checkReact19(t, e, m, "peers-hoisted")
			to, moves := planMoves(p)
			want := []string{"@testing-library/react 15.0.7 → 16.3.0", "@types/react 18.3.12 → 19.1.2", "react-dom 18.3.1 → 19.1.0", "storybook 8.0.0 → 8.6.14"}
			if strings.Join(moves, "; ") != strings.Join(want, "; ") {
				t.Errorf("the plan moves %q, want %q (no peer to add)", moves, want)
			}
			after := installedCopy(t, dir)
			bump(t, m, e, after, to)
			assertTruth(t, p, dir, after)
		})
	}
}

// A range the lockfile already holds: @types/webauth's @types/webserver
// "*" locked @types/webcore ^5.0.0 at 5.0.0 while 5.1.0 is the newest (as
// @types/passport's @types/express "*" held @types/express-serve-static-core
// ^5.0.0 on cypress-realworld-app). The upgrade to @types/webserver 5.0.6,
// which depends on ^5.0.0, gets that entry from yarn, so only the removed
// Request#param breaks; npm resolves the range afresh, to 5.1.0, whose
// list-valued parameters break the second function too.
func TestCheckRangesTheLockfileHolds(t *testing.T) {
	for _, tt := range []struct {
		manager  string
		evidence int
	}{
		{manager: "yarn", evidence: 1},
		{manager: "yarn-berry", evidence: 1},
		{manager: "npm", evidence: 2},
	} {
		t.Run(tt.manager, func(t *testing.T) {
			e := checkEnv(t)
			m := managerNamed(t, tt.manager)
			dir := copyFixture(t, "locked-app")
			installLocked(t, m, e, dir, "@types/webauth/**/@types/webcore", "@types/webcore@npm:^5.0.0", "5.0.0")
			r := run(t, e, dir, "check", "@types/webserver", "--target", "@types/webserver@5.0.6", "--json")
			var rep model.CheckReport
			decode(t, r, &rep)
			p := packageReport(t, rep, "@types/webserver")
			evidence := 0
			for _, f := range p.Findings {
				if f.Severity == model.Breaking {
					evidence += len(f.Evidence)
				}
			}
			if evidence != tt.evidence {
				t.Errorf("%d breaking errors, want %d: %+v", evidence, tt.evidence, listed(p))
			}
			after := installedCopy(t, dir)
			bump(t, m, e, after, map[string]string{"@types/webserver": "5.0.6"})
			// The copy @types/webserver 5 resolves: nested under it, else hoisted.
			b, err := os.ReadFile(filepath.Join(after, "node_modules", "@types", "webserver", "node_modules", "@types", "webcore", "package.json"))
			if err != nil {
				b, err = os.ReadFile(filepath.Join(after, "node_modules", "@types", "webcore", "package.json"))
			}
			if err != nil {
				t.Fatalf("%s: no @types/webcore for @types/webserver 5: %v", tt.manager, err)
			}
			if locked := strings.Contains(string(b), `"version": "5.0.0"`); locked != (tt.evidence == 1) {
				t.Fatalf("%s installed %s; the fixture no longer says what it is for", tt.manager, b)
			}
			assertTruth(t, p, dir, after)
		})
	}
}

// A peer a moved package brings along: react 18 → 19 moves a11y-kit 1 → 2,
// which depends on a11y-test, which depends on @testing-library/dom (as
// @storybook/addon-a11y 8.6 brings it through @storybook/test on
// bulletproof-react). yarn adds no peer, but the install has dom where
// @testing-library/react 16's peer resolves: nothing is missing.
func TestCheckPeerAMoverBringsAlong(t *testing.T) {
	for _, name := range []string{"yarn", "npm"} {
		t.Run(name, func(t *testing.T) {
			e := checkEnv(t)
			m := managerNamed(t, name)
			dir, p := checkReact19(t, e, m, "peers-transitive")
			to, moves := planMoves(p)
			want := []string{"@testing-library/react 15.0.7 → 16.3.0", "@types/react 18.3.12 → 19.1.2", "a11y-kit 1.0.0 → 2.0.0", "react-dom 18.3.1 → 19.1.0"}
			if strings.Join(moves, "; ") != strings.Join(want, "; ") {
				t.Errorf("the plan moves %q, want %q (no peer to add)", moves, want)
			}
			after := installedCopy(t, dir)
			bump(t, m, e, after, to)
			if _, err := os.Stat(filepath.Join(after, "node_modules", "@testing-library", "dom")); err != nil {
				t.Fatalf("%s: no @testing-library/dom after the upgrade; the fixture no longer says what it is for", name)
			}
			assertTruth(t, p, dir, after)
		})
	}
}

// A peer only the moved packages' old releases kept: @testing-library/dom 9
// is installed for @testing-library/react 15 and for docs-core, which only
// docs-kit 1 depends on (as @storybook/addon-docs 8.0 under
// addon-essentials 8.0). react 19 moves both: docs-core goes with docs-kit
// 1, so under yarn nothing keeps dom for @testing-library/react 16's peer,
// and the re-exported queries break as tsc says; npm adds the peer.
func TestCheckPeerTheMoversLeaveBehind(t *testing.T) {
	for _, tt := range []struct {
		manager string
		adds    bool
	}{
		{manager: "yarn", adds: true},
		{manager: "npm", adds: false},
	} {
		t.Run(tt.manager, func(t *testing.T) {
			e := checkEnv(t)
			m := managerNamed(t, tt.manager)
			dir, p := checkReact19(t, e, m, "peers-orphan")
			to := map[string]string{"react": "19.1.0"}
			adds := false
			for _, c := range p.Companions.Companions {
				switch {
				case c.Name == "@testing-library/dom":
					adds = true
				case c.To != "":
					to[c.Name] = c.To
				}
			}
			if adds != tt.adds {
				t.Errorf("%s: adds @testing-library/dom %v, want %v: %+v", tt.manager, adds, tt.adds, p.Companions.Companions)
			}
			if to["docs-kit"] != "2.0.0" {
				t.Fatalf("the plan moves %v; the fixture no longer says what it is for", to)
			}
			after := installedCopy(t, dir)
			bump(t, m, e, after, to)
			assertTruth(t, p, dir, after)
		})
	}
}

// checkReact19 installs a copy of fixture with m and checks react 18 → 19
// there: the copy and react's report.
func checkReact19(t *testing.T, e env, m manager, fixture string) (string, model.PackageReport) {
	t.Helper()
	dir := copyFixture(t, fixture)
	m.install(t, e, dir)
	r := run(t, e, dir, "check", "react", "--target", "react@19.1.0", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	return dir, packageReport(t, rep, "react")
}

// planMoves is what react 19's plan moves, as the versions to install and
// as sorted "name from → to" lines.
func planMoves(p model.PackageReport) (map[string]string, []string) {
	to := map[string]string{"react": "19.1.0"}
	var moves []string
	for _, c := range p.Companions.Companions {
		if c.To != "" {
			to[c.Name] = c.To
			moves = append(moves, c.Name+" "+c.From+" → "+c.To)
		}
	}
	sort.Strings(moves)
	return to, moves
}

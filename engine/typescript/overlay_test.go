package typescript

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/uptide/uptide/engine/semver"
)

var compileFixtures = filepath.Join("testdata", "compile")

// fixturePkg is an extracted package of the compile fixtures.
func fixturePkg(name, version string) string {
	return filepath.Join(compileFixtures, name+"-"+version)
}

// installPkg copies a fixture package into dir/node_modules/<name>, as an
// install would.
func installPkg(t *testing.T, dir, name, version string) {
	t.Helper()
	src := copyDir(t, fixturePkg(name, version))
	dst := filepath.Join(dir, "node_modules", filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(src, dst); err != nil {
		t.Fatal(err)
	}
}

// fakeRegistry serves the fixture packages by range and records what it
// was asked for.
type fakeRegistry struct {
	mu       sync.Mutex
	versions map[string][]string
	asked    []string
}

func newFakeRegistry(pkgs ...string) *fakeRegistry {
	r := &fakeRegistry{versions: map[string][]string{}}
	for _, p := range pkgs {
		name, version, _ := strings.Cut(p, "@")
		r.versions[name] = append(r.versions[name], version)
	}
	return r
}

func (r *fakeRegistry) fetch(ctx context.Context, name, rng string) (string, string, error) {
	r.mu.Lock()
	r.asked = append(r.asked, name+"@"+rng)
	r.mu.Unlock()
	v, ok := semver.MaxSatisfying(r.versions[name], rng)
	if !ok {
		return "", "", errors.New("no version of " + name + " matches " + rng)
	}
	abs, err := filepath.Abs(fixturePkg(name, v))
	return abs, v, err
}

func (r *fakeRegistry) calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.asked...)
}

func linkSummary(links []OverlayLink) []string {
	var out []string
	for _, l := range links {
		s := l.Name + "@" + l.Version + " " + string(l.Origin)
		if l.RequiredBy != "" {
			s += " for " + l.RequiredBy + " " + l.Range
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func TestBuildOverlay(t *testing.T) {
	tests := []struct {
		name      string
		installed []string // name@version in the consumer's node_modules
		targets   []string
		companion []string
		want      []string
	}{
		{
			name:    "target alone, consumer's helper outside the range",
			targets: []string{"fakepkg@2.0.0"}, installed: []string{"helper@1.0.0"},
			want: []string{"fakepkg@2.0.0 target"},
		},
		{
			name:    "consumer's helper satisfies the target's range",
			targets: []string{"fakepkg@2.0.0"}, installed: []string{"helper@2.0.0"},
			want: []string{"fakepkg@2.0.0 target", "helper@2.0.0 installed for fakepkg ^2.0.0"},
		},
		{
			name:    "a group member is linked at its target, never as a dependency",
			targets: []string{"fakepkg@2.0.0", "helper@1.0.0"}, installed: []string{"helper@2.0.0"},
			want: []string{"fakepkg@2.0.0 target", "helper@1.0.0 target"},
		},
		{
			name:    "companion",
			targets: []string{"fakepkg@1.0.0"}, companion: []string{"helper@2.0.0"},
			want: []string{"fakepkg@1.0.0 target", "helper@2.0.0 companion"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			for _, p := range tt.installed {
				n, v, _ := strings.Cut(p, "@")
				installPkg(t, ws, n, v)
			}
			toLinked := func(list []string) []LinkedPackage {
				var out []LinkedPackage
				for _, p := range list {
					n, v, _ := strings.Cut(p, "@")
					out = append(out, LinkedPackage{Name: n, Dir: fixturePkg(n, v)})
				}
				return out
			}
			o, err := BuildOverlay(context.Background(), OverlayRequest{Workspace: ws, Targets: toLinked(tt.targets), Companions: toLinked(tt.companion), TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if got := linkSummary(o.Links()); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("links\n got %q\nwant %q", got, tt.want)
			}
			for _, l := range o.Links() {
				at := filepath.Join(o.Root, "node_modules", filepath.FromSlash(l.Name), "package.json")
				if v, err := manifestVersion(filepath.Dir(at), l.Name); err != nil || v != l.Version {
					t.Errorf("%s in the overlay: version %q, %v", l.Name, v, err)
				}
			}
			if err := o.Cleanup(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(o.Root); !os.IsNotExist(err) {
				t.Errorf("overlay directory left behind: %v", err)
			}
			for _, p := range tt.targets {
				n, v, _ := strings.Cut(p, "@")
				if _, err := os.Stat(filepath.Join(fixturePkg(n, v), "package.json")); err != nil {
					t.Errorf("cleanup removed the linked target: %v", err)
				}
			}
		})
	}
}

func TestBuildOverlayRejects(t *testing.T) {
	tests := []struct {
		name    string
		req     OverlayRequest
		message string
	}{
		{"no target", OverlayRequest{}, "no target"},
		{"twice", OverlayRequest{Targets: []LinkedPackage{{Name: "fakepkg", Dir: fixturePkg("fakepkg", "1.0.0")}}, Companions: []LinkedPackage{{Name: "fakepkg", Dir: fixturePkg("fakepkg", "2.0.0")}}}, "given twice"},
		{"wrong manifest", OverlayRequest{Targets: []LinkedPackage{{Name: "zod", Dir: fixturePkg("fakepkg", "1.0.0")}}}, `holds "fakepkg", not zod`},
		{"no manifest", OverlayRequest{Targets: []LinkedPackage{{Name: "fakepkg", Dir: compileFixtures}}}, "package.json"},
		{"bad name", OverlayRequest{Targets: []LinkedPackage{{Name: "../x", Dir: fixturePkg("fakepkg", "1.0.0")}}}, "not an npm package name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			tt.req.TempDir = parent
			_, err := BuildOverlay(context.Background(), tt.req)
			if err == nil || !strings.Contains(err.Error(), tt.message) {
				t.Fatalf("error %v, want one containing %q", err, tt.message)
			}
			if left, _ := os.ReadDir(parent); len(left) != 0 {
				t.Errorf("a failed build left %d entries behind", len(left))
			}
		})
	}
}

func TestOverlayResolve(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name       string
		targets    []string // default fakepkg@2.0.0
		installed  []string
		registry   []string // nil: no fetch function
		missing    []UnresolvedImport
		progress   bool
		want       []string
		unresolved []string // "importer specifier: reason fragment"
		fetched    []string
	}{
		{
			name:     "fetched at the highest version in the declared range",
			registry: []string{"helper@1.0.0", "helper@2.0.0"}, installed: []string{"helper@1.0.0"},
			missing:  []UnresolvedImport{{Importer: "fakepkg", Specifier: "helper"}},
			progress: true,
			want:     []string{"fakepkg@2.0.0 target", "helper@2.0.0 fetched for fakepkg ^2.0.0"},
			fetched:  []string{"helper@^2.0.0"},
		},
		{
			name:      "nothing can fetch it",
			installed: []string{"helper@1.0.0"},
			missing:   []UnresolvedImport{{Importer: "fakepkg", Specifier: "helper/sub"}},
			want:      []string{"fakepkg@2.0.0 target"},
			unresolved: []string{
				"fakepkg helper/sub: helper ^2.0.0 is not installed at a matching version",
			},
		},
		{
			name:       "no release in range",
			registry:   []string{"helper@1.0.0"},
			missing:    []UnresolvedImport{{Importer: "fakepkg", Specifier: "helper"}},
			want:       []string{"fakepkg@2.0.0 target"},
			unresolved: []string{"fakepkg helper: helper ^2.0.0 could not be fetched: no version of helper matches ^2.0.0"},
			fetched:    []string{"helper@^2.0.0"},
		},
		{
			name:       "undeclared and not installed",
			registry:   []string{"helper@2.0.0"},
			missing:    []UnresolvedImport{{Importer: "fakepkg", Specifier: "left-pad"}},
			want:       []string{"fakepkg@2.0.0 target"},
			unresolved: []string{"fakepkg left-pad: fakepkg does not declare left-pad"},
		},
		{
			name:      "undeclared but installed: served as the consumer's compile serves it",
			targets:   []string{"helper@2.0.0"},
			installed: []string{"fakepkg@1.0.0"},
			registry:  []string{},
			missing:   []UnresolvedImport{{Importer: "helper", Specifier: "fakepkg"}},
			progress:  true,
			want:      []string{"fakepkg@1.0.0 installed for helper ", "helper@2.0.0 target"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			for _, p := range tt.installed {
				n, v, _ := strings.Cut(p, "@")
				installPkg(t, ws, n, v)
			}
			req := OverlayRequest{Workspace: ws, TempDir: t.TempDir()}
			if tt.targets == nil {
				tt.targets = []string{"fakepkg@2.0.0"}
			}
			for _, p := range tt.targets {
				n, v, _ := strings.Cut(p, "@")
				req.Targets = append(req.Targets, LinkedPackage{Name: n, Dir: fixturePkg(n, v)})
			}
			var reg *fakeRegistry
			if tt.registry != nil {
				reg = newFakeRegistry(tt.registry...)
				req.Fetch = reg.fetch
			}
			o, err := BuildOverlay(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Cleanup()
			progress, err := o.Resolve(ctx, tt.missing)
			if err != nil {
				t.Fatal(err)
			}
			if progress != tt.progress {
				t.Errorf("progress %v, want %v", progress, tt.progress)
			}
			if got := linkSummary(o.Links()); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("links\n got %q\nwant %q", got, tt.want)
			}
			un := o.Unresolved()
			if len(un) != len(tt.unresolved) {
				t.Fatalf("unresolved %+v, want %q", un, tt.unresolved)
			}
			for i, u := range un {
				got := u.Importer + " " + u.Specifier + ": " + u.Reason
				if !strings.HasPrefix(got, tt.unresolved[i]) {
					t.Errorf("unresolved %q, want it to start with %q", got, tt.unresolved[i])
				}
			}
			if reg != nil {
				if got := reg.calls(); !reflect.DeepEqual(got, tt.fetched) && !(len(got) == 0 && len(tt.fetched) == 0) {
					t.Errorf("fetched %q, want %q", got, tt.fetched)
				}
			}
			// A second round asks nothing again.
			if reg != nil {
				before := len(reg.calls())
				if _, err := o.Resolve(ctx, tt.missing); err != nil {
					t.Fatal(err)
				}
				if after := len(reg.calls()); after != before {
					t.Errorf("a second round fetched again (%d calls, then %d)", before, after)
				}
			}
		})
	}
}

func TestOverlayResolveCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	o, err := BuildOverlay(ctx, OverlayRequest{Targets: []LinkedPackage{{Name: "fakepkg", Dir: fixturePkg("fakepkg", "2.0.0")}}, TempDir: t.TempDir(),
		Fetch: func(ctx context.Context, name, rng string) (string, string, error) {
			cancel()
			return "", "", ctx.Err()
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Cleanup()
	if _, err := o.Resolve(ctx, []UnresolvedImport{{Importer: "fakepkg", Specifier: "helper"}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

func TestOverlayNames(t *testing.T) {
	tests := []struct{ spec, pkg, types string }{
		{"zod", "zod", "@types/zod"},
		{"zod/v4/core", "zod", "@types/zod"},
		{"@aws-sdk/client-s3", "@aws-sdk/client-s3", "@types/aws-sdk__client-s3"},
		{"@aws-sdk/client-s3/dist/x", "@aws-sdk/client-s3", "@types/aws-sdk__client-s3"},
		{"@scope", "@scope", "@types/scope"},
	}
	for _, tt := range tests {
		if got := packageName(tt.spec); got != tt.pkg {
			t.Errorf("packageName(%q) = %q, want %q", tt.spec, got, tt.pkg)
		}
		if got := typesName(tt.pkg); got != tt.types {
			t.Errorf("typesName(%q) = %q, want %q", tt.pkg, got, tt.types)
		}
		if tt.pkg != "@scope" {
			if back, ok := runtimeOfTypes(tt.types); !ok || back != tt.pkg {
				t.Errorf("runtimeOfTypes(%q) = %q, %v", tt.types, back, ok)
			}
		}
	}
	if _, ok := runtimeOfTypes("react"); ok {
		t.Error("runtimeOfTypes accepted a runtime name")
	}
}

func TestOverlayMapping(t *testing.T) {
	ws := t.TempDir()
	installPkg(t, ws, "helper", "2.0.0")
	types := t.TempDir()
	if err := os.WriteFile(filepath.Join(types, "package.json"), []byte(`{"name":"@types/aws-sdk__core","version":"1.0.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := BuildOverlay(context.Background(), OverlayRequest{Workspace: ws, TempDir: t.TempDir(),
		Targets:    []LinkedPackage{{Name: "fakepkg", Dir: fixturePkg("fakepkg", "2.0.0")}},
		Companions: []LinkedPackage{{Name: "@types/aws-sdk__core", Dir: types}}})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Cleanup()
	m := o.driverMapping()
	if want := []string{"fakepkg", "@types/aws-sdk__core", "@aws-sdk/core"}; !reflect.DeepEqual(m.Packages, want) {
		t.Errorf("mapped names %q, want %q", m.Packages, want)
	}
	var remapped []string
	for _, r := range m.Remap {
		remapped = append(remapped, r.Name)
	}
	// The consumer's helper keeps resolving its own imports where it is
	// installed.
	if want := []string{"fakepkg", "@types/aws-sdk__core"}; !reflect.DeepEqual(remapped, want) {
		t.Errorf("remapped %q, want %q", remapped, want)
	}
}

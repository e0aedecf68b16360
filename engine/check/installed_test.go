package check

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/uptide/uptide/engine/typescript"
)

// The overlay links the caller's install of a package only at the version
// it would link from the registry: the copy the workspace resolves there,
// its own or hoisted above it, by its real path.
func TestOverlayLinksTheCallersInstallAtTheSameVersion(t *testing.T) {
	pkg := func(dir, version string) string {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"fakepkg","version":"`+version+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		return real
	}
	fetched := pkg(t.TempDir(), "2.0.0")
	list := []typescript.LinkedPackage{{Name: "fakepkg", Dir: fetched}}

	hoisted := t.TempDir()
	store := pkg(filepath.Join(hoisted, "node_modules", ".pnpm", "fakepkg@2.0.0", "node_modules", "fakepkg"), "2.0.0")
	if err := os.Symlink(store, filepath.Join(hoisted, "node_modules", "fakepkg")); err != nil {
		t.Fatal(err)
	}
	own := t.TempDir()
	pkg(filepath.Join(own, "node_modules", "fakepkg"), "1.0.0")
	ownDir := pkg(filepath.Join(own, "packages", "app", "node_modules", "fakepkg"), "2.0.0")
	other := t.TempDir()
	pkg(filepath.Join(other, "node_modules", "fakepkg"), "1.9.0")

	for _, tt := range []struct {
		name, root string
		want       []typescript.LinkedPackage
	}{
		{"hoisted, through the manager's link", hoisted, []typescript.LinkedPackage{{Name: "fakepkg", Dir: store, Kept: true}}},
		{"the workspace's own", own, []typescript.LinkedPackage{{Name: "fakepkg", Dir: ownDir, Kept: true}}},
		{"another version", other, list},
		{"not installed", t.TempDir(), list},
		{"no install yet", "", list},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := installedCopies(tt.root, "packages/app", list); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("linked %+v, want %+v", got, tt.want)
			}
		})
	}
}

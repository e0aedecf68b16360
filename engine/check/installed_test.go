package check

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/uptide/uptide/engine/typescript"
)

// The overlay links the caller's install of a package only at the version
// it would link from the registry, and only when check's compiles run in
// drivers that outlive it (the fix runner's, which keep the parsed copy).
func TestOverlayLinksTheCallersInstallAtTheSameVersion(t *testing.T) {
	pkg := func(version string) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"fakepkg","version":"`+version+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	fetched, same, other := pkg("2.0.0"), pkg("2.0.0"), pkg("1.9.0")
	list := []typescript.LinkedPackage{{Name: "fakepkg", Dir: fetched}}
	installedAt := func(dir string) func(ws, name, version string) string {
		return func(ws, name, version string) string {
			if ws != "packages/app" || name != "fakepkg" || version != "2.0.0" {
				t.Errorf("asked for %s@%s in %q", name, version, ws)
			}
			return dir
		}
	}
	drivers := typescript.NewDrivers()
	defer drivers.Close()
	for _, tt := range []struct {
		name      string
		installed func(ws, name, version string) string
		drivers   *typescript.Drivers
		want      []typescript.LinkedPackage
	}{
		{"the same version", installedAt(same), drivers, []typescript.LinkedPackage{{Name: "fakepkg", Dir: same, Kept: true}}},
		{"another version", installedAt(other), drivers, list},
		{"not installed yet", installedAt(""), drivers, list},
		{"no drivers of the caller's", installedAt(same), nil, list},
		{"no install", nil, drivers, list},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &checker{opts: Options{Installed: tt.installed, Drivers: tt.drivers}}
			if got := c.installedCopies("packages/app", list); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("linked %+v, want %+v", got, tt.want)
			}
		})
	}
}

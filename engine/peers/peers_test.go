package peers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func settings(kv map[string]string) Setting {
	return func(key string) (string, string, bool) {
		v, ok := kv[key]
		return v, "/repo/.npmrc:1", ok
	}
}

func TestOf(t *testing.T) {
	dir := t.TempDir()
	lockOn := write(t, dir, "on.yaml", "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n  .: {}\n")
	lockOff := write(t, dir, "off.yaml", "lockfileVersion: '6.0'\n\nsettings:\n  autoInstallPeers: false\n\npackages: {}\n")
	lockNone := write(t, dir, "none.yaml", "lockfileVersion: 5.4\n\nimporters: {}\n")
	wsOff := t.TempDir()
	write(t, wsOff, "pnpm-workspace.yaml", "packages:\n  - 'packages/*'\nautoInstallPeers: false\n")
	bunOff := t.TempDir()
	write(t, bunOff, "bunfig.toml", "[install]\n# no peers\npeer = false\n")
	bunOn := t.TempDir()
	write(t, bunOn, "bunfig.toml", "[install]\nexact = true\n")
	tests := []struct {
		name     string
		manager  string
		in       Input
		installs bool
		why      string
	}{
		{"npm 7+ installs peers", "npm", Input{LockfileFormat: "npm-v3"}, true, "npm installs missing peers"},
		{"npm 6 lockfile", "npm", Input{LockfileFormat: "npm-v1"}, false, "npm 6 does not install peers"},
		{"packageManager npm@6", "npm", Input{ManagerField: "npm@6.14.18"}, false, "npm 6"},
		{"legacy-peer-deps", "npm", Input{LockfileFormat: "npm-v3", Setting: settings(map[string]string{"legacy-peer-deps": "true"})}, false, "legacy-peer-deps"},
		{"legacy-peer-deps=false", "npm", Input{LockfileFormat: "npm-v3", Setting: settings(map[string]string{"legacy-peer-deps": "false"})}, true, "npm installs"},
		{"yarn 1", "yarn", Input{LockfileFormat: "yarn-v1"}, false, "yarn does not install peers"},
		{"yarn berry", "yarn", Input{LockfileFormat: "yarn-berry", ManagerField: "yarn@4.5.0"}, false, "yarn does not install peers"},
		{"pnpm lockfile on", "pnpm", Input{Lockfile: lockOn, LockfileFormat: "pnpm-v9", Setting: settings(map[string]string{"auto-install-peers": "false"})}, true, "auto-install-peers"},
		{"pnpm lockfile off", "pnpm", Input{Lockfile: lockOff, LockfileFormat: "pnpm-v6"}, false, "auto-install-peers is off"},
		{"pnpm 7 lockfile without settings", "pnpm", Input{Lockfile: lockNone, LockfileFormat: "pnpm-v5"}, false, "off"},
		{"pnpm .npmrc off", "pnpm", Input{ManagerField: "pnpm@9.1.0", Setting: settings(map[string]string{"auto-install-peers": "false"})}, false, "off"},
		{"pnpm-workspace.yaml off", "pnpm", Input{Root: wsOff, ManagerField: "pnpm@10.2.0"}, false, "off"},
		{"pnpm 8 default", "pnpm", Input{ManagerField: "pnpm@8.15.0"}, true, "installs"},
		{"pnpm 7 default", "pnpm", Input{ManagerField: "pnpm@7.33.0"}, false, "off"},
		{"bun default", "bun", Input{Root: bunOn}, true, "bun installs"},
		{"bun peer = false", "bun", Input{Root: bunOff}, false, "install.peer = false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := For(tt.manager).Of(tt.in)
			if p.Installs != tt.installs || !strings.Contains(p.Why, tt.why) || p.Source == "" {
				t.Errorf("Of = %+v, want installs %v and %q", p, tt.installs, tt.why)
			}
		})
	}
}

func FuzzLockSetting(f *testing.F) {
	f.Add([]byte("lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n\nimporters:\n"))
	f.Add([]byte("settings: [1, 2]\npackages:\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		pnpmLockSetting(b)
		bunPeerSetting(b)
	})
}

package testregistry

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealNpmInstallsCommittedLockfile runs the real npm against the
// registry: `npm ci` from fixtures/repos/npm-v3 must accept every tarball
// against the integrity recorded when the lockfile was written, and npm's
// default audit must not fail on the registry's audit endpoint. This is the
// guard that the packer's bytes never drift (regen.sh --check covers the
// other managers).
func TestRealNpmInstallsCommittedLockfile(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: npm installs for real")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("npm is not on PATH: install Node.js (with npm) to run the registry's real-install test")
	}
	reg, url := startFixtures(t)

	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	if err := os.CopyFS(repo, os.DirFS("../../../fixtures/repos/npm-v3")); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	npmrc := filepath.Join(home, ".npmrc")
	if err := os.WriteFile(npmrc, []byte("registry="+url+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// The lockfile's resolved URLs name the port regen.sh used;
	// replace-registry-host=always sends those fetches to this registry.
	cmd := exec.Command(npm, "ci", "--ignore-scripts", "--replace-registry-host=always", "--fund=false")
	cmd.Dir = repo
	cmd.Env = append(cleanEnv(),
		"HOME="+home,
		"npm_config_userconfig="+npmrc,
		"npm_config_registry="+url,
		"npm_config_cache="+filepath.Join(dir, "cache"),
		"npm_config_update_notifier=false",
		"npm_config_fetch_retries=0",
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm ci against the test registry: %v\n%s", err, out)
	}

	if reg.RequestsTo("/react/-/react-18.3.1.tgz") != 1 {
		t.Errorf("npm did not fetch react's tarball from the test registry; log: %+v", reg.Log())
	}
	audited := false
	for _, r := range reg.Log() {
		audited = audited || (r.Method == "POST" && strings.Contains(r.Path, "/security/") && r.Status == 200)
	}
	if !audited {
		t.Error("npm's audit did not reach the registry's audit endpoint")
	}

	tests := []struct {
		path string
		want string
	}{
		{"node_modules/react", "18.3.1"},
		{"node_modules/@aws-sdk/core", "3.500.0"},
		{"node_modules/legacy-lodash", "4.17.20"},
		{"node_modules/zod", "3.22.4"},
		{"packages/web/node_modules/zod", "3.25.76"},
	}
	for _, tt := range tests {
		raw, err := os.ReadFile(filepath.Join(repo, tt.path, "package.json"))
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		var m struct{ Version string }
		if err := json.Unmarshal(raw, &m); err != nil || m.Version != tt.want {
			t.Errorf("%s: version %q (%v), want %s", tt.path, m.Version, err, tt.want)
		}
	}
}

// cleanEnv drops npm and yarn settings inherited from the developer's shell,
// so the test registry is the only one npm knows about.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k := strings.ToLower(kv[:max(strings.IndexByte(kv, '='), 0)])
		if strings.HasPrefix(k, "npm_config_") || strings.HasPrefix(k, "yarn_") || k == "home" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

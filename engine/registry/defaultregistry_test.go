package registry

import (
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultRegistryFromNpm asks the real npm once, then proves the answer
// is remembered: with npm gone from PATH the same registry comes back.
func TestDefaultRegistryFromNpm(t *testing.T) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("this test needs npm on PATH (it asks `npm config get registry`): install Node.js with npm")
	}
	cacheDir := t.TempDir()
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + filepath.Dir(npm), "UPTIDE_CACHE_DIR=" + cacheDir}
	c, err := LoadConfig(t.TempDir(), env)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(c.DefaultRegistry)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || !strings.HasSuffix(u.Path, "/") {
		t.Fatalf("DefaultRegistry from npm = %q, want an http(s) URL ending in /", c.DefaultRegistry)
	}
	cached, err := os.ReadFile(filepath.Join(cacheDir, "registry", defaultRegistryFile))
	if err != nil || strings.TrimSpace(string(cached)) != c.DefaultRegistry {
		t.Fatalf("default registry not cached: %q, %v", cached, err)
	}

	again, err := LoadConfig(t.TempDir(), []string{"HOME=" + home, "PATH=", "UPTIDE_CACHE_DIR=" + cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	if again.DefaultRegistry != c.DefaultRegistry {
		t.Fatalf("second load did not use the cached answer: %q", again.DefaultRegistry)
	}
}

func TestNoNpmNoRegistryIsAClearError(t *testing.T) {
	c, err := LoadConfig(t.TempDir(), []string{"HOME=" + t.TempDir(), "PATH="})
	if err != nil {
		t.Fatalf("LoadConfig should succeed and defer the error: %v", err)
	}
	if c.RegistryFor("left-pad") != "" {
		t.Fatalf("RegistryFor = %q, want empty", c.RegistryFor("left-pad"))
	}
	_, err = testClient(t, c, "").Packument(context.Background(), "left-pad", false)
	var re *Error
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "registry=") || !strings.Contains(re.Reason, "npm is not on PATH") {
		t.Fatalf("want an *Error telling the user to set registry=, got %v", err)
	}
}

// An npm that answers `npm config get registry` without end is not read
// to its end: a clear error, not a megabyte-long "URL".
func TestNpmAnswerIsCapped(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\nyes x | tr -d '\\n' | head -c 10000000\n"
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := askNpmRegistry([]string{"HOME=" + t.TempDir(), "PATH=" + bin + string(os.PathListSeparator) + "/usr/bin:/bin"}, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "printed more than 64 KB, not a URL") {
		t.Fatalf("want the cap's error, got %v", err)
	}
}

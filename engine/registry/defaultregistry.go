package registry

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptide/uptide/internal/cache"
	"github.com/uptide/uptide/internal/proc"
)

// npmAskTimeout bounds `npm config get registry`; npm starts slowly on a
// cold machine, but a hung npm must not hang discovery.
const npmAskTimeout = 20 * time.Second

const defaultRegistryFile = "default-registry"

// npmDefaultRegistry returns the registry npm itself would use when no
// .npmrc or variable names one. Uptide never hard-codes a registry host, so
// it asks npm, once: the answer is cached under the cache root env names.
func npmDefaultRegistry(env []string) (string, error) {
	dir, dirErr := cache.DirOf(env, "registry")
	if dirErr == nil {
		if data, err := os.ReadFile(filepath.Join(dir, defaultRegistryFile)); err == nil {
			if reg, _, err := normalizeRegistry(entry{key: "registry", value: strings.TrimSpace(string(data))}); err == nil {
				return reg, nil
			}
		}
	}
	reg, err := askNpmRegistry(env, dir)
	if err != nil {
		return "", err
	}
	if dirErr == nil {
		// Failing to cache only costs another npm run next time.
		_ = writeFileAtomic(filepath.Join(dir, defaultRegistryFile), []byte(reg+"\n"))
	}
	return reg, nil
}

func askNpmRegistry(env []string, dir string) (string, error) {
	const fix = "set registry=<url> in ~/.npmrc or the project's .npmrc"
	npm, err := lookPathIn("npm", envMap(env)["PATH"])
	if err != nil {
		return "", fmt.Errorf("no registry configured and npm is not on PATH to ask: %s", fix)
	}
	ctx, cancel := context.WithTimeout(context.Background(), npmAskTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "config", "get", "registry")
	cmd.Env = quietNpmEnv(env)
	if dir != "" {
		// Outside any project, so the answer is npm's own and safe to share.
		cmd.Dir = dir
	} else {
		cmd.Dir = os.TempDir()
	}
	// One URL is the answer: past 64 KB it is not one. Its stderr is
	// not read.
	stdout := &proc.Capped{Max: 64 << 10}
	cmd.Stdout = stdout
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("no registry configured and `npm config get registry` did not answer within %s: %s", npmAskTimeout, fix)
		}
		return "", fmt.Errorf("no registry configured and `npm config get registry` failed (%v): %s", err, fix)
	}
	if stdout.Exceeded() {
		return "", fmt.Errorf("no registry configured and `npm config get registry` printed more than 64 KB, not a URL: %s", fix)
	}
	reg, cred, err := normalizeRegistry(entry{key: "registry", value: strings.TrimSpace(stdout.String()), source: "`npm config get registry`"})
	if err != nil {
		return "", fmt.Errorf("%v (%s)", err, fix)
	}
	if cred != nil {
		// Credentials in npm's global config are not Uptide's to cache.
		return "", fmt.Errorf("the registry npm reports carries credentials in its URL: %s", fix)
	}
	return reg, nil
}

// quietNpmEnv keeps npm from printing notices or touching the network for
// anything but the question asked.
func quietNpmEnv(env []string) []string {
	out := make([]string, 0, len(env)+6)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.EqualFold(name, "npm_config_loglevel") {
			continue
		}
		out = append(out, kv)
	}
	return append(out,
		"NO_UPDATE_NOTIFIER=1",
		"npm_config_update_notifier=false",
		"npm_config_fund=false",
		"npm_config_audit=false",
		"npm_config_ignore_scripts=true",
		"npm_config_loglevel=error",
	)
}

// lookPathIn is exec.LookPath over a given PATH, so the caller's env (not
// this process's) decides which npm runs.
func lookPathIn(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

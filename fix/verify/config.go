package verify

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// runnerConfig is a vitest or jest configuration found in the repository.
type runnerConfig struct {
	Runner string // vitest or jest
	File   string // slash, relative to root: the config file, or package.json for a "jest" key
	Dir    string // slash, relative to root: where the runner runs
	// Workspace is set for a vitest workspace file (vitest.workspace.*),
	// whose projects cannot be reconfigured from outside.
	Workspace bool
}

var (
	vitestConfigs = names("vitest.config", ".ts", ".mts", ".cts", ".js", ".mjs", ".cjs")
	vitestSpaces  = names("vitest.workspace", ".ts", ".mts", ".js", ".mjs", ".json")
	jestConfigs   = names("jest.config", ".js", ".ts", ".mjs", ".cjs", ".json")
)

func names(stem string, exts ...string) []string {
	out := make([]string, len(exts))
	for i, e := range exts {
		out[i] = stem + e
	}
	return out
}

func exists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// configIn is the vitest or jest configuration of the directory dir (slash,
// relative to root), if it has one: vitest first, then a vitest workspace
// file, then jest (its config file, then the "jest" key of package.json).
func configIn(root, dir string) (*runnerConfig, error) {
	abs := filepath.Join(root, filepath.FromSlash(dir))
	for _, n := range vitestConfigs {
		if exists(filepath.Join(abs, n)) {
			return &runnerConfig{Runner: "vitest", File: path.Join(dir, n), Dir: dir}, nil
		}
	}
	for _, n := range vitestSpaces {
		if exists(filepath.Join(abs, n)) {
			return &runnerConfig{Runner: "vitest", File: path.Join(dir, n), Dir: dir, Workspace: true}, nil
		}
	}
	for _, n := range jestConfigs {
		if exists(filepath.Join(abs, n)) {
			return &runnerConfig{Runner: "jest", File: path.Join(dir, n), Dir: dir}, nil
		}
	}
	p, ok, err := readPkg(abs)
	if err != nil {
		return nil, err
	}
	if ok && present(p.Jest) {
		return &runnerConfig{Runner: "jest", File: path.Join(dir, "package.json"), Dir: dir}, nil
	}
	return nil, nil
}

// nearestConfig is the configuration of dir or its nearest ancestor up to
// the root.
func nearestConfig(root, dir string) (*runnerConfig, error) {
	for d := dir; ; d = path.Dir(d) {
		c, err := configIn(root, d)
		if err != nil || c != nil {
			return c, err
		}
		if d == "." {
			return nil, nil
		}
	}
}

// setupKeyRE finds the setup entries of a vitest or jest configuration,
// written as a string or an array of strings, in code or in JSON.
var setupKeyRE = regexp.MustCompile(`["']?\b(globalSetup|globalTeardown|setupFiles|setupFilesAfterEnv)\b["']?\s*:\s*(\[[^\]]*\]|'[^']*'|"[^"]*"|` + "`[^`]*`" + `)`)

var quotedRE = regexp.MustCompile(`'([^']*)'|"([^"]*)"|` + "`([^`]*)`")

// setup is one setup file a configuration names.
type setup struct {
	Key  string // globalSetup, setupFiles, …
	Spec string // as written
	File string // slash, relative to root; "" when it does not resolve
}

// setups reads the setup files the configuration names. It reads the
// configuration's text: a setup computed at run time is not seen.
func (c *runnerConfig) setups(root string) []setup {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.File)))
	if err != nil {
		return nil
	}
	var out []setup
	for _, m := range setupKeyRE.FindAllStringSubmatch(string(data), -1) {
		for _, q := range quotedRE.FindAllStringSubmatch(m[2], -1) {
			spec := q[1] + q[2] + q[3]
			if spec == "" {
				continue
			}
			out = append(out, setup{Key: m[1], Spec: spec, File: c.resolveSetup(root, spec)})
		}
	}
	return out
}

func (c *runnerConfig) resolveSetup(root, spec string) string {
	s := strings.TrimPrefix(spec, "<rootDir>/")
	if !strings.HasPrefix(s, ".") && !strings.HasPrefix(s, "/") {
		s = "./" + s
	}
	if strings.HasPrefix(s, "/") {
		rel, err := filepath.Rel(root, s)
		if err != nil || strings.HasPrefix(rel, "..") {
			return ""
		}
		s = "./" + filepath.ToSlash(rel)
		return resolveRelative(root, "package.json", s)
	}
	return resolveRelative(root, path.Join(c.Dir, "package.json"), s)
}

// serviceSetup is a setup that connects to a service: its file, its kind
// ("global setup", "setup file") and what it needs.
type serviceSetup struct {
	File, Kind string
	Need       serviceNeed
}

// skip is the setup as verification lists it: "global setup: a database
// (imports pg)".
func (s serviceSetup) skip() ServiceSkip {
	return ServiceSkip{File: s.File, Needs: s.Kind + ": " + s.Need.String()}
}

// serviceSetups are the setups that connect to a service, with what they
// need.
func (c *runnerConfig) serviceSetups(root string) []serviceSetup {
	var out []serviceSetup
	seen := map[string]bool{}
	for _, s := range c.setups(root) {
		if s.File == "" || seen[s.File] {
			continue
		}
		seen[s.File] = true
		if need := sourceNeeds(root, s.File); need.what != "" {
			kind := "global setup"
			if strings.HasPrefix(s.Key, "setupFiles") {
				kind = "setup file"
			}
			out = append(out, serviceSetup{File: s.File, Kind: kind, Need: need})
		}
	}
	return out
}

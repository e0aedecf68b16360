package probe

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// manifest is the part of a package.json the probe reads.
type manifest struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
	PeerDependenciesMeta map[string]struct {
		Optional bool `json:"optional"`
	} `json:"peerDependenciesMeta"`
	Scripts map[string]string `json:"scripts"`
	Gypfile bool              `json:"gypfile"`
}

func readManifest(dir string) (manifest, error) {
	var m manifest
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: %v", filepath.Join(dir, "package.json"), err)
	}
	return m, nil
}

// declared is the range a package declares for dep (dependencies, then
// optional, then peer), and whether it declares it at all.
func (m manifest) declared(dep string) (string, bool) {
	for _, deps := range []map[string]string{m.Dependencies, m.OptionalDependencies, m.PeerDependencies} {
		if r, ok := deps[dep]; ok {
			return r, true
		}
	}
	return "", false
}

// platformPackage matches the optional dependencies that carry one
// platform's prebuilt binary (@esbuild/linux-x64, @swc/core-darwin-arm64,
// fsevents).
var platformPackage = regexp.MustCompile(`(^|[-/@])(darwin|linux|win32|windows|freebsd|openbsd|netbsd|sunos|android|aix)([-/]|$)|^fsevents$`)

// errStopWalk ends the .node search at the first hit.
var errStopWalk = errors.New("found")

// looksNative says why a copy may need a native build or binary to load,
// "" when nothing suggests it. Such a copy cannot load under the sandbox
// (addons are refused) or loads differently than where it was built, so
// its probe decides nothing.
func looksNative(dir string, m manifest) string {
	var why []string
	if m.Gypfile {
		why = append(why, `"gypfile": true`)
	}
	if _, err := os.Stat(filepath.Join(dir, "binding.gyp")); err == nil {
		why = append(why, "a binding.gyp")
	}
	for _, s := range []string{"preinstall", "install", "postinstall"} {
		if _, ok := m.Scripts[s]; ok {
			why = append(why, "an install script ("+s+")")
		}
	}
	var platform []string
	for name := range m.OptionalDependencies {
		if platformPackage.MatchString(name) {
			platform = append(platform, name)
		}
	}
	if len(platform) > 0 {
		sort.Strings(platform)
		if len(platform) > 3 {
			platform = append(platform[:3], "…")
		}
		why = append(why, "platform-specific optional dependencies ("+strings.Join(platform, ", ")+")")
	}
	seen := 0
	var binary string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "node_modules" && p != dir {
			return filepath.SkipDir
		}
		if seen++; seen > 20000 {
			return errStopWalk
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".node") {
			binary, _ = filepath.Rel(dir, p)
			return errStopWalk
		}
		return nil
	})
	if binary != "" {
		why = append(why, "a native binary ("+filepath.ToSlash(binary)+")")
	}
	if len(why) == 0 {
		return ""
	}
	return "looks native: " + strings.Join(why, ", ")
}

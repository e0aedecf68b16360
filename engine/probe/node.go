package probe

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/modformat"
)

// nodeBinary is one Node executable and the version it reports.
type nodeBinary struct {
	path                string
	version             string // "v20.20.2"
	major, minor, patch int
}

// permissionFlag is the flag that turns on Node's permission model:
// experimental from 20.0, stable as --permission from 22.13 and 23.5.
func (n nodeBinary) permissionFlag() (string, bool) {
	switch {
	case n.major < 20:
		return "", false
	case n.major >= 24, n.major == 23 && n.minor >= 5, n.major == 22 && n.minor >= 13:
		return "--permission", true
	default:
		return "--experimental-permission", true
	}
}

// noPermissionModel is why a Node older than 20 never runs the probe.
func (n nodeBinary) noPermissionModel() string {
	return fmt.Sprintf("Node %s has no permission model (Node 20 or newer has), and the probe never loads a package unsandboxed", n.version)
}

var versionCache sync.Map // path + mtime → nodeBinary

// inspectNode asks a binary its version once per build of it.
func inspectNode(ctx context.Context, path string) (nodeBinary, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nodeBinary{}, err
	}
	key := path + "\x00" + st.ModTime().String()
	if v, ok := versionCache.Load(key); ok {
		return v.(nodeBinary), nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Env = []string{}
	out, err := cmd.Output()
	if err != nil {
		return nodeBinary{}, fmt.Errorf("%s --version: %v", path, err)
	}
	v := strings.TrimSpace(string(out))
	maj, min, pat, ok := splitVersion(v)
	if !ok {
		return nodeBinary{}, fmt.Errorf("%s --version printed %q, not a Node version", path, v)
	}
	b := nodeBinary{path: path, version: v, major: maj, minor: min, patch: pat}
	versionCache.Store(key, b)
	return b, nil
}

// splitVersion reads "v20.20.2" or "20.18" (missing parts are -1).
func splitVersion(s string) (major, minor, patch int, ok bool) {
	parts := strings.SplitN(strings.TrimPrefix(strings.TrimSpace(s), "v"), ".", 3)
	nums := []int{-1, -1, -1}
	for i, p := range parts {
		if i == 2 {
			p, _, _ = strings.Cut(p, "-")
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			if i == 0 {
				return 0, 0, 0, false
			}
			break
		}
		nums[i] = n
	}
	return nums[0], nums[1], nums[2], true
}

// matches says whether a binary is of the release line wanted ("20",
// "20.18", "22.11.0").
func (n nodeBinary) matches(wanted string) bool {
	maj, min, pat, ok := splitVersion(wanted)
	return ok && n.major == maj && (min < 0 || n.minor == min) && (pat < 0 || n.patch == pat)
}

// managed is a Node a version manager installed.
type managed struct {
	manager, path, version string
}

// managedNodes lists the Nodes nvm, volta, asdf and fnm installed, from
// their usual directories (their own variables first).
func managedNodes(env map[string]string) []managed {
	home := env["HOME"]
	or := func(v, def string) string {
		if v != "" {
			return v
		}
		return def
	}
	type layout struct {
		manager string
		roots   []string
		bin     string // path of node under a version directory
	}
	layouts := []layout{
		{"nvm", []string{filepath.Join(or(env["NVM_DIR"], filepath.Join(home, ".nvm")), "versions", "node")}, "bin/node"},
		{"volta", []string{filepath.Join(or(env["VOLTA_HOME"], filepath.Join(home, ".volta")), "tools", "image", "node")}, "bin/node"},
		{"asdf", []string{filepath.Join(or(env["ASDF_DATA_DIR"], filepath.Join(home, ".asdf")), "installs", "nodejs")}, "bin/node"},
		{"fnm", []string{
			filepath.Join(or(env["FNM_DIR"], filepath.Join(or(env["XDG_DATA_HOME"], filepath.Join(home, ".local", "share")), "fnm")), "node-versions"),
			filepath.Join(home, ".fnm", "node-versions"),
			filepath.Join(home, "Library", "Application Support", "fnm", "node-versions"),
		}, "installation/bin/node"},
	}
	var out []managed
	for _, l := range layouts {
		for _, root := range l.roots {
			if home == "" && !filepath.IsAbs(root) {
				continue
			}
			entries, err := os.ReadDir(root)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if _, _, _, ok := splitVersion(e.Name()); !ok {
					continue
				}
				p := filepath.Join(root, e.Name(), filepath.FromSlash(l.bin))
				if st, err := os.Stat(p); err == nil && !st.IsDir() {
					out = append(out, managed{manager: l.manager, path: p, version: e.Name()})
				}
			}
		}
	}
	return out
}

// chooseNode picks the Node that runs the probe: the current one when it
// is of the repository's release line, else the newest local install of
// that line (or of its major) from a version manager, else the current one
// anyway, and says which and why.
func chooseNode(ctx context.Context, wanted modformat.NodeInfo, env map[string]string) (nodeBinary, model.RuntimeNode, error) {
	info := model.RuntimeNode{Wanted: wanted.Version, WantedSource: wanted.Source}
	currentPath, err := exec.LookPath("node")
	if p := env["PATH"]; p != "" {
		currentPath, err = lookPathIn("node", p)
	}
	var current nodeBinary
	if err == nil {
		current, err = inspectNode(ctx, currentPath)
	}
	useCurrent := func(why string) (nodeBinary, model.RuntimeNode, error) {
		if err != nil {
			return nodeBinary{}, info, fmt.Errorf("no Node to run the runtime probe: %v (install Node 20 or newer, or put it on PATH)", err)
		}
		info.Version, info.Path, info.Why = current.version, current.path, why
		return current, info, nil
	}
	if !wanted.Known() {
		return useCurrent("the current Node: nothing in the repository names its Node")
	}
	if _, _, _, ok := splitVersion(wanted.Version); !ok {
		return useCurrent(fmt.Sprintf("the current Node: the repository asks for %q (%s), which names no release line", wanted.Version, wanted.Source))
	}
	repoNode := fmt.Sprintf("Node %s (%s)", wanted.Version, wanted.Source)
	if err == nil && current.matches(wanted.Version) {
		return useCurrent("the repository's " + repoNode + ": the current Node is of that line")
	}
	wMajor, _, _, _ := splitVersion(wanted.Version)
	var exact, sameMajor []nodeBinary
	byPath := map[string]string{}
	for _, m := range managedNodes(env) {
		b, ierr := inspectNode(ctx, m.path)
		if ierr != nil || b.major != wMajor {
			continue
		}
		byPath[b.path] = m.manager
		if b.matches(wanted.Version) {
			exact = append(exact, b)
		} else {
			sameMajor = append(sameMajor, b)
		}
	}
	for _, list := range [][]nodeBinary{exact, sameMajor} {
		if len(list) == 0 {
			continue
		}
		sort.Slice(list, func(i, j int) bool { return newer(list[i], list[j]) })
		b := list[0]
		info.Version, info.Path = b.version, b.path
		info.Why = fmt.Sprintf("the repository's %s: %s installed by %s", repoNode, b.version, byPath[b.path])
		return b, info, nil
	}
	if err == nil && current.major == wMajor {
		return useCurrent(fmt.Sprintf("the repository's %s: the current Node %s is of that major (no install of that exact line under nvm, volta, asdf or fnm)", repoNode, current.version))
	}
	return useCurrent(fmt.Sprintf("the current Node: the repository runs %s and no install of Node %d was found under nvm, volta, asdf or fnm", repoNode, wMajor))
}

func newer(a, b nodeBinary) bool {
	if a.major != b.major {
		return a.major > b.major
	}
	if a.minor != b.minor {
		return a.minor > b.minor
	}
	return a.patch > b.patch
}

func lookPathIn(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not on PATH", name)
}

// Package peers says what a repository's package manager does with a peer
// dependency that no manifest declares: npm 7 and later, pnpm with
// auto-install-peers and bun install it; yarn (classic and berry), npm 6,
// npm with legacy-peer-deps and pnpm without auto-install-peers leave it
// missing, so a package that moved a dependency to its peers loses it on
// upgrade. The answer comes from the most binding source: the lockfile's
// own record of the setting, then the configuration files, then the
// manager's default for its version.
package peers

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/uptide/uptide/engine/lockfile"
)

// Policy is the manager's behaviour for missing peers.
type Policy struct {
	// Installs: a missing peer is installed at a version its range admits.
	Installs bool `json:"installs"`
	// Why says it for people: "yarn does not install peers",
	// "npm installs missing peers".
	Why string `json:"why"`
	// Source is what decided ("pnpm-lock.yaml settings.autoInstallPeers",
	// ".npmrc:3 legacy-peer-deps", "npm 7 and later by default").
	Source string `json:"source"`
}

// Setting looks an .npmrc key up (registry.Config.Setting).
type Setting func(key string) (value, source string, ok bool)

// Input is what the policy is read from.
type Input struct {
	// Root is the repository root (pnpm-workspace.yaml, bunfig.toml, the
	// lockfile are read from it).
	Root string
	// ManagerField is the packageManager field as written
	// ("pnpm@9.12.0+sha512…"), if any.
	ManagerField string
	// Lockfile is its path ("" without one) and LockfileFormat the parsed
	// format ("npm-v1", "pnpm-v9", "yarn-berry", …).
	Lockfile       string
	LockfileFormat lockfile.Format
	// Setting reads .npmrc keys; nil reads none.
	Setting Setting
}

// Rules are one package manager's peer semantics: which of its settings
// decide whether it installs a peer no manifest declares, its default for
// the version the repository names, and whether an upgrade keeps the
// lockfile's copies of what it does not move. Each manager's home
// (fix/managers' Manager.Peers) gives its value; check, which knows the
// repository's manager only by the name discovery read, finds the same
// value with For. The readers below are the analysis they share.
type Rules struct {
	// Manager is the family the rules are of: npm, pnpm, yarn (both
	// Yarns) or bun.
	Manager string
	// KeepsLocked: an upgrade keeps the lockfile's resolution of every
	// range still asked for (yarn re-resolves only the entries the upgrade
	// rewrites; bun keeps them too), so a staying dependent keeps the copy
	// it has; npm and pnpm (installing after a manifest edit) dedupe a
	// range the target meets to it.
	KeepsLocked bool
	policy      func(Input) Policy
}

// The rules of each manager family.
var (
	// NPM: npm 7 and later install peers unless legacy-peer-deps is set;
	// npm 6 never did.
	NPM = Rules{Manager: "npm", policy: npmPolicy}
	// PNPM: auto-install-peers, from the lockfile's record of the install,
	// pnpm-workspace.yaml, .npmrc, else pnpm's default (on from pnpm 8).
	PNPM = Rules{Manager: "pnpm", policy: pnpmPolicy}
	// Yarn: neither Yarn installs peers (Yarn 1 warns, Yarn 2 and later
	// report them as unmet).
	Yarn = Rules{Manager: "yarn", KeepsLocked: true, policy: yarnPolicy}
	// Bun installs peers unless bunfig.toml sets install.peer = false.
	Bun = Rules{Manager: "bun", KeepsLocked: true, policy: bunPolicy}
)

var byManager = map[string]Rules{NPM.Manager: NPM, PNPM.Manager: PNPM, Yarn.Manager: Yarn, Bun.Manager: Bun}

// For is the rules of the manager discovery names (model.Repository's
// PackageManager); npm's for a name it does not know, since npm is what a
// repository without a lockfile or a packageManager field gets.
func For(manager string) Rules {
	if r, ok := byManager[manager]; ok {
		return r
	}
	return NPM
}

// Of reads the policy of a repository whose manager has these rules.
func (r Rules) Of(in Input) Policy {
	if r.policy == nil {
		return npmPolicy(in)
	}
	return r.policy(in)
}

func yarnPolicy(in Input) Policy {
	if in.LockfileFormat == lockfile.YarnBerry || majorOf(in.ManagerField) >= 2 {
		return Policy{Why: "yarn does not install peers", Source: "yarn 2 and later never install peers"}
	}
	return Policy{Why: "yarn does not install peers", Source: "yarn 1 never installs peers"}
}

func npmPolicy(in Input) Policy {
	if in.LockfileFormat == lockfile.NPMv1 || (majorOf(in.ManagerField) > 0 && majorOf(in.ManagerField) < 7) {
		return Policy{Why: "npm 6 does not install peers", Source: "npm 6 and earlier never install peers"}
	}
	if v, src, ok := lookup(in.Setting, "legacy-peer-deps"); ok && truthy(v) {
		return Policy{Why: "npm with legacy-peer-deps does not install peers", Source: src + " legacy-peer-deps"}
	}
	return Policy{Installs: true, Why: "npm installs missing peers", Source: "npm 7 and later by default"}
}

func pnpmPolicy(in Input) Policy {
	decided := func(on bool, src string) Policy {
		if on {
			return Policy{Installs: true, Why: "pnpm installs missing peers (auto-install-peers)", Source: src}
		}
		return Policy{Why: "pnpm does not install peers (auto-install-peers is off)", Source: src}
	}
	// What the install that wrote the lockfile did.
	if in.Lockfile != "" && in.LockfileFormat.Writer() == "pnpm" {
		if data, err := os.ReadFile(in.Lockfile); err == nil {
			if on, ok := pnpmLockSetting(data); ok {
				return decided(on, filepath.Base(in.Lockfile)+" settings.autoInstallPeers")
			}
		}
	}
	if on, src, ok := workspaceSetting(in.Root); ok {
		return decided(on, src)
	}
	if v, src, ok := lookup(in.Setting, "auto-install-peers"); ok {
		return decided(truthy(v), src+" auto-install-peers")
	}
	major := majorOf(in.ManagerField)
	if major == 0 && in.LockfileFormat == lockfile.PnpmV5 {
		major = 7
	}
	if major > 0 && major < 8 {
		return decided(false, fmt.Sprintf("pnpm %d's default", major))
	}
	return decided(true, "pnpm 8 and later by default")
}

func bunPolicy(in Input) Policy {
	b, err := os.ReadFile(filepath.Join(in.Root, "bunfig.toml"))
	if err == nil {
		if on, line, ok := bunPeerSetting(b); ok && !on {
			return Policy{Why: "bun does not install peers (install.peer = false)", Source: fmt.Sprintf("bunfig.toml:%d install.peer", line)}
		}
	}
	return Policy{Installs: true, Why: "bun installs missing peers", Source: "bun's default"}
}

// pnpmLockSetting reads settings.autoInstallPeers, which pnpm 8 and later
// record in the lockfile.
func pnpmLockSetting(data []byte) (bool, bool) {
	// The settings block sits near the top; decoding the whole lockfile for
	// one key would cost as much as reading it again.
	var doc struct {
		Settings struct {
			AutoInstallPeers *bool `yaml:"autoInstallPeers"`
		} `yaml:"settings"`
	}
	head := data
	if i := bytes.Index(data, []byte("\nimporters:")); i > 0 {
		head = data[:i]
	} else if i := bytes.Index(data, []byte("\npackages:")); i > 0 {
		head = data[:i]
	}
	if err := yaml.Unmarshal(head, &doc); err != nil || doc.Settings.AutoInstallPeers == nil {
		return false, false
	}
	return *doc.Settings.AutoInstallPeers, true
}

// workspaceSetting reads autoInstallPeers from pnpm-workspace.yaml, where
// pnpm 10 takes its settings.
func workspaceSetting(root string) (bool, string, bool) {
	b, err := os.ReadFile(filepath.Join(root, "pnpm-workspace.yaml"))
	if err != nil {
		return false, "", false
	}
	var doc struct {
		AutoInstallPeers *bool `yaml:"autoInstallPeers"`
	}
	if yaml.Unmarshal(b, &doc) != nil || doc.AutoInstallPeers == nil {
		return false, "", false
	}
	return *doc.AutoInstallPeers, "pnpm-workspace.yaml autoInstallPeers", true
}

// bunPeerSetting finds `peer = <bool>` in bunfig.toml's [install] table.
func bunPeerSetting(b []byte) (on bool, line int, ok bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	table, n := "", 0
	for sc.Scan() {
		n++
		s := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(s, '#'); i >= 0 {
			s = strings.TrimSpace(s[:i])
		}
		if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
			table = strings.TrimSpace(s[1 : len(s)-1])
			continue
		}
		k, v, found := strings.Cut(s, "=")
		if !found {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if (table == "install" && k == "peer") || (table == "" && k == "install.peer") {
			if b, err := strconv.ParseBool(v); err == nil {
				on, line, ok = b, n, true
			}
		}
	}
	return on, line, ok
}

func lookup(s Setting, key string) (string, string, bool) {
	if s == nil {
		return "", "", false
	}
	return s(key)
}

func truthy(v string) bool {
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	return err == nil && b
}

// majorOf is the major version of a packageManager field ("pnpm@7.33.0"),
// 0 when it names none.
func majorOf(field string) int {
	_, v, ok := strings.Cut(field, "@")
	if !ok {
		return 0
	}
	v = strings.TrimPrefix(v, "v")
	end := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	if end == 0 {
		return 0
	}
	if end > 0 {
		v = v[:end]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0
	}
	return n
}

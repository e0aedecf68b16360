package managers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/proc"
)

// Detected is the manager Detect found and the binary that runs it.
type Detected struct {
	Manager  Manager
	Version  string   // the binary's own --version, or the manifest of the release it links to
	Argv     []string // the binary, absolute (node and the script of a fetched one)
	Lockfile string   // slash path relative to the root
	// Binary is the program that runs (the file on PATH, or the script of
	// the registry's package); Why, when set, says why it is not the one
	// on PATH.
	Binary, Why string
}

// Detect picks the manager from the lockfile and configuration and finds
// its binary on env's PATH. When packageManager names another version
// ("pnpm@9.15.9"), or the PATH has none, it runs the registry's package of
// the manager instead, as corepack would: at the version packageManager
// names, else at the newest release of the line that writes the
// lockfile's format, brought by fetch into the tool cache. Without fetch
// those are errors (*VersionError for a version). Run before any edit.
func Detect(ctx context.Context, root string, repo *model.Repository, env []string, fetch Fetch) (*Detected, error) {
	if repo == nil {
		return nil, errors.New("managers: no repository: load it with engine/repo first")
	}
	all, err := lockfile.FindAll(root)
	if err != nil {
		return nil, err
	}
	fieldName, fieldVersion := splitPackageManager(repo.PackageManagerField)
	family := fieldName
	if family == "" {
		family = repo.PackageManager
	}
	var lock string
	for _, p := range all {
		if model.LockfileWriter(filepath.Base(p)) == family || family == "" {
			lock = p
			break
		}
	}
	if lock == "" {
		if family == "" {
			family = npm.Name()
		}
		return nil, fmt.Errorf("no %s lockfile in %s: run `%s install` there and commit the lockfile first, so the upgrade can be checked against it", family, root, family)
	}
	family = model.LockfileWriter(filepath.Base(lock))
	data, err := os.ReadFile(lock)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", lock, err)
	}
	lf, err := lockfile.Parse(lock, data)
	if err != nil {
		return nil, err
	}
	m := lockfileManager(filepath.Base(lock), lf.Format())
	if m == nil {
		return nil, fmt.Errorf("%s is a %s lockfile, which no package manager uptide fix runs writes: install with the repository's manager and commit its lockfile first", lock, lf.Format())
	}
	if err := m.Usable(root, lock, lf.Format()); err != nil {
		return nil, err
	}
	rel, _ := filepath.Rel(root, lock)
	lockRel := filepath.ToSlash(rel)
	bin := m.Command()
	want := ""
	if fieldName == bin {
		want = fieldVersion
	}
	if v, ok := semver.Exact(want); want != "" && (!ok || v != want) {
		// Corepack takes only an exact version; it also names the folder
		// the registry's package of the manager is kept in.
		return nil, fmt.Errorf("package.json packageManager names %s@%s, which is not an exact version: write the one the repository uses (%s@<major.minor.patch>), as corepack requires",
			fieldName, fieldVersion, fieldName)
	}
	if want != "" && !m.IsRelease(want) {
		return nil, fmt.Errorf("package.json packageManager names %s@%s, but %s is written by %s: change packageManager, or install with the %s it names and commit the lockfile",
			fieldName, fieldVersion, lockRel, m.Line(), bin)
	}
	if m.Package() == "" {
		fetch = nil // bun: one native binary per platform, to install
	}
	var why string
	path, err := lookPath(env, bin)
	if err == nil {
		have, ok := linkedRelease(path, m, want)
		if !ok {
			if have, err = binaryVersion(ctx, []string{path}, root, m, env); err != nil {
				return nil, err
			}
		}
		switch {
		case !m.IsRelease(have):
			why = fmt.Sprintf("the %s on PATH (%s) is %s, but %s is written by %s", bin, path, have, lockRel, m.Line())
		case want != "" && want != have:
			why = fmt.Sprintf("packageManager names %s@%s, the %s on PATH (%s) is %s", fieldName, want, bin, path, have)
		default:
			return &Detected{Manager: m, Version: have, Argv: []string{path}, Lockfile: lockRel, Binary: path}, nil
		}
		if fetch == nil {
			if want == "" {
				return nil, &VersionError{Field: lockRel, Want: m.Line() + " (the lockfile is its)", Have: bin + "@" + have + " (" + path + ")",
					Hint: fmt.Sprintf("put the %s the repository uses on PATH (corepack enable), then run again", m.Line())}
			}
			return nil, &VersionError{Field: "package.json packageManager", Want: fieldName + "@" + want, Have: bin + "@" + have + " (" + path + ")",
				Hint: fmt.Sprintf("install %s %s (corepack enable, or `npm i -g %s@%s`) so the lockfile is written as the repository's own manager writes it, or change packageManager", fieldName, want, fieldName, want)}
		}
	} else {
		why = "no " + bin + " on PATH"
	}
	version, whose := want, "as packageManager names"
	if version == "" {
		version, whose = m.Pinned(lf.Format(), data), "the newest release of the line that writes "+lockRel
	}
	if version == "" || fetch == nil {
		return nil, fmt.Errorf("%s: %s: install %s (the version packageManager names, %s), or put it on PATH", lockRel, why, bin, orNone(repo.PackageManagerField))
	}
	hash := ""
	if version == want {
		hash = packageManagerHash(repo.PackageManagerField)
	}
	d, err := fetched(ctx, fetch, m, version, hash, env)
	if err != nil {
		return nil, fmt.Errorf("%s: %s, so uptide runs %s %s (%s) from the registry, and that failed: %w", lockRel, why, bin, version, whose, err)
	}
	d.Lockfile = lockRel
	d.Why = fmt.Sprintf("%s: %s %s (%s) from the registry", why, bin, version, whose)
	if hash != "" && !m.PackageHash() {
		d.Why += "; packageManager's hash is of Yarn's own single-file release, not of the registry's package, so it was not checked (the registry's integrity was)"
	}
	return d, nil
}

// linkedRelease is want when the binary on PATH is a link to the bin
// script of the manager's own package at that version, as `npm i -g pnpm`
// installs it: that binary is the release packageManager names, and has
// none to switch to, so its manifest says what its --version would
// without starting node and the manager (0.7–0.9 s of CPU beside the
// run's clone and compile). Anything else is asked: a corepack shim or a
// wrapper script (which runs whatever it runs), a standalone build,
// another version (pnpm switches itself to the one packageManager names),
// no packageManager (pnpm 10 may follow devEngines), and a manager that
// Redirects (Yarn's yarnPath).
func linkedRelease(bin string, m Manager, want string) (string, bool) {
	if want == "" || m.Package() == "" || m.Redirects() {
		return "", false
	}
	script, err := filepath.EvalSymlinks(bin)
	if err != nil || script == bin {
		return "", false
	}
	for dir, up := filepath.Dir(script), 0; up < 3; dir, up = filepath.Dir(dir), up+1 {
		data, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err != nil {
			continue
		}
		var manifest struct{ Name, Version string }
		if json.Unmarshal(data, &manifest) != nil || manifest.Name != m.Package() || manifest.Version != want {
			return "", false
		}
		if own, err := binScript(dir, m.Command()); err != nil || own != script {
			return "", false
		}
		return want, true
	}
	return "", false
}

// binaryVersion is the manager's own --version.
func binaryVersion(ctx context.Context, argv []string, root string, m Manager, env []string) (string, error) {
	vctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	res, err := proc.Run(vctx, proc.Cmd{Argv: append(append([]string{}, argv...), "--version"), Dir: root, Env: m.Env(env)})
	if err != nil || res.ExitCode != 0 {
		return "", &InstallError{Command: strings.Join(argv, " ") + " --version", Output: res.Output + errText(err)}
	}
	return lastLine(res.Output), nil
}

// splitPackageManager reads "pnpm@9.15.9+sha512.abc" as pnpm, 9.15.9.
func splitPackageManager(field string) (string, string) {
	name, ver, ok := strings.Cut(strings.TrimSpace(field), "@")
	if !ok {
		return name, ""
	}
	ver, _, _ = strings.Cut(ver, "+")
	return name, ver
}

// packageManagerHash is the "sha512.abc" of "pnpm@9.15.9+sha512.abc".
func packageManagerHash(field string) string {
	_, hash, _ := strings.Cut(strings.TrimSpace(field), "+")
	return hash
}

// lookPath finds a program on the PATH of env (not of this process).
func lookPath(env []string, name string) (string, error) {
	pathVar := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == "PATH" {
			pathVar = v
		}
	}
	for _, dir := range filepath.SplitList(pathVar) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found on PATH", name)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func orNone(s string) string {
	if s == "" {
		return "none named"
	}
	return s
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return "\n" + err.Error()
}

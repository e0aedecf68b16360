package check

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// InstallError says node_modules does not hold what the lockfile says:
// check reads the installed copies, so it needs an install first.
type InstallError struct {
	// Manager is the package manager to run ("npm").
	Manager string
	// Lockfile is the repository-relative lockfile, "" without one.
	Lockfile string
	// Missing and Stale describe each package, "zod (packages/web)" and
	// "zod 3.22.4 in node_modules, 3.25.76 in package-lock.json".
	Missing []string
	Stale   []string
}

func (e *InstallError) Error() string {
	var parts []string
	if len(e.Missing) > 0 {
		parts = append(parts, "node_modules does not hold "+strings.Join(e.Missing, ", "))
	}
	if len(e.Stale) > 0 {
		what := "the lockfile"
		if e.Lockfile != "" {
			what = e.Lockfile
		}
		parts = append(parts, "node_modules is out of date with "+what+": "+strings.Join(e.Stale, "; "))
	}
	return fmt.Sprintf("%s: run %s install first (check reads the installed packages and compiles against them)", strings.Join(parts, "; "), e.Manager)
}

// verifyInstall checks that every member's installed copy, as each of its
// workspaces resolves it, is the version the lockfile names.
func (c *checker) verifyInstall(units []unit) error {
	e := &InstallError{Manager: c.disc.Repository.PackageManager, Lockfile: c.disc.Repository.Lockfile}
	for _, u := range units {
		for _, m := range u.members {
			for _, ws := range m.row.Workspaces {
				dir, version := installedCopy(c.root, ws, m.name())
				where := m.name()
				if ws != "." {
					where += " (" + ws + ")"
				}
				switch {
				case dir == "":
					e.Missing = appendUnique(e.Missing, where)
				case m.row.InstalledSource == "lockfile" && version != m.row.Installed:
					e.Stale = appendUnique(e.Stale, fmt.Sprintf("%s %s in node_modules, %s in the lockfile", where, orUnknown(version), m.row.Installed))
				}
			}
		}
	}
	if len(e.Missing) == 0 && len(e.Stale) == 0 {
		return nil
	}
	return e
}

func orUnknown(s string) string {
	if s == "" {
		return "an unreadable version"
	}
	return s
}

// installedCopy finds name the way Node does from a workspace: its
// node_modules, then each directory's above it up to the repository root.
// It returns the package directory (symlinks followed) and its version.
func installedCopy(root, ws, name string) (dir, version string) {
	d := filepath.Join(root, filepath.FromSlash(ws))
	for {
		candidate := filepath.Join(d, "node_modules", filepath.FromSlash(name))
		if b, err := os.ReadFile(filepath.Join(candidate, "package.json")); err == nil {
			var m struct {
				Version string `json:"version"`
			}
			_ = json.Unmarshal(b, &m)
			if real, err := filepath.EvalSymlinks(candidate); err == nil {
				candidate = real
			}
			return candidate, m.Version
		}
		if d == root || len(d) <= len(root) {
			return "", ""
		}
		d = filepath.Dir(d)
	}
}

// Package checkstore keeps the check results of a repository per state of
// its files, so plan, fix and the planner use what check found without
// checking again: the state is the commit checked out, the paths
// git sees changed and their contents. A change to any tracked or
// untracked file is another state; a directory that is no git repository
// keeps nothing.
package checkstore

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/cache"
	"github.com/uptide/uptide/internal/environ"
)

// repoState keys the repository's current state, "" when it has none.
func repoState(root string) string {
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	status, err := exec.Command("git", "-C", root, "status", "--porcelain=v1", "-z", "--untracked-files=all").Output()
	if err != nil {
		return ""
	}
	h := sha256.New()
	h.Write([]byte(root + "\x00"))
	h.Write(head)
	h.Write(status)
	for _, entry := range strings.Split(string(status), "\x00") {
		if len(entry) < 4 {
			continue
		}
		if data, err := os.ReadFile(filepath.Join(root, entry[3:])); err == nil {
			sum := sha256.Sum256(data)
			h.Write(sum[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// Store is where the checks of one state of a repository are kept, in the
// cache env names: "" keeps nothing (no git repository, no cache). A
// command opens it once, at the state it started from.
type Store string

// Open is the store of the repository at root in its current state.
func Open(env environ.Env, root string) Store {
	state := repoState(root)
	if state == "" {
		return ""
	}
	dir, err := cache.DirOf(env, "checks", state)
	if err != nil {
		return ""
	}
	return Store(dir)
}

// Save keeps a check's reports (what it could not analyze too: plan says
// why, as check did); failing to keep them only means plan checks again.
func (s Store) Save(rep *model.CheckReport) {
	dir := string(s)
	if dir == "" || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	for _, p := range rep.Packages {
		if p.Target == "" {
			continue
		}
		data, err := json.Marshal(p)
		if err != nil {
			continue
		}
		name := fileName(p.Package, p.Target)
		tmp := filepath.Join(dir, name+".tmp")
		if os.WriteFile(tmp, data, 0o600) == nil {
			_ = os.Rename(tmp, filepath.Join(dir, name))
		}
	}
}

// Load returns the reports kept, by package, at the targets asked.
func (s Store) Load(targets map[string]string) map[string]*model.PackageReport {
	out := map[string]*model.PackageReport{}
	if s == "" {
		return out
	}
	for pkg, target := range targets {
		data, err := os.ReadFile(filepath.Join(string(s), fileName(pkg, target)))
		if err != nil {
			continue
		}
		var p model.PackageReport
		if json.Unmarshal(data, &p) != nil || p.Package != pkg || p.Target != target {
			continue
		}
		out[pkg] = &p
	}
	return out
}

func fileName(pkg, target string) string {
	return strings.ReplaceAll(pkg, "/", "+") + "@" + target + ".json"
}

// Ask is what a check was asked: the packages named, the --target of each
// as written (a dist-tag or a range stays one), --group, and whether the
// runtime probe ran. Two checks of one state asked the same are the same
// check.
type Ask struct {
	Packages []string
	Targets  map[string]string
	Group    bool
	Runtime  bool
}

// key names a run's file: the ask, packages sorted, hashed.
func (a Ask) key() string {
	pkgs := slices.Clone(a.Packages)
	slices.Sort(pkgs)
	targets := a.Targets
	if len(targets) == 0 {
		targets = nil // none given, however the caller spells it
	}
	data, _ := json.Marshal(struct { // a map marshals with its keys sorted
		P []string
		T map[string]string
		G bool
		R bool
	}{pkgs, targets, a.Group, a.Runtime})
	sum := sha256.Sum256(data)
	return "run-" + hex.EncodeToString(sum[:16]) + ".json"
}

// SaveRun keeps a whole check under what it was asked, so fix asked the
// same on the same state takes it instead of checking again (the reports
// one by one, which Save keeps, lose a package checked at two installed
// versions).
func (s Store) SaveRun(ask Ask, rep *model.CheckReport) {
	dir := string(s)
	if dir == "" || len(ask.Packages) == 0 || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	data, err := json.Marshal(rep)
	if err != nil {
		return
	}
	name := ask.key()
	tmp := filepath.Join(dir, name+".tmp")
	if os.WriteFile(tmp, data, 0o600) == nil {
		_ = os.Rename(tmp, filepath.Join(dir, name))
	}
}

// LoadRun is the check kept for ask, nil when there is none.
func (s Store) LoadRun(ask Ask) *model.CheckReport {
	if s == "" || len(ask.Packages) == 0 {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(string(s), ask.key()))
	if err != nil {
		return nil
	}
	var rep model.CheckReport
	if json.Unmarshal(data, &rep) != nil {
		return nil
	}
	return &rep
}

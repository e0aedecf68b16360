package managers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/proc"
)

// Move is one package the upgrade moves, in every workspace that declares
// it.
type Move struct {
	Name string // manifest key
	To   string // exact version ("19.1.0")
	// Add is a companion the repository does not declare yet (a peer the
	// manager does not install): added as a dependency with a caret range
	// to Workspaces (slash paths, "." root).
	Add        bool
	Workspaces []string
	// Remove is a package the upgrade makes needless (an @types package
	// whose package now ships its own types): its entry is deleted from
	// every manifest declaring it, in the same install; To is "".
	Remove bool
}

// Options are one migration transaction.
type Options struct {
	Root     string            // absolute repository root (the private clone)
	Repo     *model.Repository // engine/repo.Load(Root)
	Moves    []Move            // the package, its group members, its companions: one transaction
	Env      []string          // already quiet (proc.Quiet); PATH names the managers
	Progress func(line string) // manager output lines, may be nil
	Timeout  time.Duration     // per manager command; 0 = 10 minutes
	// Manager is what Detect found for a copy of Root (the checkout the
	// clone was made from): nil runs Detect here, with Fetch.
	Manager *Detected
	Fetch   Fetch
	// Later: another Upgrade follows in Root before anything reads it (a
	// batch's step before the last), starting from this one's lockfile:
	// the frozen install that proves the lockfile and lays node_modules out
	// as it says is the last step's, so this one skips it.
	Later bool
}

// Moved is one package's versions as the lockfile records them.
type Moved struct{ Name, From, To string }

// Result is a finished transaction.
type Result struct {
	Manager   string   // npm, pnpm, yarn, yarn-berry, bun
	Version   string   // the binary's own --version
	Binary    string   // the program that ran (see Manager)
	BinaryWhy string   // why it is not the one on PATH, when it is not
	Lockfile  string   // slash path relative to Root
	Manifests []string // files edited (package.json files, pnpm-workspace.yaml), slash, sorted
	Moved     []Moved  // sorted by name
	Commands  []string // the manager commands run, for the report
	// Normalized are the lockfile entries the manager rewrites on its own,
	// installing the untouched manifests and lockfile (npm 11 prunes the
	// extraneous optional peers an earlier resolution recorded); the scope
	// guard holds only what the upgrade adds to them. NormalizedLockfile
	// is that rewrite, for a commit of its own before the upgrade's.
	Normalized         []string
	NormalizedLockfile []byte
}

// edit is one specifier to rewrite: first to exact, then to styled.
type edit struct {
	file    string   // absolute
	path    []string // JSON path of the member (package.json)
	catalog string   // pnpm-workspace.yaml catalog name, when a catalog entry
	name    string
	exact   string
	styled  string
	add     bool // a new dependency (path[0] is the field)
	remove  bool // a dependency deleted (path[0] is the field)
}

// declared is one workspace declaration a move touches, for reading the
// lockfile before and after.
type declared struct {
	ws, name, spec, styledSpec, exactSpec string
	// removed: the move deletes it; no install settles it on a version.
	removed bool
}

// Upgrade = Detect + bump manifests/catalogs + install (styled ranges, or
// exact first when a range would not settle on its target; see resolve) +
// scope guard + frozen install (unless Later). On any error the original
// manifests and lockfile are restored byte-identical.
func Upgrade(ctx context.Context, opts Options) (res *Result, err error) {
	if len(opts.Moves) == 0 {
		return nil, errors.New("managers: nothing to move")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Minute
	}
	m := opts.Manager
	if m != nil {
		// Found in the checkout: a lockfile there that the commit lacks
		// (ignored) is Detect's to explain here.
		if _, err := os.Stat(filepath.Join(opts.Root, filepath.FromSlash(m.Lockfile))); err != nil {
			m = nil
		}
	}
	if m == nil {
		if m, err = Detect(ctx, opts.Root, opts.Repo, opts.Env, opts.Fetch); err != nil {
			return nil, err
		}
	}
	edits, decls, moved, err := plan(opts, m.Manager)
	if err != nil {
		return nil, err
	}
	lockPath := filepath.Join(opts.Root, filepath.FromSlash(m.Lockfile))
	// What git sees changed before a byte is written: the install's file
	// scope is held against it.
	gitBefore, inGit, err := gitChanges(ctx, opts.Root, opts.Env)
	if err != nil {
		return nil, fmt.Errorf("reading the files changed in %s before the install: %w", opts.Root, err)
	}
	before, err := lockfile.LoadGraph(lockPath)
	if err != nil {
		return nil, err
	}
	beforeLock, err := lockfile.Load(lockPath)
	if err != nil {
		return nil, err
	}
	// Everything that may change, to put back on any failure.
	originals := map[string][]byte{}
	for _, f := range append(editedFiles(edits), lockPath) {
		data, rerr := os.ReadFile(f)
		if rerr != nil {
			return nil, fmt.Errorf("cannot read %s: %w", f, rerr)
		}
		originals[f] = data
	}
	_, statErr := os.Stat(filepath.Join(opts.Root, "node_modules"))
	hadModules := statErr == nil
	installed := false
	defer func() {
		if err == nil {
			return
		}
		for f, data := range originals {
			if werr := os.WriteFile(f, data, 0o644); werr != nil {
				err = fmt.Errorf("%w; and restoring %s failed: %v: restore it from git (git checkout -- %s)", err, f, werr, f)
			}
		}
		// Put the installed dependencies back as the original lockfile
		// says, so a failed upgrade leaves the clone as it found it.
		if installed && hadModules {
			if ferr := runManager(ctx, m, opts, nil, m.Manager.RestoreArgs()); ferr != nil {
				err = fmt.Errorf("%w; node_modules still holds the failed install (%v): run `%s` to reinstall from the restored lockfile",
					err, ferr, m.Manager.Command()+" "+strings.Join(m.Manager.RestoreArgs(), " "))
			}
		}
	}()
	res = &Result{Manager: m.Manager.Name(), Version: m.Version, Binary: m.Binary, BinaryWhy: m.Why, Lockfile: m.Lockfile}
	for _, f := range editedFiles(edits) {
		rel, _ := filepath.Rel(opts.Root, f)
		res.Manifests = append(res.Manifests, filepath.ToSlash(rel))
	}
	sort.Strings(res.Manifests)

	installed = true
	after, err := resolve(ctx, m, opts, res, edits, decls, originals, lockPath)
	if err != nil {
		return nil, err
	}
	if bad := scopeViolations(before, after, moved); len(bad) > 0 {
		// Before blaming the upgrade, see what the manager does with the
		// untouched checkout: only what the upgrade adds to that is its.
		// It runs only here, so an install the guard passes costs nothing.
		norm, normLock, nerr := normalize(ctx, m, opts, res, originals, lockPath)
		if nerr != nil {
			return nil, &ScopeError{Lockfile: m.Lockfile, Entries: bad, NormalizeErr: nerr}
		}
		if res.Normalized, bad = beyondOwn(before, norm, after, moved); len(res.Normalized) > 0 {
			res.NormalizedLockfile = normLock
		}
		if len(bad) > 0 {
			return nil, &ScopeError{Lockfile: m.Lockfile, Entries: bad, Normalized: res.Normalized}
		}
	}
	afterLock, err := lockfile.Load(lockPath)
	if err != nil {
		return nil, err
	}
	// A frozen install from the validated lockfile must leave it
	// byte-identical: that is what a teammate's or CI's install will do
	// with the committed bytes, and it clears stale nested copies a
	// re-hoisted graph no longer has.
	if !opts.Later {
		if err = frozenInstall(ctx, m, opts, res, lockPath); err != nil {
			return nil, err
		}
	}
	if err = fileScope(ctx, m, opts, res, edits, originals, gitBefore, inGit); err != nil {
		return nil, err
	}
	res.Moved = movedVersions(opts.Moves, decls, beforeLock, afterLock)
	return res, nil
}

// resolve installs the moves and returns the lockfile graph they settle
// in. The styled ranges go first: when each resolves to exactly its
// target (the common case: the target is the newest release its range
// admits), one install did it. Otherwise the manifests and lockfile are
// put back and the exact specifiers go first, so the manager resolves
// exactly the target, then the styled ranges with a lockfile-only pass
// that must not move anything.
func resolve(ctx context.Context, m *Detected, opts Options, res *Result, edits []edit, decls []declared,
	originals map[string][]byte, lockPath string) (*lockfile.Graph, error) {
	if err := applyEdits(edits, originals, true); err != nil {
		return nil, err
	}
	if err := install(ctx, m, opts, res); err != nil {
		return nil, err
	}
	styled, err := lockfile.Load(lockPath)
	if err != nil {
		return nil, fmt.Errorf("after the install: %w", err)
	}
	if unsettled(opts.Moves, decls, styled, func(d declared) string { return d.styledSpec }) == nil {
		g, err := lockfile.LoadGraph(lockPath)
		if err != nil {
			return nil, fmt.Errorf("after the install: %w", err)
		}
		return g, nil
	}
	if err := os.WriteFile(lockPath, originals[lockPath], 0o644); err != nil {
		return nil, err
	}
	if err := applyEdits(edits, originals, false); err != nil {
		return nil, err
	}
	if err := install(ctx, m, opts, res); err != nil {
		return nil, err
	}
	exactGraph, err := lockfile.LoadGraph(lockPath)
	if err != nil {
		return nil, fmt.Errorf("after the install: %w", err)
	}
	exactLock, err := lockfile.Load(lockPath)
	if err != nil {
		return nil, fmt.Errorf("after the install: %w", err)
	}
	if u := unsettled(opts.Moves, decls, exactLock, func(d declared) string { return d.exactSpec }); u != nil {
		return nil, fmt.Errorf("%s: after %s, workspace %s has %s %s, not %s: the install did not move it; check that %s@%s is published on the configured registry",
			m.Lockfile, strings.Join(res.Commands, " && "), u.ws, u.name, orNone(u.got), u.want, u.name, u.want)
	}
	// Then the styled ranges, so the lockfile's importer ranges match the
	// manifests; this install must not move anything.
	if err := applyEdits(edits, originals, true); err != nil {
		return nil, err
	}
	if err := runManager(ctx, m, opts, res, m.Manager.LockfileOnlyArgs()); err != nil {
		return nil, err
	}
	after, err := lockfile.LoadGraph(lockPath)
	if err != nil {
		return nil, fmt.Errorf("after the install: %w", err)
	}
	if diff := versionsMoved(exactGraph, after); len(diff) > 0 {
		return nil, fmt.Errorf("%s: restoring the range style moved packages the exact install had settled (%s): the lockfile was restored; report this with the lockfile attached",
			m.Lockfile, strings.Join(diff, "; "))
	}
	return after, nil
}

// normalize runs the manager on the untouched manifests and lockfile (its
// lockfile-only pass where it has one) and returns the graph and the bytes
// it writes; the upgrade's files are put back after. A manager without a
// lockfile-only pass installs, and the frozen install that follows the
// guard lays node_modules out for the upgrade again.
func normalize(ctx context.Context, m *Detected, opts Options, res *Result, originals map[string][]byte, lockPath string) (*lockfile.Graph, []byte, error) {
	upgraded := map[string][]byte{}
	for f := range originals {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		upgraded[f] = data
	}
	for f, data := range originals {
		if err := os.WriteFile(f, data, 0o644); err != nil {
			return nil, nil, err
		}
	}
	runErr := runManager(ctx, m, opts, res, m.Manager.LockfileOnlyArgs())
	var g *lockfile.Graph
	normLock, err := os.ReadFile(lockPath)
	if runErr == nil && err == nil {
		g, err = lockfile.ParseGraph(lockPath, normLock)
	}
	for f, data := range upgraded {
		if werr := os.WriteFile(f, data, 0o644); werr != nil {
			return nil, nil, werr
		}
	}
	if runErr != nil {
		return nil, nil, runErr
	}
	if err != nil {
		return nil, nil, fmt.Errorf("after %s on the untouched lockfile: %w", m.Manager.Command(), err)
	}
	return g, normLock, nil
}

// unsettledDecl is a declaration the install left off its target.
type unsettledDecl struct{ ws, name, got, want string }

// unsettled is the first declaration whose installed version (read with
// the spec spec gives) is not its move's target, nil when all are.
func unsettled(moves []Move, decls []declared, lock lockfile.Lockfile, spec func(declared) string) *unsettledDecl {
	for _, d := range decls {
		if d.removed {
			continue
		}
		want := wantVersion(moves, d.name)
		if got, ok := lock.Installed(d.ws, d.name, spec(d)); !ok || got != want {
			return &unsettledDecl{ws: d.ws, name: d.name, got: got, want: want}
		}
	}
	return nil
}

func wantVersion(moves []Move, name string) string {
	for _, mv := range moves {
		if mv.Name == name {
			return mv.To
		}
	}
	return ""
}

// plan turns the moves into specifier edits for manager, refusing any
// specifier whose style cannot be kept before a byte is written.
func plan(opts Options, manager Manager) ([]edit, []declared, map[string]bool, error) {
	var edits []edit
	var decls []declared
	moved := map[string]bool{}
	catalogs := map[string]bool{}
	pw := filepath.Join(opts.Root, "pnpm-workspace.yaml")
	for _, mv := range opts.Moves {
		if mv.Remove {
			moved[mv.Name] = true
			found := false
			for _, w := range opts.Repo.Workspaces {
				for _, d := range w.Declarations {
					if d.Name == mv.Name && removable(d) {
						found = true
						edits = append(edits, edit{file: w.Manifest, path: []string{string(d.Type), d.Name}, name: d.Name, remove: true})
						decls = append(decls, declared{ws: w.Path, name: d.Name, spec: d.Spec, removed: true})
					}
				}
			}
			if !found {
				return nil, nil, nil, fmt.Errorf("no workspace of %s declares %s with a registry version: nothing to remove", opts.Root, mv.Name)
			}
			continue
		}
		if mv.Name == "" || !exactVersion.MatchString(mv.To) {
			return nil, nil, nil, fmt.Errorf("managers: move %q to %q: a move needs a package name and an exact version", mv.Name, mv.To)
		}
		moved[mv.Name] = true
		if mv.Add {
			if len(mv.Workspaces) == 0 {
				return nil, nil, nil, fmt.Errorf("managers: adding %s: name the workspaces to add it to", mv.Name)
			}
			for _, ws := range mv.Workspaces {
				w := workspace(opts.Repo, ws)
				if w == nil {
					return nil, nil, nil, fmt.Errorf("managers: adding %s to %s: no such workspace in %s", mv.Name, ws, opts.Root)
				}
				for _, d := range w.Declarations {
					if d.Name == mv.Name {
						return nil, nil, nil, fmt.Errorf("%s already declares %s (%s %q): move it instead of adding it", w.Manifest, mv.Name, d.Type, d.Spec)
					}
				}
				edits = append(edits, edit{file: w.Manifest, path: []string{string(model.Prod), mv.Name}, name: mv.Name, exact: mv.To, styled: "^" + mv.To, add: true})
				decls = append(decls, declared{ws: w.Path, name: mv.Name, spec: "", exactSpec: mv.To, styledSpec: "^" + mv.To})
			}
			continue
		}
		found := false
		for _, w := range opts.Repo.Workspaces {
			for _, d := range w.Declarations {
				if d.Name != mv.Name || d.Type == model.Peer {
					continue
				}
				if d.Package != "" {
					moved[d.Package] = true
				}
				switch {
				case d.Kind == model.SpecWorkspace || d.Kind == model.SpecLink || d.Kind == model.SpecFile:
					continue // a package of the repository itself
				case d.Catalog != "" || strings.HasPrefix(d.Spec, "catalog:"):
					if !manager.Catalogs() {
						return nil, nil, nil, &RangeError{File: w.Manifest, Name: d.Name, Spec: d.Spec}
					}
					found = true
					if d.Range == "" {
						return nil, nil, nil, fmt.Errorf("%s: %s is %q but %s has no such catalog entry: add it to the catalog (or declare a version), then run again", w.Manifest, d.Name, d.Spec, pw)
					}
					exact, styled, ok := styledRange(d.Range, mv.To)
					if !ok {
						return nil, nil, nil, &RangeError{File: pw, Name: d.Name, Spec: d.Range}
					}
					decls = append(decls, declared{ws: w.Path, name: d.Name, spec: d.Spec, exactSpec: d.Spec, styledSpec: d.Spec})
					key := d.Catalog + "\x00" + d.Name
					if catalogs[key] {
						continue
					}
					catalogs[key] = true
					edits = append(edits, edit{file: pw, catalog: d.Catalog, name: d.Name, exact: exact, styled: styled})
				default:
					found = true
					exact, styled, ok := styledRange(d.Spec, mv.To)
					if !ok {
						return nil, nil, nil, &RangeError{File: w.Manifest, Name: d.Name, Spec: d.Spec}
					}
					edits = append(edits, edit{file: w.Manifest, path: []string{string(d.Type), d.Name}, name: d.Name, exact: exact, styled: styled})
					decls = append(decls, declared{ws: w.Path, name: d.Name, spec: d.Spec, exactSpec: exact, styledSpec: styled})
				}
			}
		}
		if !found {
			return nil, nil, nil, fmt.Errorf("no workspace of %s declares %s with a registry version: nothing to move (add it with Add, or check the name)", opts.Root, mv.Name)
		}
	}
	return edits, decls, moved, nil
}

func workspace(r *model.Repository, ws string) *model.Workspace {
	ws = filepath.ToSlash(filepath.Clean(ws))
	for i := range r.Workspaces {
		if r.Workspaces[i].Path == ws {
			return &r.Workspaces[i]
		}
	}
	return nil
}

func editedFiles(edits []edit) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range edits {
		if !seen[e.file] {
			seen[e.file] = true
			out = append(out, e.file)
		}
	}
	sort.Strings(out)
	return out
}

// applyEdits writes every edit (styled or exact) onto the original bytes
// of its file, so both passes start from the same text.
func applyEdits(edits []edit, originals map[string][]byte, styled bool) error {
	cur, err := renderEdits(edits, originals, styled)
	if err != nil {
		return err
	}
	for f, data := range cur {
		if err := os.WriteFile(f, data, 0o644); err != nil {
			return fmt.Errorf("cannot write %s: %w", f, err)
		}
	}
	return nil
}

// renderEdits is each edited file's bytes with every edit (styled or
// exact) made on its original bytes.
func renderEdits(edits []edit, originals map[string][]byte, styled bool) (map[string][]byte, error) {
	cur := map[string][]byte{}
	for _, e := range edits {
		data, ok := cur[e.file]
		if !ok {
			data = originals[e.file]
		}
		v := e.exact
		if styled {
			v = e.styled
		}
		var out []byte
		var err error
		switch {
		case e.catalog != "":
			out, err = setCatalogEntry(data, e.catalog, e.name, v)
		case e.add:
			out, err = addJSONDependency(data, e.path[0], e.name, v)
		case e.remove:
			out, err = removeJSONMember(data, e.path[0], e.name)
		default:
			out, err = setJSONString(data, v, e.path...)
		}
		if err != nil {
			where := strings.Join(e.path, ".")
			if e.catalog != "" {
				where = "catalog " + e.catalog + " entry " + e.name
			}
			return nil, fmt.Errorf("%s: cannot edit %s (%v): fix the file's syntax, or move %s by hand", e.file, where, err, e.name)
		}
		cur[e.file] = out
	}
	return cur, nil
}

// fileScope refuses an install that changed a file outside its scope:
// an edited file that is not what the edit wrote (a manager rewriting a
// manifest), or, in a git work tree, any other file git sees change that
// is not the lockfile nor the manager's own (Manager.InstallWrites).
func fileScope(ctx context.Context, m *Detected, opts Options, res *Result, edits []edit, originals map[string][]byte,
	gitBefore map[string]string, inGit bool) error {
	want, err := renderEdits(edits, originals, true)
	if err != nil {
		return err
	}
	var stray []string
	for f, data := range want {
		got, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("after the install: %w", err)
		}
		if !bytes.Equal(got, data) {
			rel, _ := filepath.Rel(opts.Root, f)
			stray = append(stray, filepath.ToSlash(rel)+" (beyond the upgrade's edit)")
		}
	}
	if inGit {
		after, _, err := gitChanges(ctx, opts.Root, opts.Env)
		if err != nil {
			return fmt.Errorf("reading the files the install changed in %s: %w", opts.Root, err)
		}
		stray = append(stray, strayFiles(m.Manager, gitBefore, after, m.Lockfile, res.Manifests)...)
	}
	if len(stray) > 0 {
		sort.Strings(stray)
		return &StrayError{Command: m.Manager.Command(), Files: stray}
	}
	return nil
}

// frozenInstall runs the frozen install and insists the lockfile kept
// its bytes. res, when set, records the command.
func frozenInstall(ctx context.Context, m *Detected, opts Options, res *Result, lockPath string) error {
	want, err := os.ReadFile(lockPath)
	if err != nil {
		return err
	}
	if err := runManager(ctx, m, opts, res, m.Manager.FrozenArgs()); err != nil {
		return err
	}
	got, err := os.ReadFile(lockPath)
	if err != nil {
		return err
	}
	if string(got) != string(want) {
		return fmt.Errorf("%s: the frozen install (%s %s) rewrote the lockfile it had just validated: the manager does not reproduce its own output; the lockfile was restored",
			lockPath, m.Manager.Command(), strings.Join(m.Manager.FrozenArgs(), " "))
	}
	return nil
}

func install(ctx context.Context, m *Detected, opts Options, res *Result) error {
	return runManager(ctx, m, opts, res, m.Manager.InstallArgs())
}

func runManager(ctx context.Context, m *Detected, opts Options, res *Result, args []string) error {
	argv := append(append([]string{}, m.Argv...), args...)
	label := m.Manager.Command() + " " + strings.Join(args, " ")
	if res != nil {
		res.Commands = append(res.Commands, label)
	}
	out, err := proc.Run(ctx, proc.Cmd{Argv: argv, Dir: opts.Root, Env: m.Manager.Env(opts.Env), Timeout: opts.Timeout, Progress: opts.Progress})
	if err != nil {
		return &InstallError{Command: label, Output: out.Output + "\n" + err.Error()}
	}
	if out.ExitCode != 0 {
		return &InstallError{Command: label, Output: out.Output}
	}
	return nil
}

// movedVersions reads each moved package's versions from the lockfile
// before and after, across its declaring workspaces.
func movedVersions(moves []Move, decls []declared, before, after lockfile.Lockfile) []Moved {
	var out []Moved
	for _, mv := range moves {
		from, to := map[string]bool{}, map[string]bool{}
		for _, d := range decls {
			if d.name != mv.Name {
				continue
			}
			if v, ok := before.Installed(d.ws, d.name, d.spec); ok && d.spec != "" {
				from[v] = true
			}
			if v, ok := after.Installed(d.ws, d.name, d.styledSpec); ok && !d.removed {
				to[v] = true
			}
		}
		out = append(out, Moved{Name: mv.Name, From: joinSet(from), To: joinSet(to)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func joinSet(s map[string]bool) string {
	var vs []string
	for v := range s {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	return strings.Join(vs, ", ")
}

// Removable reports whether a workspace of repo declares name where a
// Remove move deletes it: a registry dependency, not a peer entry (a
// promise to the workspace's own users) nor a package of the repository.
func Removable(repo *model.Repository, name string) bool {
	for _, w := range repo.Workspaces {
		for _, d := range w.Declarations {
			if d.Name == name && removable(d) {
				return true
			}
		}
	}
	return false
}

func removable(d model.Declaration) bool {
	return d.Type != model.Peer && d.Kind != model.SpecWorkspace && d.Kind != model.SpecLink && d.Kind != model.SpecFile
}

// Restore lays node_modules out again as the lockfile at opts.Root says
// (npm ci and its kin, scripts off): a batch's bisection checks out an
// earlier step's commit and needs that step's dependencies, not the last
// step's.
func Restore(ctx context.Context, opts Options) error {
	if opts.Manager == nil {
		return errors.New("restore: no package manager detected")
	}
	return runManager(ctx, opts.Manager, opts, nil, opts.Manager.Manager.RestoreArgs())
}

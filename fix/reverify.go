package fix

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/fix/isolate"
	"github.com/uptide/uptide/fix/managers"
	"github.com/uptide/uptide/fix/verify"
	"github.com/uptide/uptide/internal/lists"
)

// uptide verify is fix's pipeline with its middle replaced: no check, no
// upgrade, no edits. A branch somebody made (fix, a person, a bot) is
// verified in a private clone as fix verifies its own: the base's
// dependencies installed from the base's lockfile for the baseline
// compile, then the branch's own lockfile installed (frozen, scripts off),
// the compile against that baseline, the tests, the lint of the files the
// branch changes. The checkout gains nothing but the stored run.

// VerifyOptions are the inputs of one verify run: fix's options (the
// package fields unused) and the branch.
type VerifyOptions struct {
	Options
	// Branch is a branch of the checkout (or a remote-tracking one,
	// origin/renovate/x); "" is the checkout's current branch.
	Branch string
	// Base is what the branch is compared with; "" is the default branch
	// (the remote's HEAD, else main or master).
	Base string
	// Push, when set, is asked once the checkout was compared after the
	// run and before the run is stored and the clone removed: dir is the
	// clone's work tree, which holds the verified commit. What it answers
	// joins the report (verify --push: the gate, then the push).
	Push func(ctx context.Context, rep *Report, dir string) *Publish
}

// verifying is a verify run's branch, as resolveBranch found it.
type verifying struct {
	o VerifyOptions
	// name is the branch's name (without a remote), head the commit
	// verified, baseSha the commit BaseRef names.
	name, head, baseSha string
	// atCheckout: the checkout's branch ref is at head (the stored run
	// is then the branch's run.json).
	atCheckout bool
	// source is the kept clone holding head when the checkout's branch
	// could not receive it; "" when the checkout has it.
	source string
	// changed are the files head changes against the base, relative to
	// the repository root, that exist at head.
	changed []string
}

// Verify verifies a branch in a private clone (see VerifyOptions).
// Whatever happens the report says it.
func Verify(ctx context.Context, o VerifyOptions) (*Report, error) {
	r := newRunner(o.Options, o.Branch)
	defer r.close()
	r.v = &verifying{o: o}
	r.pipeline(ctx, r.verifySteps())
	r.finish(ctx)
	r.o.Secrets.Walk(r.rep)
	return r.rep, nil
}

// verifySteps are fix's steps where they apply, and the branch's own.
func (r *runner) verifySteps() []step {
	return []step{
		// Cwd → repository, root, top.
		{name: "repository", run: r.loadRepository},
		// top → before.
		{name: "snapshot", beside: true, run: r.takeSnapshot},
		// top, Branch, Base → the commits to verify (read-only git reads).
		{name: "branch", run: r.resolveBranch},
		// root → the registry client (the pinned compiler, the manager).
		{name: "registry", run: r.openRegistry},
		// root, repository → manager, detectErr.
		{name: "detect", beside: true, run: r.detectManager},
		// top → clone at the branch's commit; Verified, Commits.
		{name: "clone", after: []string{"snapshot"}, run: r.cloneBranch},
		// base's lockfile installed → base, the lint before.
		{name: "baseline", work: true, after: []string{"detect"}, run: r.baselineAtBase},
		// the branch's lockfile installed → Install, Moves.
		{name: "install", work: true, run: r.installBranch},
		// edited → the formatter's changes, one commit on top (Added).
		{name: "format", run: r.formatBranch},
		// base → Types.
		{name: "types", beside: true, phase: model.PhaseCompile, says: "type-checking the branch", run: r.typesAfter},
		// changed → Style, Tests, NotRun.
		{name: "lint and tests", run: r.lintAndTest},
		// Types, Tests, Style → Sites, Status.
		{name: "verdict", after: []string{"types"}, run: r.verifyVerdict},
	}
}

// resolveBranch finds the commit to verify and its base in the checkout,
// reading only: the branch's commit, or the newer one a kept clone of an
// earlier fix run holds for it (the checkout had it checked out, so it did
// not receive them), and the base's.
func (r *runner) resolveBranch(ctx context.Context) bool {
	v := r.v
	branch := v.o.Branch
	if branch == "" {
		cur, err := gitOutput(ctx, r.top, "symbolic-ref", "--quiet", "--short", "HEAD")
		if err != nil || cur == "" {
			r.stop("your checkout is on no branch (detached HEAD): name the branch to verify (uptide verify <branch>)")
			return false
		}
		branch = cur
	}
	r.rep.Package, r.rep.Branch = branch, branch
	head, err := gitOutput(ctx, r.top, "rev-parse", "--verify", "--quiet", branch+"^{commit}")
	if err != nil || head == "" {
		r.stop("%s names no branch or commit in %s: git branch -a lists them", branch, r.top)
		return false
	}
	v.name, v.head = branch, head
	if full, err := gitOutput(ctx, r.top, "rev-parse", "--symbolic-full-name", branch); err == nil {
		switch {
		case strings.HasPrefix(full, "refs/heads/"):
			v.name = strings.TrimPrefix(full, "refs/heads/")
			v.atCheckout = true
		case strings.HasPrefix(full, "refs/remotes/"):
			// origin/renovate/x is the branch renovate/x of origin.
			if _, name, ok := strings.Cut(strings.TrimPrefix(full, "refs/remotes/"), "/"); ok {
				v.name = name
			}
		}
	}
	r.rep.Branch = v.name
	if v.atCheckout {
		if src, sha := r.keptCommits(ctx, v.name, head); src != "" {
			v.source, v.head, v.atCheckout = src, sha, false
		}
	}
	baseRef := v.o.Base
	if baseRef == "" {
		if baseRef = r.defaultBranch(ctx); baseRef == "" {
			r.stop("no default branch found in %s (no remote HEAD, no main or master): name the base (uptide verify %s --base <branch>)", r.top, branch)
			return false
		}
	}
	if v.baseSha, err = gitOutput(ctx, r.top, "rev-parse", "--verify", "--quiet", baseRef+"^{commit}"); err != nil || v.baseSha == "" {
		r.stop("--base %s names no branch or commit in %s", baseRef, r.top)
		return false
	}
	r.rep.Verified = &VerifiedBranch{Branch: v.name, Sha: v.head, BaseRef: baseRef, Clone: v.source, Changed: []string{}}
	return true
}

// keptCommits is the kept clone (of this checkout, an earlier run on
// branch) whose branch is ahead of the checkout's head: the commits the
// checkout could not receive. The newest such clone wins; none is "".
func (r *runner) keptCommits(ctx context.Context, branch, head string) (dir, sha string) {
	root := r.o.RunsRoot
	if root == "" {
		root = isolate.Root()
	}
	kept, err := isolate.List(root)
	if err != nil {
		return "", ""
	}
	for i := len(kept) - 1; i >= 0; i-- {
		k := kept[i]
		if k.Checkout != r.top || k.Branch != branch {
			continue
		}
		work := filepath.Join(k.Dir, "repo")
		tip, err := gitOutput(ctx, work, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch+"^{commit}")
		if err != nil || tip == "" || tip == head {
			continue
		}
		if _, err := gitOutput(ctx, work, "merge-base", "--is-ancestor", head, tip); err == nil {
			return work, tip
		}
	}
	return "", ""
}

// defaultBranch is what the checkout's branches start from: the remote's
// HEAD (origin's first), else a local main or master; "" for none.
func (r *runner) defaultBranch(ctx context.Context) string {
	remotes, _ := gitOutput(ctx, r.top, "remote")
	names := strings.Fields(remotes)
	sort.SliceStable(names, func(i, j int) bool { return names[i] == "origin" && names[j] != "origin" })
	for _, n := range names {
		if ref, err := gitOutput(ctx, r.top, "symbolic-ref", "--quiet", "--short", "refs/remotes/"+n+"/HEAD"); err == nil && ref != "" {
			return ref
		}
	}
	for _, b := range []string{"main", "master"} {
		if _, err := gitOutput(ctx, r.top, "rev-parse", "--verify", "--quiet", "refs/heads/"+b); err == nil {
			return b
		}
	}
	return ""
}

// cloneBranch makes the private clone and puts the branch there at the
// commit to verify (fetched from the kept clone when it is there), reads
// the base, the branch's commits and the files it changes.
func (r *runner) cloneBranch(ctx context.Context) bool {
	if r.snapErr != nil {
		r.stop("snapshot of the checkout: %v", r.snapErr)
		return false
	}
	r.fetch = r.fetcher()
	v := r.v
	r.progress(model.PhaseClone, "cloning %s into a private clone", r.top)
	var err error
	if r.clone, err = isolate.New(ctx, isolate.Options{Checkout: r.top, Root: r.o.RunsRoot, Branch: v.name, Env: r.o.Env}); err != nil {
		if !r.interrupted(ctx, "the clone") {
			r.stop("clone: %v", err)
		}
		return false
	}
	if r.croot, err = r.clone.Path(r.root); err != nil {
		r.stop("clone: %v", err)
		return false
	}
	r.env = r.clone.Env(r.o.Env)
	r.rep.Clone.Dir, r.rep.Clone.Repo = r.clone.Dir, r.croot
	if v.source != "" {
		r.progress(model.PhaseClone, "taking the commits of %s from the kept clone %s", v.name, v.source)
		if _, err := r.clone.Git(ctx, "fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--", v.source, "refs/heads/"+v.name); err != nil {
			r.stop("taking %s from the kept clone %s: %v", v.name, v.source, err)
			return false
		}
	}
	if _, err := r.clone.Git(ctx, "update-ref", "refs/heads/"+v.name, v.head); err != nil {
		r.stop("putting %s at %s in the clone: %v", v.name, short(v.head), err)
		return false
	}
	base, err := r.clone.Git(ctx, "merge-base", v.baseSha, v.head)
	if err != nil || base == "" {
		r.stop("%s shares no history with %s: name the base (--base)", v.name, r.rep.Verified.BaseRef)
		return false
	}
	if base == v.head {
		r.stop("%s has no commit beyond its base %s: nothing to verify (--base names another base)", v.name, r.rep.Verified.BaseRef)
		return false
	}
	r.rep.Verified.Base = base
	if !r.readBranch(ctx, base) {
		return false
	}
	r.installing = true
	return true
}

// readBranch reads the branch's commits since base and the files they
// change, and the workspaces those files are in.
func (r *runner) readBranch(ctx context.Context, base string) bool {
	v := r.v
	log, err := r.clone.Git(ctx, "log", "--reverse", "--format=%H%x09%s", base+".."+v.head)
	if err != nil {
		r.stop("reading %s's commits: %v", v.name, err)
		return false
	}
	for _, line := range strings.Split(log, "\n") {
		if sha, subject, ok := strings.Cut(line, "\t"); ok {
			r.rep.Commits = append(r.rep.Commits, Commit{Sha: sha, Subject: subject})
		}
	}
	names, err := r.clone.Git(ctx, "diff", "--name-only", "--no-renames", "--diff-filter=d", base, v.head)
	if err != nil {
		r.stop("reading what %s changes: %v", v.name, err)
		return false
	}
	rel, _ := filepath.Rel(r.clone.Work, r.croot)
	prefix := ""
	if rel != "." {
		prefix = filepath.ToSlash(rel) + "/"
	}
	for _, f := range strings.Split(names, "\n") {
		if f, ok := strings.CutPrefix(f, prefix); ok && f != "" {
			v.changed = append(v.changed, f)
		}
	}
	sort.Strings(v.changed)
	r.rep.Verified.Changed = orEmpty(v.changed)
	r.workspaces = changedWorkspaces(r.repository, v.changed)
	return !r.o.WithServices || r.confirmServices(r.repository, r.workspaces)
}

// changedWorkspaces are the workspaces holding a changed file; a changed
// lockfile can move any workspace's dependencies, so then all of them.
func changedWorkspaces(repository *model.Repository, changed []string) []string {
	all := make([]string, 0, len(repository.Workspaces))
	for _, w := range repository.Workspaces {
		all = append(all, w.Path)
	}
	sort.Strings(all)
	seen := map[string]bool{}
	for _, f := range changed {
		if lockfile.IsName(filepath.Base(f)) {
			return all
		}
		best := ""
		for _, w := range all {
			if (w == "." || f == w || strings.HasPrefix(f, w+"/")) && (best == "" || len(w) > len(best)) {
				best = w
			}
		}
		if best != "" {
			seen[best] = true
		}
	}
	return lists.SortedKeys(seen)
}

// baselineAtBase checks the base out in the clone, installs its lockfile
// and compiles it: the baseline the branch is judged against. The files
// the branch changes are linted there too.
func (r *runner) baselineAtBase(ctx context.Context) bool {
	if r.detectErr != nil {
		r.stop("%v", r.detectErr)
		return false
	}
	if err := r.shimManager(); err != nil {
		r.stop("%v", err)
		return false
	}
	r.lb = &lintBaseline{run: verify.LintRun{Failures: map[string][]string{}}, ok: true}
	base := r.rep.Verified.Base
	r.progress(model.PhaseInstall, "installing the base %s's dependencies from its lockfile", short(base))
	if _, err := r.clone.Git(ctx, "checkout", "-q", "-f", "--detach", base); err != nil {
		r.stop("checking the base out in the clone: %v", err)
		return false
	}
	if err := r.restore(ctx, model.PhaseInstall); err != nil {
		if r.interrupted(ctx, "the base's install") {
			return false
		}
		r.baseErr = fmt.Errorf("installing the base's lockfile: %w", err)
		return true
	}
	r.progress(model.PhaseCompile, "type-checking %s at the base", model.Where(r.workspaces))
	r.base, r.baseErr = compileWorkspaces(ctx, r.croot, r.workspaces, r.fetch, r.drivers)
	r.style = verify.DetectStyle(r.croot)
	var atBase []string
	for _, f := range r.v.changed {
		if _, err := os.Stat(filepath.Join(r.croot, filepath.FromSlash(f))); err == nil {
			atBase = append(atBase, f)
		}
	}
	r.lintBefore(ctx, r.style, atBase, "the branch", r.lb)
	return !r.interrupted(ctx, "the baseline")
}

// installBranch checks the branch out in the clone and installs its own
// lockfile, frozen: a lockfile its manifests do not match fails the run
// as a compile error would.
func (r *runner) installBranch(ctx context.Context) bool {
	v := r.v
	if _, err := r.clone.Git(ctx, "checkout", "-q", "-f", v.name); err != nil {
		r.stop("checking %s out in the clone: %v", v.name, err)
		return false
	}
	// From here the run is failed, not not-run, as after fix's upgrade.
	r.rep.Status = StatusFailed
	m := r.manager
	r.rep.Install = &Install{Manager: m.Manager.Name(), Version: m.Version, Binary: m.Binary, BinaryWhy: m.Why, Lockfile: m.Lockfile,
		Manifests: []string{}, Commands: []string{m.Manager.Command() + " " + strings.Join(m.Manager.RestoreArgs(), " ")},
		Moved: []managers.Moved{}, Normalized: []string{}}
	r.progress(model.PhaseInstall, "installing %s's own lockfile", v.name)
	if err := r.restore(ctx, model.PhaseInstall); err != nil {
		if !r.interrupted(ctx, "the branch's install") {
			r.rep.Reason = fmt.Sprintf("%s's own lockfile does not install: %v", v.name, err)
		}
		return false
	}
	r.cloneRepo, _ = repo.Load(r.croot)
	if r.cloneRepo == nil {
		r.cloneRepo = r.repository
	}
	r.rep.Moves = r.movedBy(ctx)
	for _, mv := range r.rep.Moves {
		r.rep.Install.Moved = append(r.rep.Install.Moved, managers.Moved{Name: mv.Name, From: mv.From, To: mv.To})
	}
	if r.style.Linter == nil {
		// The branch may bring the linter (a baseline without it lints
		// nothing, so no failure can be new).
		r.style = verify.DetectStyle(r.croot)
		r.lb.ok = false
	}
	// The tests run related to the code the branch changes (a manifest
	// or a lockfile names no test: with no code changed, the workspaces'
	// whole suites run).
	r.edited = nil
	for _, f := range v.changed {
		if codeExts[filepath.Ext(f)] {
			r.edited = append(r.edited, f)
		}
	}
	return true
}

// formatBranch is fix's format step where the branch stands: what the
// formatter changes becomes a commit on top of the branch (its history is
// never rewritten), and that commit is what is verified and pushed.
func (r *runner) formatBranch(ctx context.Context) bool {
	n := len(r.rep.Commits)
	if !r.format(ctx) {
		return false
	}
	if added := r.rep.Commits[n:]; len(added) > 0 {
		r.rep.Verified.Added = append(r.rep.Verified.Added, added...)
		r.v.head = added[len(added)-1].Sha
		r.rep.Verified.Sha = r.v.head
	}
	return true
}

// codeExts are the files a test can be related to and a linter lints.
var codeExts = map[string]bool{".ts": true, ".tsx": true, ".mts": true, ".cts": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true,
	".vue": true, ".svelte": true}

// restore lays node_modules out as the clone's lockfile says.
func (r *runner) restore(ctx context.Context, phase model.Phase) error {
	return managers.Restore(ctx, managers.Options{Root: r.croot, Env: r.env, Manager: r.manager, Timeout: r.o.TestTimeout,
		Progress: func(line string) { r.progress(phase, "%s", line) }})
}

// movedBy are the direct dependencies whose locked version the branch
// changes: the lockfile at the base against the one at the branch.
func (r *runner) movedBy(ctx context.Context) []Move {
	out := []Move{}
	file, err := lockfile.Find(r.croot)
	if err != nil || file == "" || r.cloneRepo == nil {
		return out
	}
	after, err := lockfile.Load(file)
	if err != nil {
		return out
	}
	rel, _ := filepath.Rel(r.clone.Work, file)
	data, err := r.clone.Git(ctx, "show", r.rep.Verified.Base+":"+filepath.ToSlash(rel))
	var before lockfile.Lockfile
	if err == nil {
		before, _ = lockfile.Parse(file, []byte(data+"\n"))
	}
	seen := map[string]bool{}
	for _, w := range r.cloneRepo.Workspaces {
		for _, d := range w.Declarations {
			to, ok := after.Installed(w.Path, d.Name, d.Spec)
			if !ok || seen[d.Name] {
				continue
			}
			from := ""
			if before != nil {
				from, _ = before.Installed(w.Path, d.Name, d.Spec)
			}
			if from != to {
				seen[d.Name] = true
				out = append(out, Move{Name: d.Name, From: from, To: to, Why: "the branch's lockfile"})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// verifyVerdict judges the branch: fix's verdict, with no check behind it
// (every new error is a site left).
func (r *runner) verifyVerdict(ctx context.Context) bool {
	if r.interrupted(ctx, "the compile and the tests") {
		return false
	}
	r.rep.Sites = sitesLeft(nil, r.rep.Types.New, nil, nil, nil)
	r.judge()
	return true
}

// pushVerified asks the run's Push (verify --push) once the checkout was
// compared: the clone still holds the verified commit.
func (r *runner) pushVerified(ctx context.Context) {
	if r.v.o.Push == nil {
		return
	}
	r.progress(model.PhasePublish, "pushing %s", r.v.name)
	r.rep.Publish = r.v.o.Push(ctx, r.rep, r.clone.Work)
	if r.rep.Publish == nil {
		r.rep.Publish = &Publish{Status: PublishFailed, Reason: "nothing was pushed"}
	}
}

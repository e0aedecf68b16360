package botpr

import (
	"context"
	"fmt"
	"github.com/uptide/uptide/engine/model"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/isolate"
	"github.com/uptide/uptide/fix/managers"
	"github.com/uptide/uptide/fix/publish"
	"github.com/uptide/uptide/internal/lists"
	"github.com/uptide/uptide/internal/redact"
)

// The statuses of a bot run.
const (
	// Pushed: everything verified and the one commit is on the branch.
	Pushed = "pushed"
	// Unchanged: everything verified and no rule had anything to edit.
	Unchanged = "unchanged"
	// Committed: verified and committed, but nothing was asked to push it
	// (no GitHub session).
	Committed = "committed"
	// Failed: a migration or the verification failed, or sites are left
	// for a person: nothing is pushed.
	Failed = "failed"
	// Refused: the event is not one uptide takes, or the head moved.
	Refused = "refused"
	// NotRun: something needed could not run (an unsupported manager).
	NotRun = "not-run"
)

// Marker is the hidden line that makes uptide's comment the one it
// updates.
const Marker = "<!-- uptide:bot-pr -->"

// Options are the inputs of one bot run.
type Options struct {
	// Cwd is the workflow's checkout of the repository.
	Cwd   string
	Event Event
	// Env is what everything uptide runs gets (installs, compilers, tests,
	// the fix runs): the caller removes every credential from it.
	Env []string
	// GitHub is the session of the recheck, the push and the comment; nil
	// makes the commit and stops there.
	GitHub      *publish.Session
	RunsRoot    string
	TestTimeout time.Duration
	Progress    func(phase model.Phase, line string)
	Secrets     *redact.Secrets
}

// Migration is one package's fix run on the pull request's sources.
type Migration struct {
	Package   string           `json:"package"`
	From      string           `json:"from"`
	To        string           `json:"to"`
	Status    string           `json:"status"`
	Reason    string           `json:"reason,omitempty"`
	Rules     *fix.RulesReport `json:"rules,omitempty"`
	Sites     []fix.Site       `json:"sitesLeft"`
	Decisions []string         `json:"decisions"`
	// Files are the source files its edits change.
	Files []string `json:"files"`
}

// Report is what one bot run did.
type Report struct {
	PR         int         `json:"pr"`
	Branch     string      `json:"branch"`
	Head       string      `json:"head"`
	Base       string      `json:"base"`
	Status     string      `json:"status"`
	Reason     string      `json:"reason,omitempty"`
	Lockfile   string      `json:"lockfile,omitempty"`
	Moves      []Move      `json:"moves"`
	Migrations []Migration `json:"migrations"`
	// Verify is the pull request's head with the edits, its own lockfile
	// installed, against the base's dependencies.
	Verify *fix.Report `json:"verify,omitempty"`
	// Commit is the commit made on top of Head.
	Commit  string `json:"commit,omitempty"`
	Comment string `json:"comment,omitempty"`
	// Kept is a private clone kept to look at (a failure).
	Kept []string `json:"kept"`
}

// ExitCode is 0 pushed or nothing to push, 1 failed or refused, 2 not
// run.
func (r *Report) ExitCode() int {
	switch r.Status {
	case Pushed, Unchanged, Committed:
		return 0
	case Failed, Refused:
		return 1
	}
	return 2
}

type bot struct {
	o    Options
	rep  *Report
	work *isolate.Clone // the pull request's head, where the commit is made
	base *isolate.Clone // the head's sources with the base's dependencies
}

// Run takes the event's pull request through the transaction.
func Run(ctx context.Context, o Options) *Report {
	if o.Secrets == nil {
		o.Secrets = redact.FromEnv(o.Env)
	}
	e := o.Event
	b := &bot{o: o, rep: &Report{PR: e.Number, Branch: e.HeadRef, Head: e.HeadSha, Base: e.BaseSha, Status: NotRun, Moves: []Move{}, Migrations: []Migration{}, Kept: []string{}}}
	if why := e.Refusal(); why != "" {
		b.rep.Status, b.rep.Reason = Refused, why
		return b.rep
	}
	b.run(ctx)
	b.finish()
	if o.GitHub != nil {
		url, err := o.GitHub.Sticky(context.WithoutCancel(ctx), e.Number, Marker, Comment(b.rep))
		if err != nil {
			b.rep.Reason = strings.TrimPrefix(b.rep.Reason+"; ", "; ") + err.Error()
		}
		b.rep.Comment = url
	}
	o.Secrets.Walk(b.rep)
	return b.rep
}

func (b *bot) progress(phase model.Phase, format string, args ...any) {
	if b.o.Progress != nil {
		b.o.Progress(phase, fmt.Sprintf(format, args...))
	}
}

func (b *bot) stop(status, format string, args ...any) {
	b.rep.Status, b.rep.Reason = status, fmt.Sprintf(format, args...)
}

// finish removes the clones, or keeps them after a failure, saying where.
func (b *bot) finish() {
	for _, c := range []*isolate.Clone{b.work, b.base} {
		if c == nil {
			continue
		}
		if b.rep.Status == Failed {
			b.rep.Kept = append(b.rep.Kept, c.Dir)
			continue
		}
		_ = c.Remove()
	}
}

func (b *bot) run(ctx context.Context) {
	e, env := b.o.Event, b.o.Env
	var err error
	b.progress(model.PhaseClone, "cloning %s privately at the pull request's head %s", b.o.Cwd, short(e.HeadSha))
	if b.work, err = b.clone(ctx, fmt.Sprintf("uptide/bot-pr-%d", e.Number)); err != nil {
		b.stop(NotRun, "%v", err)
		return
	}
	lock, err := b.lockfile(ctx)
	if err != nil {
		b.stop(NotRun, "%v", err)
		return
	}
	b.rep.Lockfile = lock
	baseLock, err1 := rawGit(ctx, b.work, b.o.Env, "show", e.BaseSha+":"+lock)
	headLock, err2 := rawGit(ctx, b.work, b.o.Env, "show", e.HeadSha+":"+lock)
	if err1 != nil || err2 != nil {
		b.stop(NotRun, "reading %s at the base and the head: %v", lock, orErr(err1, err2))
		return
	}
	moves, err := Moves(lock, []byte(baseLock), []byte(headLock))
	if err != nil {
		b.stop(NotRun, "%v", err)
		return
	}
	b.rep.Moves = moves
	targets, err := Targets(moves)
	if err != nil {
		b.stop(NotRun, "%v", err)
		return
	}
	if len(targets) == 0 {
		b.stop(Unchanged, "the pull request moves no declared package in %s: nothing to migrate", lock)
		return
	}
	names := lists.SortedKeys(targets)

	// The migrations read the pull request's sources with the base's
	// dependencies installed: check compares what is installed with the
	// target, and the base's sources could be stale.
	b.progress(model.PhaseClone, "the pull request's sources with the base's dependencies")
	if b.base, err = b.clone(ctx, fmt.Sprintf("uptide/bot-pr-%d-base", e.Number)); err != nil {
		b.stop(NotRun, "%v", err)
		return
	}
	if err := b.baseDependencies(ctx); err != nil {
		b.stop(NotRun, "%v", err)
		return
	}
	if err := b.install(ctx, b.base); err != nil {
		b.stop(NotRun, "installing the base's dependencies: %v", err)
		return
	}
	baseHead, _ := b.base.Git(ctx, "rev-parse", "HEAD")
	var diffs []string
	for _, name := range names {
		m, diff := b.migrate(ctx, name, targets[name], baseHead)
		b.rep.Migrations = append(b.rep.Migrations, m)
		if m.Status != string(fix.StatusVerified) {
			b.stop(Failed, "the %s %s → %s migration did not verify: %s; nothing is pushed", name, m.From, m.To, m.Reason)
			return
		}
		if diff != "" {
			diffs = append(diffs, diff)
		}
	}

	// Only the source diffs reach the pull request's exact head.
	for _, d := range diffs {
		if err := b.apply(ctx, d); err != nil {
			b.stop(Failed, "applying the migrations' edits to the pull request's head: %v; nothing is pushed", err)
			return
		}
	}
	edited, _ := b.work.Git(ctx, "diff", "--cached", "--name-only")
	files := strings.Fields(edited)
	if len(files) > 0 && !b.commit(ctx, files) {
		return
	}
	// The head (with the commit) is verified as uptide verify verifies a
	// branch: the base's lockfile installed for the baseline, the pull
	// request's own lockfile (frozen, scripts off), the compile against
	// that baseline, the tests, the lint of the changed files.
	branch := fmt.Sprintf("uptide/bot-pr-%d", e.Number)
	b.rep.Verify, err = fix.Verify(ctx, fix.VerifyOptions{Options: fix.Options{Cwd: b.work.Work, Env: env, RunsRoot: b.o.RunsRoot,
		TestTimeout: b.o.TestTimeout, Progress: b.o.Progress, Secrets: b.o.Secrets}, Branch: branch, Base: e.BaseSha})
	if err != nil {
		b.stop(NotRun, "verifying the pull request's head: %v", err)
		return
	}
	if b.rep.Verify.Status != fix.StatusVerified {
		b.stop(Failed, "the pull request's head with the edits did not verify: %s; nothing is pushed", b.rep.Verify.Reason)
		return
	}
	if len(files) == 0 {
		b.stop(Unchanged, "verified: no rule had anything to edit")
		return
	}
	b.push(ctx)
}

// commit makes the one commit of the edits on the event's head.
func (b *bot) commit(ctx context.Context, files []string) bool {
	e := b.o.Event
	var to []string
	for _, m := range b.rep.Migrations {
		to = append(to, m.Package+" "+m.To)
	}
	sha, err := b.work.Commit(ctx, "uptide: migrate the code to "+strings.Join(to, ", "), files...)
	if err != nil {
		b.stop(Failed, "committing the edits: %v", err)
		return false
	}
	if parent, _ := b.work.Git(ctx, "rev-parse", sha+"^"); parent != e.HeadSha {
		b.stop(Failed, "the commit's parent is %s, not the event's head %s", short(parent), short(e.HeadSha))
		return false
	}
	b.rep.Commit = sha
	return true
}

// push pushes the verified commit once GitHub says the head is still the
// event's.
func (b *bot) push(ctx context.Context) {
	e, sha := b.o.Event, b.rep.Commit
	if b.o.GitHub == nil {
		b.stop(Committed, "verified and committed in %s; nothing was asked to push it", b.work.Work)
		b.rep.Kept = append(b.rep.Kept, b.work.Dir)
		b.work = nil
		return
	}
	head, err := b.o.GitHub.PullHead(ctx, e.Number)
	if err != nil {
		b.stop(NotRun, "%v; nothing is pushed", err)
		return
	}
	if head != e.HeadSha {
		b.stop(Refused, "the pull request's head moved to %s since the event's %s: nothing is pushed (the run of the new head takes it)", short(head), short(e.HeadSha))
		return
	}
	b.progress(model.PhasePublish, "pushing %s onto %s", short(sha), e.HeadRef)
	if err := b.o.GitHub.Push(ctx, b.work.Work, "origin", sha, e.HeadRef); err != nil {
		b.stop(Refused, "%v", err)
		return
	}
	b.rep.Status, b.rep.Reason = Pushed, ""
}

// clone is a private clone of the checkout at the event's head, on
// branch.
func (b *bot) clone(ctx context.Context, branch string) (*isolate.Clone, error) {
	e := b.o.Event
	c, err := isolate.New(ctx, isolate.Options{Checkout: b.o.Cwd, Root: b.o.RunsRoot, Branch: branch, Env: b.o.Env})
	if err != nil {
		return nil, err
	}
	for _, sha := range []string{e.HeadSha, e.BaseSha} {
		if _, err := c.Git(ctx, "cat-file", "-e", sha+"^{commit}"); err != nil {
			if _, err := c.Git(ctx, "fetch", "--quiet", "origin", sha); err != nil {
				_ = c.Remove()
				return nil, fmt.Errorf("the checkout lacks %s and fetching it failed (%v): check out with fetch-depth: 0", short(sha), err)
			}
		}
	}
	if _, err := c.Git(ctx, "checkout", "--quiet", "-B", branch, e.HeadSha); err != nil {
		_ = c.Remove()
		return nil, err
	}
	// A credential the checkout's configuration holds (actions/checkout's
	// auth header, unless persist-credentials: false) stays out of the
	// clones, where installs and tests run; the push brings its own.
	if keys, err := c.Git(ctx, "config", "--name-only", "--get-regexp", `^http\..*extraheader$`); err == nil {
		for _, k := range strings.Fields(keys) {
			if _, err := c.Git(ctx, "config", "--unset-all", k); err != nil {
				_ = c.Remove()
				return nil, err
			}
		}
	}
	// Installed dependencies are never part of a commit of uptide's.
	if err := appendExclude(c.Work, "node_modules/"); err != nil {
		_ = c.Remove()
		return nil, err
	}
	return c, nil
}

func appendExclude(work, pattern string) error {
	f, err := os.OpenFile(filepath.Join(work, ".git", "info", "exclude"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fmt.Fprintln(f, pattern)
	return err
}

// lockfile is the lockfile at the head's root; only pnpm's is taken.
func (b *bot) lockfile(ctx context.Context) (string, error) {
	out, err := b.work.Git(ctx, "ls-tree", "--name-only", b.o.Event.HeadSha)
	if err != nil {
		return "", err
	}
	var found []string
	for _, f := range strings.Fields(out) {
		if model.LockfileWriter(f) != "" {
			found = append(found, f)
		}
	}
	switch {
	case len(found) == 1 && found[0] == "pnpm-lock.yaml":
		return found[0], nil
	case len(found) == 0:
		return "", fmt.Errorf("the pull request's head has no lockfile at the repository root: uptide bot-pr reads what a pull request moves from pnpm-lock.yaml")
	}
	return "", fmt.Errorf("uptide bot-pr supports pnpm repositories only (pnpm-lock.yaml); this one has %s: run uptide fix on the upgrade instead", strings.Join(found, ", "))
}

// depFiles are the files that declare or lock dependencies: the
// migrations read the base's.
func depFile(path string) bool {
	switch filepath.Base(path) {
	case "package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", ".npmrc", ".pnpmfile.cjs":
		return true
	}
	return false
}

// baseDependencies puts the base's declarations and lockfile under the
// head's sources, as one commit of the base clone.
func (b *bot) baseDependencies(ctx context.Context) error {
	e := b.o.Event
	out, err := b.base.Git(ctx, "diff", "--name-only", "--no-renames", e.BaseSha, e.HeadSha)
	if err != nil {
		return err
	}
	var files []string
	for _, f := range strings.Split(out, "\n") {
		if f == "" || !depFile(f) {
			continue
		}
		files = append(files, f)
		if _, err := b.base.Git(ctx, "cat-file", "-e", e.BaseSha+":"+f); err != nil {
			if _, err := b.base.Git(ctx, "rm", "--quiet", "--", f); err != nil {
				return err
			}
			continue
		}
		if _, err := b.base.Git(ctx, "checkout", e.BaseSha, "--", f); err != nil {
			return err
		}
	}
	if len(files) == 0 {
		return nil
	}
	_, err = b.base.Commit(ctx, "the pull request's sources with the base's dependencies", files...)
	return err
}

// install installs a clone's lockfile exactly (frozen, scripts off) with
// the manager the repository names.
func (b *bot) install(ctx context.Context, c *isolate.Clone) error {
	repository, err := repo.Load(c.Work)
	if err != nil {
		return err
	}
	env := c.Env(b.o.Env)
	client, err := engine.NewClient(c.Work, env)
	if err != nil {
		return err
	}
	b.o.Secrets.Withhold(client.Config().Secrets()...)
	d, err := managers.Detect(ctx, c.Work, repository, env, managers.RegistryFetch(client))
	if err != nil {
		return err
	}
	args := append(append([]string{}, d.Argv[1:]...), d.Manager.FrozenArgs()...)
	cmd := exec.CommandContext(ctx, d.Argv[0], args...)
	cmd.Dir, cmd.Env = c.Work, d.Manager.Env(env)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", d.Manager.Command(), strings.Join(d.Manager.FrozenArgs(), " "), err, b.o.Secrets.String(managers.TailLines(string(out), 20)))
	}
	return nil
}

// migrate runs fix on the base clone for one package: check, the pack's
// rule edits, verification, in a clone of its own. Its diff is the
// source files the edits changed (never the declarations or the
// lockfile, which are the pull request's).
func (b *bot) migrate(ctx context.Context, name, to, baseHead string) (Migration, string) {
	b.progress(model.PhaseEdits, "migrating %s to %s in a fix run of its own", name, to)
	rep, err := fix.Run(ctx, fix.Options{Cwd: b.base.Work, Env: b.o.Env, Package: name, Targets: map[string]string{name: to},
		RunsRoot: b.o.RunsRoot, TestTimeout: b.o.TestTimeout, Progress: b.o.Progress, Secrets: b.o.Secrets})
	if err != nil {
		return Migration{Package: name, To: to, Status: string(fix.StatusNotRun), Reason: err.Error(), Sites: []fix.Site{}, Decisions: []string{}, Files: []string{}}, ""
	}
	m := Migration{Package: name, From: rep.From, To: rep.To, Status: string(rep.Status), Reason: rep.Reason, Rules: rep.Rules,
		Sites: rep.Sites, Decisions: rep.Decisions, Files: []string{}}
	if rep.Status != fix.StatusVerified {
		return m, ""
	}
	if rep.Checkout.Sha == "" {
		m.Status, m.Reason = string(fix.StatusNotRun), "its branch did not reach the base clone: "+rep.Checkout.BranchWhy
		return m, ""
	}
	args := []string{"diff", "--binary", baseHead, rep.Checkout.Sha, "--", "."}
	if rep.Install != nil {
		for _, f := range append(append([]string{}, rep.Install.Manifests...), rep.Install.Lockfile) {
			args = append(args, ":(exclude)"+f)
		}
	}
	diff, err := rawGit(ctx, b.base, b.o.Env, args...)
	if err != nil {
		m.Status, m.Reason = string(fix.StatusNotRun), "reading its edits: "+err.Error()
		return m, ""
	}
	names, _ := b.base.Git(ctx, append([]string{"diff", "--name-only"}, args[2:]...)...)
	m.Files = strings.Fields(names)
	for _, f := range m.Files {
		if depFile(f) {
			m.Status, m.Reason = string(fix.StatusFailed), "its edits change "+f+", which the pull request owns"
			return m, ""
		}
	}
	if diff == "" {
		return m, ""
	}
	return m, diff
}

// rawGit is git's stdout untrimmed in the clone: a diff's last context
// line may be blank.
func rawGit(ctx context.Context, c *isolate.Clone, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", c.Work}, args...)...)
	cmd.Env = c.Env(env)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(string(ee.Stderr)))
	}
	return string(out), err
}

// apply applies a migration's diff to the head clone's index and tree.
func (b *bot) apply(ctx context.Context, diff string) error {
	f, err := os.CreateTemp(b.work.Dir, "edits-*.diff")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(diff); err != nil {
		f.Close()
		return err
	}
	f.Close()
	_, err = b.work.Git(ctx, "apply", "--index", f.Name())
	return err
}

func short(sha string) string { return sha[:min(len(sha), 12)] }

func orErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

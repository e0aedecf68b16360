package isolate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Clone is a private clone of the user's checkout under the runs root.
type Clone struct {
	ID       string // "20261202-174512-a1b2c3" style, unique
	Dir      string // <root>/run-<ID>: the run dir (marker, hooks dir, the work tree below)
	Work     string // the clone's work tree (Dir/repo)
	HooksDir string // an empty directory outside Work; core.hooksPath of the clone
	Checkout string // git top of the checkout
	Branch   string // the branch created in the clone
	Base     string // sha the branch starts at (the checkout's HEAD)

	root string   // the runs root, for the guarded removal
	env  []string // the base environment New was given
}

// Options says what to clone and where.
type Options struct {
	Checkout string // any directory inside the user's repository
	Root     string // runs root; "" = Root()
	Branch   string // "uptide/zod-4.1.12"
	Env      []string
}

// copiedConfig is the part of the checkout's local config the clone needs
// to fetch and push where the checkout does (remotes, URL rewrites,
// credentials and HTTP settings such as a CI's auth header) and to see the
// same files as changed (line endings, extra ignore and attribute files).
const copiedConfig = `^(remote|url|credential|http)\.|^core\.(autocrlf|eol|safecrlf|excludesfile|attributesfile)$`

// New makes the private clone: `git clone --no-checkout` of the checkout
// (local, never a worktree), then the branch at the checkout's HEAD commit
// checked out; the checkout's remotes with their fetch and push URLs (when
// it has none, origin stays the checkout itself); its remote-tracking refs;
// its author as the clone's user.name/user.email; core.hooksPath = HooksDir;
// and every installed node_modules (the repository root's and each
// workspace's) copied. Nothing is written to the checkout. On error the
// partial run dir is removed.
func New(ctx context.Context, opts Options) (*Clone, error) {
	if opts.Checkout == "" {
		return nil, errors.New("isolate: no checkout given")
	}
	base := opts.Env
	if base == nil {
		base = os.Environ()
	}
	env, done, err := quietGitEnv(base)
	if err != nil {
		return nil, err
	}
	defer done()
	repo, err := locate(ctx, env, opts.Checkout)
	if err != nil {
		return nil, fmt.Errorf("uptide fix needs a git checkout: %w", err)
	}
	if err := checkBranchName(ctx, env, repo.top, opts.Branch); err != nil {
		return nil, err
	}
	head, err := headSha(ctx, env, repo.top)
	if err != nil {
		return nil, err
	}
	if head == "" {
		return nil, fmt.Errorf("%s has no commit yet: uptide fix branches from HEAD, commit first", repo.top)
	}

	root := opts.Root
	if root == "" {
		root = Root()
	}
	if root, err = filepath.Abs(root); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("runs root %s: %w", root, err)
	}
	if err := checkPrivate(root); err != nil {
		return nil, err
	}
	c := &Clone{Checkout: repo.top, Branch: opts.Branch, Base: head, root: root, env: base}
	for attempt := 0; ; attempt++ {
		if c.ID, err = newID(time.Now()); err != nil {
			return nil, err
		}
		c.Dir = filepath.Join(root, "run-"+c.ID)
		err = os.Mkdir(c.Dir, 0o700)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || attempt == 5 {
			return nil, fmt.Errorf("run directory in %s: %w", root, err)
		}
	}
	marker := Marker{ID: c.ID, Checkout: c.Checkout, Branch: c.Branch, Created: time.Now().UTC().Format(time.RFC3339)}
	if err := writeMarker(c.Dir, marker); err != nil {
		os.Remove(c.Dir)
		return nil, fmt.Errorf("run directory %s: writing its marker: %w", c.Dir, err)
	}
	c.HooksDir = filepath.Join(c.Dir, "hooks")
	c.Work = filepath.Join(c.Dir, "repo")
	if err := c.populate(ctx, repo); err != nil {
		if rmErr := RemoveRun(root, c.Dir); rmErr != nil {
			err = fmt.Errorf("%w (and the partial run directory stays: %v)", err, rmErr)
		}
		return nil, err
	}
	return c, nil
}

// checkBranchName refuses a name git would not take as a branch.
func checkBranchName(ctx context.Context, env []string, dir, branch string) error {
	if branch == "" {
		return errors.New("isolate: no branch name given")
	}
	res, err := runGit(ctx, env, dir, "check-ref-format", "--branch", branch)
	if err != nil {
		return err
	}
	// --branch expands @{-1} and friends; only a name that is its own
	// expansion is a branch name.
	if res.Code != 0 || strings.TrimSpace(res.Stdout) != branch || strings.HasPrefix(branch, "-") || strings.Contains(branch, "@{") {
		return fmt.Errorf("%q is not a valid git branch name", branch)
	}
	return nil
}

// populate fills the run directory: the work tree (fill) and, beside it,
// the copies of the checkout's node_modules, moved in once both are done.
func (c *Clone) populate(ctx context.Context, repo checkoutRepo) error {
	if err := os.Mkdir(c.HooksDir, 0o700); err != nil {
		return err
	}
	env := c.Env(c.env)
	// The node_modules copy runs beside the clone and the checkout.
	staged := make(chan stagedModules, 1)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { staged <- c.stageNodeModules(sctx, env) }()
	if err := c.fill(ctx, env, repo); err != nil {
		cancel() // the copy is for nothing now; wait for it to stop
		<-staged
		return err
	}
	st := <-staged
	if st.err != nil {
		return st.err
	}
	return c.placeNodeModules(st)
}

// fill clones the checkout's history into the work tree and checks the
// run's branch out at the base commit, with the checkout's remotes, author
// and info files and no hook.
func (c *Clone) fill(ctx context.Context, env []string, repo checkoutRepo) error {
	// --template= keeps the user's template hooks out; the quiet
	// environment already points git at the empty HooksDir.
	if _, err := git(ctx, env, c.Dir, "clone", "--no-checkout", "--quiet", "--template=", "--", c.Checkout, c.Work); err != nil {
		return fmt.Errorf("cloning %s into %s: %w", c.Checkout, c.Work, err)
	}
	if res, err := runGit(ctx, env, c.Work, "cat-file", "-e", c.Base+"^{commit}"); err != nil {
		return err
	} else if res.Code != 0 {
		// A detached HEAD on a commit no branch holds.
		if _, err := git(ctx, env, c.Work, "fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--", c.Checkout, "HEAD"); err != nil {
			return fmt.Errorf("fetching the checkout's HEAD into the clone: %w", err)
		}
	}
	if err := c.copyConfig(ctx, env, repo); err != nil {
		return err
	}
	if err := c.copyIdentity(ctx, env); err != nil {
		return err
	}
	if _, err := git(ctx, env, c.Work, "config", "core.hooksPath", c.HooksDir); err != nil {
		return err
	}
	for _, name := range []string{"exclude", "attributes"} {
		if err := copyInfoFile(repo, c.Work, name); err != nil {
			return err
		}
	}
	if _, err := git(ctx, env, c.Work, "-c", "advice.detachedHead=false", "checkout", "--quiet", "-B", c.Branch, c.Base); err != nil {
		return fmt.Errorf("checking out %s in the clone: %w", c.Branch, err)
	}
	// The clone's other local branch (the checkout's current one, made by
	// clone) is nobody's; only the run's branch lives here.
	heads, err := git(ctx, env, c.Work, "for-each-ref", "--format=%(refname)", "refs/heads")
	if err != nil {
		return err
	}
	for _, ref := range strings.Fields(heads) {
		if ref != "refs/heads/"+c.Branch {
			if _, err := git(ctx, env, c.Work, "update-ref", "-d", ref); err != nil {
				return err
			}
		}
	}
	return nil
}

// copyConfig gives the clone the checkout's remotes (and what pushing
// through them needs) and its remote-tracking refs. When the checkout has
// no remote, origin stays the checkout itself, as clone set it.
func (c *Clone) copyConfig(ctx context.Context, env []string, repo checkoutRepo) error {
	res, err := runGit(ctx, withoutHooksOverride(env), c.Checkout, "config", "--local", "-z", "--get-regexp", copiedConfig)
	if err != nil {
		return err
	}
	if res.Code > 1 {
		return gitError(c.Checkout, []string{"config", "--local", "--get-regexp"}, res)
	}
	entries := parseConfigZ(res.Stdout)
	hasRemote := false
	for _, e := range entries {
		if isRemoteURLKey(e.key) {
			hasRemote = true
		}
	}
	if hasRemote {
		// Drops clone's origin (the checkout) and its tracking refs,
		// which are the checkout's branches, not origin's.
		if _, err := git(ctx, env, c.Work, "remote", "remove", "origin"); err != nil {
			return err
		}
	}
	for _, e := range entries {
		if !hasRemote && strings.HasPrefix(e.key, "remote.") {
			continue
		}
		value := e.value
		if isRemoteURLKey(e.key) {
			value = absoluteURL(value, c.Checkout)
		}
		args := []string{"config", "--add", e.key}
		if e.hasValue {
			args = append(args, value)
		}
		if _, err := git(ctx, env, c.Work, args...); err != nil {
			return err
		}
	}
	if !hasRemote {
		return nil
	}
	if _, err := git(ctx, env, c.Work, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules",
		"--no-prune", "--", c.Checkout, "+refs/remotes/*:refs/remotes/*"); err != nil {
		return fmt.Errorf("copying the checkout's remote-tracking refs into the clone: %w", err)
	}
	syms, err := git(ctx, env, c.Checkout, "for-each-ref", "--format=%(refname) %(symref)", "refs/remotes")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(syms, "\n") {
		ref, target, _ := strings.Cut(strings.TrimSpace(line), " ")
		if ref == "" || target == "" {
			continue
		}
		if _, err := git(ctx, env, c.Work, "symbolic-ref", ref, target); err != nil {
			return err
		}
	}
	return nil
}

type configEntry struct {
	key, value string
	hasValue   bool
}

// parseConfigZ reads `git config -z` output: key, newline, value, NUL (a
// key with no value has no newline).
func parseConfigZ(out string) []configEntry {
	var entries []configEntry
	for _, rec := range strings.Split(out, "\x00") {
		if rec == "" {
			continue
		}
		key, value, hasValue := strings.Cut(rec, "\n")
		entries = append(entries, configEntry{key: key, value: value, hasValue: hasValue})
	}
	return entries
}

func isRemoteURLKey(key string) bool {
	k := strings.ToLower(key)
	return strings.HasPrefix(k, "remote.") && (strings.HasSuffix(k, ".url") || strings.HasSuffix(k, ".pushurl"))
}

var schemeURL = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// absoluteURL makes a relative local path (a remote "../upstream.git")
// absolute against the checkout, where git would resolve it; URLs and
// scp-like host:path stay as they are.
func absoluteURL(u, checkout string) string {
	if u == "" || filepath.IsAbs(u) || schemeURL.MatchString(u) {
		return u
	}
	if i := strings.IndexByte(u, ':'); i > 0 && !strings.Contains(u[:i], "/") {
		return u // host:path
	}
	return filepath.Join(checkout, u)
}

// copyIdentity writes the checkout's effective author (and committer,
// when it differs) into the clone's local config.
func (c *Clone) copyIdentity(ctx context.Context, env []string) error {
	author, err := ident(ctx, env, c.Checkout, "GIT_AUTHOR_IDENT")
	if err != nil {
		return err
	}
	committer, err := ident(ctx, env, c.Checkout, "GIT_COMMITTER_IDENT")
	if err != nil {
		return err
	}
	set := [][2]string{{"user.name", author[0]}, {"user.email", author[1]}}
	if committer != author {
		set = append(set, [2]string{"committer.name", committer[0]}, [2]string{"committer.email", committer[1]})
	}
	for _, kv := range set {
		if _, err := git(ctx, env, c.Work, "config", kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// ident is git's own answer to who commits in dir: "Name <email> time tz".
func ident(ctx context.Context, env []string, dir, which string) ([2]string, error) {
	res, err := runGit(ctx, env, dir, "var", which)
	if err != nil {
		return [2]string{}, err
	}
	line := strings.TrimSpace(res.Stdout)
	lt, gt := strings.IndexByte(line, '<'), strings.LastIndexByte(line, '>')
	if res.Code != 0 || lt < 0 || gt < lt {
		return [2]string{}, fmt.Errorf("no git identity in %s (%s): set one with git config user.name \"Your Name\" and git config user.email you@example.com",
			dir, strings.TrimSpace(res.Output))
	}
	return [2]string{strings.TrimSpace(line[:lt]), line[lt+1 : gt]}, nil
}

// copyInfoFile copies the repository's info/<name> (extra excludes,
// attributes), so the clone ignores what the checkout ignores.
func copyInfoFile(repo checkoutRepo, work, name string) error {
	data, err := os.ReadFile(filepath.Join(repo.commonDir, "info", name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the checkout's .git/info/%s: %w", name, err)
	}
	dir := filepath.Join(work, ".git", "info")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), data, 0o644)
}

// Git runs git in the clone's work tree with the quiet environment; it
// returns trimmed stdout.
func (c *Clone) Git(ctx context.Context, args ...string) (string, error) {
	return git(ctx, c.Env(c.env), c.Work, args...)
}

// Env is proc.Quiet(base, c.HooksDir), without the variables (GIT_DIR,
// GIT_WORK_TREE, …) that would send a tool's git back to the checkout.
func (c *Clone) Env(base []string) []string {
	return quietEnv(base, c.HooksDir)
}

// Path is where a directory of the checkout is in the clone.
func (c *Clone) Path(checkoutPath string) (string, error) {
	p, err := filepath.Abs(checkoutPath)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	rel, err := filepath.Rel(c.Checkout, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is not inside the checkout %s", checkoutPath, c.Checkout)
	}
	return filepath.Join(c.Work, rel), nil
}

// Commit stages paths (relative to Work; everything, git add -A respecting
// .gitignore, when none are named) and commits
// with message as the checkout's author; it returns the new sha, "" and no
// error when nothing changed. Signing is off: a run must not wait on a
// passphrase prompt.
func (c *Clone) Commit(ctx context.Context, message string, paths ...string) (string, error) {
	if strings.TrimSpace(message) == "" {
		return "", errors.New("isolate: empty commit message")
	}
	if err := c.resetHooksDir(); err != nil {
		return "", err
	}
	env := c.Env(c.env)
	add := []string{"add", "-A"}
	if len(paths) > 0 {
		add = append([]string{"add", "--"}, paths...)
	}
	if _, err := git(ctx, env, c.Work, add...); err != nil {
		return "", err
	}
	res, err := runGit(ctx, env, c.Work, "diff", "--cached", "--quiet")
	if err != nil {
		return "", err
	}
	switch res.Code {
	case 0:
		return "", nil
	case 1:
	default:
		return "", gitError(c.Work, []string{"diff", "--cached", "--quiet"}, res)
	}
	if _, err := git(ctx, env, c.Work, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", message); err != nil {
		return "", err
	}
	return git(ctx, env, c.Work, "rev-parse", "HEAD")
}

// resetHooksDir empties HooksDir again if a tool in the clone (a hook
// installer asking git where hooks go) wrote into it.
func (c *Clone) resetHooksDir() error {
	entries, err := os.ReadDir(c.HooksDir)
	if err == nil && len(entries) == 0 {
		return nil
	}
	if err := os.RemoveAll(c.HooksDir); err != nil {
		return fmt.Errorf("emptying the clone's hooks directory %s: %w", c.HooksDir, err)
	}
	return os.Mkdir(c.HooksDir, 0o700)
}

// Remove deletes the run dir through the guard (RemoveRun's), without
// waiting for its files: deleting a copied node_modules takes as long as
// copying it did (25 s for the 41,000 files of a real yarn repository on a
// loaded machine), and nothing needs them gone before the run ends. The
// directory is renamed discarded-<id> at once (List never shows it) and a
// process of its own, which may outlive this one, deletes it; where none
// can start it is deleted here. What a deletion cut short leaves, Clean
// deletes.
func (c *Clone) Remove() error {
	root := c.root
	if root == "" {
		root = filepath.Dir(c.Dir)
	}
	k, err := inspect(root, c.Dir)
	if err != nil {
		return fmt.Errorf("refusing to delete %s: %w", c.Dir, err)
	}
	realRoot, err := filepath.EvalSymlinks(filepath.Dir(k.Dir))
	if err != nil {
		return err
	}
	discarded := filepath.Join(realRoot, discardedPrefix+k.ID)
	if err := os.Rename(filepath.Join(realRoot, runPrefix+k.ID), discarded); err != nil {
		return RemoveRun(root, c.Dir)
	}
	if deleteDetached(discarded) == nil {
		return nil
	}
	return removeNamed(root, discarded, discardedPrefix)
}

// Rename renames the clone's branch (named before the run knew its
// target) to branch, which must be a valid branch name.
func (c *Clone) Rename(ctx context.Context, branch string) error {
	if branch == c.Branch {
		return nil
	}
	if err := checkBranchName(ctx, c.Env(c.env), c.Work, branch); err != nil {
		return err
	}
	if _, err := git(ctx, c.Env(c.env), c.Work, "branch", "-m", c.Branch, branch); err != nil {
		return err
	}
	c.Branch = branch
	// The marker names the branch `uptide clean` lists the run by.
	return renameInMarker(c.Dir, branch)
}

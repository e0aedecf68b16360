package isolate

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Snapshot is what the guard compares before and after a run.
type Snapshot struct {
	Head, Branch, Status, HooksDigest, Config string
}

// checkoutRepo is what the snapshot and the clone need to know about where
// the checkout's repository lives.
type checkoutRepo struct {
	top       string // the work tree's top
	gitDir    string // this work tree's git dir (differs from common in a linked worktree)
	commonDir string // refs, objects, config, hooks
}

// locate finds the repository around dir; a directory outside any work
// tree is errNotRepo.
func locate(ctx context.Context, env []string, dir string) (checkoutRepo, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return checkoutRepo{}, fmt.Errorf("%s: %w", dir, errNoDir)
	}
	res, err := runGit(ctx, env, dir, "rev-parse", "--show-toplevel", "--git-dir", "--git-common-dir")
	if err != nil {
		return checkoutRepo{}, err
	}
	lines := strings.Split(strings.TrimRight(res.Stdout, "\n"), "\n")
	if res.Code != 0 || len(lines) != 3 || lines[0] == "" {
		return checkoutRepo{}, fmt.Errorf("%s: %w", dir, errNotRepo)
	}
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return filepath.Clean(p)
	}
	return checkoutRepo{top: filepath.Clean(lines[0]), gitDir: abs(lines[1]), commonDir: abs(lines[2])}, nil
}

var (
	errNoDir   = errors.New("no such directory")
	errNotRepo = errors.New("not inside a git work tree")
)

// Take snapshots the checkout: HEAD sha, current branch (or "(detached)"),
// `git status --porcelain=v1 -z --untracked-files=all` (ignored files
// excluded), a digest of the hooks directory (core.hooksPath if set, else
// the repository's hooks: every file's path, mode, content) and the local
// config file (.git/config bytes; also config.worktree if present). Taking
// it writes nothing into the checkout, not even the index refresh git
// status would otherwise do.
func Take(ctx context.Context, checkout string) (Snapshot, error) {
	env, done, err := quietGitEnv(nil)
	if err != nil {
		return Snapshot{}, err
	}
	defer done()
	return take(ctx, env, checkout)
}

func take(ctx context.Context, env []string, checkout string) (Snapshot, error) {
	repo, err := locate(ctx, env, checkout)
	if err != nil {
		return Snapshot{}, fmt.Errorf("snapshot of the checkout: %w", err)
	}
	var s Snapshot
	if s.Head, err = headSha(ctx, env, repo.top); err != nil {
		return Snapshot{}, err
	}
	res, err := runGit(ctx, env, repo.top, "symbolic-ref", "-q", "--short", "HEAD")
	if err != nil {
		return Snapshot{}, err
	}
	s.Branch = "(detached)"
	if res.Code == 0 {
		s.Branch = strings.TrimSpace(res.Stdout)
	}
	if s.Status, err = status(ctx, env, repo.top); err != nil {
		return Snapshot{}, err
	}
	hooksDir, err := hooksDirOf(ctx, env, repo)
	if err != nil {
		return Snapshot{}, err
	}
	if s.HooksDigest, err = digestDir(hooksDir); err != nil {
		return Snapshot{}, fmt.Errorf("snapshot of the checkout's hooks directory %s: %w", hooksDir, err)
	}
	if s.Config, err = localConfig(repo); err != nil {
		return Snapshot{}, err
	}
	return s, nil
}

// headSha is HEAD's commit, "" on a branch with no commit yet.
func headSha(ctx context.Context, env []string, dir string) (string, error) {
	res, err := runGit(ctx, env, dir, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil {
		return "", err
	}
	if res.Code != 0 {
		return "", nil
	}
	return strings.TrimSpace(res.Stdout), nil
}

// status is git status as NUL-separated porcelain entries. fsmonitor is
// off because it is a program of the repository's configuration.
func status(ctx context.Context, env []string, dir string) (string, error) {
	args := []string{"-c", "core.fsmonitor=false", "status", "--porcelain=v1", "-z",
		"--untracked-files=all", "--ignored=no", "--no-renames"}
	res, err := runGit(ctx, env, dir, args...)
	if err != nil {
		return "", err
	}
	if res.Code != 0 {
		return "", gitError(dir, args, res)
	}
	return res.Stdout, nil // untrimmed: an entry starts with a space
}

// hooksDirOf is the directory git takes hooks from in the checkout: its
// own core.hooksPath (the quiet environment's override set aside), else the
// common git dir's hooks.
func hooksDirOf(ctx context.Context, env []string, repo checkoutRepo) (string, error) {
	res, err := runGit(ctx, withoutHooksOverride(env), repo.top, "config", "--type=path", "--get", "core.hooksPath")
	if err != nil {
		return "", err
	}
	if p := strings.TrimSpace(res.Stdout); res.Code == 0 && p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(repo.top, p)
		}
		return p, nil
	}
	return filepath.Join(repo.commonDir, "hooks"), nil
}

// digestDir hashes every entry below dir: path, mode, and content (a
// symlink's target). A missing directory has a digest of its own.
func digestDir(dir string) (string, error) {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return "absent", nil
	}
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%o\x00", filepath.ToSlash(rel), info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			io.WriteString(h, target)
		case info.Mode().IsRegular():
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			_, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				return err
			}
		}
		h.Write([]byte{0})
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

const worktreeConfigMark = "\n# uptide: config.worktree follows\n"

// localConfig is the bytes of the repository's config file, then the
// work tree's config.worktree when there is one.
func localConfig(repo checkoutRepo) (string, error) {
	data, err := os.ReadFile(filepath.Join(repo.commonDir, "config"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("snapshot of the checkout's git config: %w", err)
	}
	cfg := string(data)
	wt, err := os.ReadFile(filepath.Join(repo.gitDir, "config.worktree"))
	switch {
	case err == nil:
		cfg += worktreeConfigMark + string(wt)
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("snapshot of the checkout's git config: %w", err)
	}
	return cfg, nil
}

// Changes lists, in words, what differs in after: "HEAD moved from 1a2b3c4
// to 5d6e7f8", "branch changed from main to x", "git status changed: ??
// SCRIPT-RAN", "hooks directory changed", "local git config changed: +
// core.hookspath=.husky". None for an unchanged checkout.
func (s Snapshot) Changes(after Snapshot) []string {
	var out []string
	if s.Head != after.Head {
		out = append(out, fmt.Sprintf("HEAD moved from %s to %s", short(s.Head), short(after.Head)))
	}
	if s.Branch != after.Branch {
		out = append(out, fmt.Sprintf("branch changed from %s to %s", s.Branch, after.Branch))
	}
	if s.Status != after.Status {
		added, gone := diffMultiset(statusEntries(s.Status), statusEntries(after.Status))
		var words []string
		words = append(words, added...)
		for _, g := range gone {
			words = append(words, "no longer "+g)
		}
		msg := "git status changed"
		if len(words) > 0 {
			msg += ": " + listSome(words, 10)
		}
		out = append(out, msg)
	}
	if s.HooksDigest != after.HooksDigest {
		out = append(out, "hooks directory changed")
	}
	if s.Config != after.Config {
		added, gone := diffMultiset(configEntries(s.Config), configEntries(after.Config))
		var words []string
		for _, a := range added {
			words = append(words, "+ "+a)
		}
		for _, g := range gone {
			words = append(words, "- "+g)
		}
		msg := "local git config changed"
		if len(words) > 0 {
			msg += ": " + listSome(words, 10)
		}
		out = append(out, msg)
	}
	return out
}

func short(sha string) string {
	switch {
	case sha == "":
		return "(no commit)"
	case len(sha) > 7:
		return sha[:7]
	}
	return sha
}

func listSome(words []string, n int) string {
	if len(words) <= n {
		return strings.Join(words, ", ")
	}
	return strings.Join(words[:n], ", ") + fmt.Sprintf(" and %d more", len(words)-n)
}

// diffMultiset is what after has more of than before, and what it has
// fewer of, each in the order it appears.
func diffMultiset(before, after []string) (added, gone []string) {
	count := map[string]int{}
	for _, b := range before {
		count[b]++
	}
	for _, a := range after {
		if count[a] > 0 {
			count[a]--
			continue
		}
		added = append(added, a)
	}
	for _, b := range before {
		if count[b] > 0 {
			count[b]--
			gone = append(gone, b)
		}
	}
	return added, gone
}

// statusEntries splits porcelain v1 -z output into "XY path" entries (a
// rename's or copy's source field joined as "new <- old").
func statusEntries(z string) []string {
	fields := strings.Split(z, "\x00")
	var out []string
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		if (f[0] == 'R' || f[0] == 'C') && i+1 < len(fields) {
			f += " <- " + fields[i+1]
			i++
		}
		out = append(out, f)
	}
	return out
}

// configEntries reads a git config file as "section[.sub].key=value"
// entries, section and key lower-cased as git compares them. It is only
// for saying what changed; any byte difference is a change already.
func configEntries(cfg string) []string {
	var out []string
	section := ""
	sc := bufio.NewScanner(strings.NewReader(cfg))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.LastIndexByte(line, ']')
			if end < 0 {
				continue
			}
			section = parseSection(line[1:end])
			line = strings.TrimSpace(line[end+1:])
			if line == "" || line[0] == '#' || line[0] == ';' {
				continue
			}
		}
		key, value, hasValue := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		entry := section + "." + key
		if hasValue {
			entry += "=" + configValue(value)
		}
		out = append(out, entry)
	}
	return out
}

func parseSection(h string) string {
	name, sub, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok {
		// [section] or the old [section.sub] form.
		if n, s, dotted := strings.Cut(name, "."); dotted {
			return strings.ToLower(n) + "." + strings.ToLower(s)
		}
		return strings.ToLower(name)
	}
	sub = strings.TrimSpace(sub)
	sub = strings.TrimPrefix(strings.TrimSuffix(sub, `"`), `"`)
	sub = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(sub)
	return strings.ToLower(name) + "." + sub
}

// configValue trims a value, drops a trailing comment outside quotes and
// the quotes themselves.
func configValue(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(v[i])
			}
		case c == '"':
			quoted = !quoted
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// inProgress are the operations git leaves a file in the git dir for
// until they finish; HEAD is not what the user will have once they do.
var inProgress = []struct{ file, what, how string }{
	{"rebase-merge", "rebase", "git rebase --continue or --abort"},
	{"rebase-apply", "rebase or am", "git rebase --continue or --abort"},
	{"MERGE_HEAD", "merge", "git commit or git merge --abort"},
	{"CHERRY_PICK_HEAD", "cherry-pick", "git cherry-pick --continue or --abort"},
	{"REVERT_HEAD", "revert", "git revert --continue or --abort"},
	{"BISECT_LOG", "bisect", "git bisect reset"},
}

// Dirty is the reason a checkout cannot be fixed from, "" when clean:
// uncommitted or untracked (not ignored) files, naming up to 5; not a git
// repository; no commit yet; a merge, rebase, cherry-pick, revert or bisect
// in progress. The error is for git failing to answer.
func Dirty(ctx context.Context, checkout string) (string, error) {
	env, done, err := quietGitEnv(nil)
	if err != nil {
		return "", err
	}
	defer done()
	repo, err := locate(ctx, env, checkout)
	switch {
	case errors.Is(err, errNoDir):
		return fmt.Sprintf("%s does not exist: pass the directory of the repository to fix", checkout), nil
	case errors.Is(err, errNotRepo):
		return fmt.Sprintf("%s is not inside a git repository: uptide fix works on a git checkout (git init and commit first)", checkout), nil
	case err != nil:
		return "", err
	}
	head, err := headSha(ctx, env, repo.top)
	if err != nil {
		return "", err
	}
	if head == "" {
		return fmt.Sprintf("%s has no commit yet: uptide fix branches from HEAD, commit first", repo.top), nil
	}
	for _, op := range inProgress {
		if _, err := os.Lstat(filepath.Join(repo.gitDir, op.file)); err == nil {
			return fmt.Sprintf("%s is in the middle of a %s: finish or abort it first (%s)", repo.top, op.what, op.how), nil
		}
	}
	st, err := status(ctx, env, repo.top)
	if err != nil {
		return "", err
	}
	entries := statusEntries(st)
	if len(entries) == 0 {
		return "", nil
	}
	for i, e := range entries {
		entries[i] = strings.TrimSpace(e)
	}
	sort.Strings(entries)
	return fmt.Sprintf("%s has uncommitted or untracked files (%s): commit or stash them first; uptide fix branches from HEAD and would leave them out",
		repo.top, listSome(entries, 5)), nil
}

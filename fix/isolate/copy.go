package isolate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/uptide/uptide/internal/proc"
)

// installedDirs are the directories of the repository at dir that may
// hold an installed node_modules: every tracked package.json's directory
// outside node_modules (the repository root and each workspace), slash,
// relative to dir.
func installedDirs(ctx context.Context, env []string, dir string) ([]string, error) {
	out, err := git(ctx, env, dir, "ls-files", "-z", "--", ":(glob)**/package.json")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var dirs []string
	for _, f := range strings.Split(out, "\x00") {
		if f == "" || strings.Contains("/"+f, "/node_modules/") {
			continue
		}
		d := path.Dir(f)
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	return dirs, nil
}

// stagedModules are the checkout's node_modules copied into the run
// directory, waiting for the clone's work tree to take them.
type stagedModules struct {
	dirs []string // slash, relative to the repository top
	tmp  []string // where each was copied
	err  error
}

// stageNodeModules copies each installed node_modules of the checkout into
// the run directory, beside the clone and checkout that fill the work
// tree (a copy is most of a clone's time): cp -a --reflink=auto
// (copy-on-write where the filesystem has it) when cp takes it, else a
// copy in Go that keeps symlinks, modes and times. An absolute symlink
// into the checkout is pointed at the same place in the clone, so nothing
// run in the clone writes through it.
func (c *Clone) stageNodeModules(ctx context.Context, env []string) stagedModules {
	var st stagedModules
	dirs, err := installedDirs(ctx, env, c.Checkout)
	if err != nil {
		st.err = err
		return st
	}
	staging := filepath.Join(c.Dir, "modules")
	useCp := -1 // unknown until the first copy
	for i, d := range dirs {
		src := filepath.Join(c.Checkout, filepath.FromSlash(d), "node_modules")
		if _, err := os.Lstat(src); err != nil {
			continue // not installed there
		}
		if err := os.MkdirAll(staging, 0o700); err != nil {
			st.err = err
			return st
		}
		tmp := filepath.Join(staging, strconv.Itoa(i))
		st.dirs, st.tmp = append(st.dirs, d), append(st.tmp, tmp)
		if storeLinked(src) {
			// pnpm's tree: its store's files are linked, the rest copied.
			if err := c.copyTree(ctx, src, tmp, storeFile); err != nil {
				st.err = fmt.Errorf("copying %s into the clone: %w", src, err)
				return st
			}
			continue
		}
		if useCp < 0 {
			useCp = 0
			if cpReflinks(ctx, c.Dir) {
				useCp = 1
			}
		}
		if useCp == 1 {
			res, err := proc.Run(ctx, proc.Cmd{Argv: []string{"cp", "-a", "--reflink=auto", "--", src, tmp}, Env: env})
			if err == nil && res.ExitCode != 0 {
				err = fmt.Errorf("cp failed: %s", strings.TrimSpace(res.Output))
			}
			if err == nil {
				err = c.retargetLinks(tmp)
			}
			if err != nil {
				st.err = fmt.Errorf("copying %s into the clone: %w", src, err)
				return st
			}
			continue
		}
		if err := c.copyTree(ctx, src, tmp, nil); err != nil {
			st.err = fmt.Errorf("copying %s into the clone: %w", src, err)
			return st
		}
	}
	return st
}

// placeNodeModules moves the staged copies into the checked-out work tree
// (a rename: the same file system), leaving out a directory the commit
// does not have and a node_modules the repository commits.
func (c *Clone) placeNodeModules(st stagedModules) error {
	defer os.RemoveAll(filepath.Join(c.Dir, "modules"))
	for i, d := range st.dirs {
		parent := filepath.Join(c.Work, filepath.FromSlash(d))
		dst := filepath.Join(parent, "node_modules")
		if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
			continue
		}
		if _, err := os.Lstat(dst); err == nil {
			continue // committed to the repository: the clone has it
		}
		if err := os.Rename(st.tmp[i], dst); err != nil {
			return fmt.Errorf("moving the copy of %s/node_modules into the clone: %w", d, err)
		}
	}
	return nil
}

// cpReflinks is whether this machine's cp copies with -a --reflink=auto
// (GNU cp; the BSD one has no --reflink), tried on a file in scratch.
func cpReflinks(ctx context.Context, scratch string) bool {
	probe, err := os.MkdirTemp(scratch, "cp-probe-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(probe)
	src := filepath.Join(probe, "a")
	if err := os.WriteFile(src, []byte("probe"), 0o644); err != nil {
		return false
	}
	res, err := proc.Run(ctx, proc.Cmd{Argv: []string{"cp", "-a", "--reflink=auto", "--", src, filepath.Join(probe, "b")}})
	if err != nil || res.ExitCode != 0 {
		return false
	}
	data, err := os.ReadFile(filepath.Join(probe, "b"))
	return err == nil && string(data) == "probe"
}

// linkTarget is target with a path into the checkout moved into the clone.
func (c *Clone) linkTarget(target string) string {
	if !filepath.IsAbs(target) {
		return target
	}
	rel, err := filepath.Rel(c.Checkout, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return target
	}
	return filepath.Join(c.Work, rel)
}

// retargetLinks rewrites the absolute symlinks into the checkout that cp
// copied verbatim.
func (c *Clone) retargetLinks(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, err := os.Readlink(p)
		if err != nil {
			return err
		}
		if moved := c.linkTarget(target); moved != target {
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.Symlink(moved, p)
		}
		return nil
	})
}

const keptModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// storeLinked is whether the node_modules at dir is pnpm's (its
// .modules.yaml beside a .pnpm virtual store) with the packages' files
// hard-linked from pnpm's store: one of the first files of its packages
// has more than one name. pnpm imports every package the same way, so a
// tree it cloned (copy-on-write) or copied has none, and goes to cp, which
// clones where the file system can.
func storeLinked(dir string) bool {
	yaml, err := os.Lstat(filepath.Join(dir, ".modules.yaml"))
	if err != nil || !yaml.Mode().IsRegular() {
		return false
	}
	virtual := filepath.Join(dir, ".pnpm")
	entries, err := os.ReadDir(virtual)
	if err != nil {
		return false
	}
	seen, linked := 0, false
	for _, e := range entries {
		if seen >= storeSample || linked {
			break
		}
		if !e.IsDir() || e.Name() == "node_modules" {
			continue
		}
		_ = filepath.WalkDir(filepath.Join(virtual, e.Name()), func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			if info, err := d.Info(); err == nil {
				seen++
				linked = hardLinks(info) > 1
			}
			if linked || seen >= storeSample {
				return fs.SkipAll
			}
			return nil
		})
	}
	return linked
}

// storeSample is how many of a pnpm tree's package files storeLinked
// reads at most.
const storeSample = 64

// storeFile is whether the file at rel (slash, below a pnpm node_modules)
// is one pnpm hard-linked from its content-addressed store: a file of a
// package in the .pnpm virtual store with more than one name. pnpm links
// those same files into every project that uses them, and into the clone
// when its own install puts a package there, and never writes one in
// place; a linked copy is the layout pnpm itself makes. What pnpm writes
// per project (bin shims, its own state) has one name, and is copied.
func storeFile(rel string, info fs.FileInfo) bool {
	return strings.HasPrefix(rel, ".pnpm/") && !strings.HasPrefix(rel, ".pnpm/node_modules/") && hardLinks(info) > 1
}

// copyTree copies src to dst: directories, regular files (mode and
// modification time kept) and symlinks (target kept, retargeted into the
// clone when absolute into the checkout); sockets and devices are left out.
// A file link says to share (rel is slash, below src) is hard-linked
// instead, while the file system takes links.
func (c *Clone) copyTree(ctx context.Context, src, dst string, link func(rel string, info fs.FileInfo) bool) error {
	type dirMeta struct {
		path  string
		mode  fs.FileMode
		mtime time.Time
	}
	var dirs []dirMeta
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			// Writable while it fills; its own mode once it is full.
			if err := os.Mkdir(to, 0o700); err != nil {
				return err
			}
			dirs = append(dirs, dirMeta{to, mode & keptModeBits, info.ModTime()})
		case mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(c.linkTarget(target), to)
		case mode.IsRegular():
			if link != nil && link(filepath.ToSlash(rel), info) {
				if os.Link(p, to) == nil {
					return nil
				}
				link = nil // another file system: copy the rest
			}
			return copyFile(p, to, mode&keptModeBits, info.ModTime())
		}
		return nil
	})
	if err != nil {
		return err
	}
	var errs []error
	for i := len(dirs) - 1; i >= 0; i-- {
		errs = append(errs, os.Chmod(dirs[i].path, dirs[i].mode), os.Chtimes(dirs[i].path, dirs[i].mtime, dirs[i].mtime))
	}
	return errors.Join(errs...)
}

func copyFile(src, dst string, mode fs.FileMode, mtime time.Time) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	if err := os.Chmod(dst, mode); err != nil {
		return err
	}
	return os.Chtimes(dst, mtime, mtime)
}

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

// copyNodeModules copies each installed node_modules of the checkout into
// the clone: cp -a --reflink=auto (copy-on-write where the filesystem has
// it) when cp takes it, else a copy in Go that keeps symlinks, modes and
// times. An absolute symlink into the checkout is pointed at the same place
// in the clone, so nothing run in the clone writes through it.
func (c *Clone) copyNodeModules(ctx context.Context, env []string) error {
	dirs, err := installedDirs(ctx, env, c.Work)
	if err != nil {
		return err
	}
	useCp := -1 // unknown until the first copy
	for _, d := range dirs {
		src := filepath.Join(c.Checkout, filepath.FromSlash(d), "node_modules")
		dst := filepath.Join(c.Work, filepath.FromSlash(d), "node_modules")
		if _, err := os.Lstat(src); err != nil {
			continue // not installed there
		}
		if _, err := os.Lstat(dst); err == nil {
			continue // committed to the repository: the clone has it
		}
		if useCp < 0 {
			useCp = 0
			if cpReflinks(ctx, c.Dir) {
				useCp = 1
			}
		}
		if useCp == 1 {
			res, err := proc.Run(ctx, proc.Cmd{Argv: []string{"cp", "-a", "--reflink=auto", "--", src, dst}, Env: env})
			if err != nil {
				return fmt.Errorf("copying %s into the clone: %w", src, err)
			}
			if res.ExitCode != 0 {
				return fmt.Errorf("copying %s into the clone: cp failed: %s", src, strings.TrimSpace(res.Output))
			}
			if err := c.retargetLinks(dst); err != nil {
				return err
			}
			continue
		}
		if err := c.copyTree(src, dst); err != nil {
			return fmt.Errorf("copying %s into the clone: %w", src, err)
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

// copyTree copies src to dst: directories, regular files (mode and
// modification time kept) and symlinks (target kept, retargeted into the
// clone when absolute into the checkout); sockets and devices are left out.
func (c *Clone) copyTree(src, dst string) error {
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

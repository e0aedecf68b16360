package isolate

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// MarkerName is the file in every run directory that says it is one: JSON
// {id, checkout, branch, created (RFC3339)}.
const MarkerName = ".uptide-run"

// KeepFor is how long Clean leaves a kept run alone.
const KeepFor = 7 * 24 * time.Hour

// ErrNotRun is what the guard answers for anything that is not a run
// directory of the root it was given.
var ErrNotRun = errors.New("not an uptide run directory")

// Root is filepath.Join(os.TempDir(), "uptide-runs").
func Root() string { return filepath.Join(os.TempDir(), "uptide-runs") }

var (
	idPattern      = regexp.MustCompile(`^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$`)
	runDirPattern  = regexp.MustCompile(`^run-([0-9]{8}-[0-9]{6}-[0-9a-f]{6})$`)
	maxMarkerBytes = int64(64 << 10)
)

// Marker is the content of MarkerName.
type Marker struct {
	ID       string `json:"id"`
	Checkout string `json:"checkout"`
	Branch   string `json:"branch"`
	Created  string `json:"created"`
}

// newID is "20261202-174512-a1b2c3": the time for people, random for
// uniqueness.
func newID(now time.Time) (string, error) {
	var b [3]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:]), nil
}

// ParseMarker reads a marker strictly: one JSON object with a run id, an
// absolute checkout, a branch and an RFC 3339 creation time.
func ParseMarker(data []byte) (Marker, time.Time, error) {
	var m Marker
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Marker{}, time.Time{}, fmt.Errorf("marker is not the JSON uptide writes: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Marker{}, time.Time{}, errors.New("marker has data after its JSON object")
	}
	if !idPattern.MatchString(m.ID) {
		return Marker{}, time.Time{}, fmt.Errorf("marker id %q is not a run id", m.ID)
	}
	if m.Checkout == "" || !filepath.IsAbs(m.Checkout) {
		return Marker{}, time.Time{}, fmt.Errorf("marker checkout %q is not an absolute path", m.Checkout)
	}
	if m.Branch == "" {
		return Marker{}, time.Time{}, errors.New("marker names no branch")
	}
	created, err := time.Parse(time.RFC3339, m.Created)
	if err != nil {
		return Marker{}, time.Time{}, fmt.Errorf("marker created %q is not an RFC 3339 time", m.Created)
	}
	return m, created, nil
}

// Kept is a run directory found under the root.
type Kept struct {
	ID, Dir, Checkout, Branch string
	Created                   time.Time
}

// inspect is the guard: dir must be directly inside root, named run-<id>,
// a real directory (not a symlink), carrying a regular marker file whose
// id is the directory's.
func inspect(root, dir string) (Kept, error) {
	return inspectNamed(root, dir, runPrefix)
}

// The run directory of run <id> is named runPrefix+<id>; Clone.Remove
// renames it discardedPrefix+<id> while deleting it: List never shows one,
// Clean deletes what is left of one.
const (
	runPrefix       = "run-"
	discardedPrefix = "discarded-"
)

// inspectNamed is inspect for a directory named prefix+<id>.
func inspectNamed(root, dir, prefix string) (Kept, error) {
	if root == "" {
		return Kept{}, fmt.Errorf("%s: %w: no runs root given", dir, ErrNotRun)
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return Kept{}, err
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return Kept{}, err
	}
	realRoot, err := filepath.EvalSymlinks(absRoot)
	if err != nil {
		return Kept{}, fmt.Errorf("runs root %s: %w", root, err)
	}
	// The parent must be the root, as written or once symlinks in either
	// path are resolved (a temp dir is often reached through one).
	if parent := filepath.Dir(absDir); parent != absRoot {
		if real, err := filepath.EvalSymlinks(parent); err != nil || real != realRoot {
			return Kept{}, fmt.Errorf("%s: %w: not directly inside the runs root %s", dir, ErrNotRun, root)
		}
	}
	name := filepath.Base(absDir)
	id, ok := strings.CutPrefix(name, prefix)
	if !ok || !idPattern.MatchString(id) {
		return Kept{}, fmt.Errorf("%s: %w: not named %s<id>", dir, ErrNotRun, prefix)
	}
	fi, err := os.Lstat(filepath.Join(realRoot, name))
	if err != nil {
		return Kept{}, fmt.Errorf("%s: %w", dir, err)
	}
	if !fi.IsDir() {
		return Kept{}, fmt.Errorf("%s: %w: a %s, not a directory", dir, ErrNotRun, kind(fi.Mode()))
	}
	markerPath := filepath.Join(realRoot, name, MarkerName)
	mfi, err := os.Lstat(markerPath)
	if err != nil {
		return Kept{}, fmt.Errorf("%s: %w: no %s marker", dir, ErrNotRun, MarkerName)
	}
	if !mfi.Mode().IsRegular() {
		return Kept{}, fmt.Errorf("%s: %w: its %s is a %s, not a file", dir, ErrNotRun, MarkerName, kind(mfi.Mode()))
	}
	if mfi.Size() > maxMarkerBytes {
		return Kept{}, fmt.Errorf("%s: %w: its %s is too large to be a marker", dir, ErrNotRun, MarkerName)
	}
	data, err := os.ReadFile(markerPath)
	if err != nil {
		return Kept{}, fmt.Errorf("%s: %w", dir, err)
	}
	marker, created, err := ParseMarker(data)
	if err != nil {
		return Kept{}, fmt.Errorf("%s: %w: %v", dir, ErrNotRun, err)
	}
	if marker.ID != id {
		return Kept{}, fmt.Errorf("%s: %w: its marker is for run %s", dir, ErrNotRun, marker.ID)
	}
	return Kept{ID: marker.ID, Dir: filepath.Join(absRoot, name), Checkout: marker.Checkout, Branch: marker.Branch, Created: created}, nil
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m.IsDir():
		return "directory"
	case m.IsRegular():
		return "file"
	}
	return "special file"
}

// List is every run directory under root that passes the guard, oldest
// first. Anything else in root is left out; a missing root has none.
func List(root string) ([]Kept, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("runs root %s: %w", root, err)
	}
	var out []Kept
	for _, e := range entries {
		if !runDirPattern.MatchString(e.Name()) || !e.IsDir() {
			continue
		}
		k, err := inspect(root, filepath.Join(root, e.Name()))
		if err != nil {
			continue
		}
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Clean removes kept runs created before now-7*24h (all of them when all
// is true): only directories directly inside root, named run-<id>, not
// symlinks, carrying a valid marker. It returns what it removed; a run it
// could not remove is in the error and the rest are still removed. What is
// left of a discarded run (its deletion cut short) goes too, whatever its
// age, through the same guard.
func Clean(root string, now time.Time, all bool) ([]Kept, error) {
	kept, err := List(root)
	if err != nil {
		return nil, err
	}
	var removed []Kept
	var errs []error
	if entries, err := os.ReadDir(root); err == nil {
		for _, e := range entries {
			dir := filepath.Join(root, e.Name())
			if _, err := inspectNamed(root, dir, discardedPrefix); err != nil {
				continue // not one of ours
			}
			if err := removeNamed(root, dir, discardedPrefix); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, k := range kept {
		if !all && !k.Created.Before(now.Add(-KeepFor)) {
			continue
		}
		if err := RemoveRun(root, k.Dir); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, k)
	}
	return removed, errors.Join(errs...)
}

// RemoveRun is the one guarded delete: dir goes only when it is a run
// directory directly inside root (see Clean).
func RemoveRun(root, dir string) error {
	return removeNamed(root, dir, runPrefix)
}

// removeNamed deletes dir when inspectNamed passes it.
func removeNamed(root, dir, prefix string) error {
	k, err := inspectNamed(root, dir, prefix)
	if err != nil {
		return fmt.Errorf("refusing to delete %s: %w", dir, err)
	}
	realRoot, err := filepath.EvalSymlinks(filepath.Dir(k.Dir))
	if err != nil {
		return err
	}
	target := filepath.Join(realRoot, filepath.Base(k.Dir))
	if err := os.RemoveAll(target); err != nil {
		// A copied node_modules can hold read-only directories, whose
		// entries cannot be unlinked until they are writable again.
		makeWritable(target)
		if err := os.RemoveAll(target); err != nil {
			return fmt.Errorf("removing run %s: %w", dir, err)
		}
	}
	return nil
}

func makeWritable(dir string) {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			if info, err := d.Info(); err == nil && info.Mode().Perm()&0o700 != 0o700 {
				os.Chmod(path, info.Mode().Perm()|0o700)
			}
		}
		return nil
	})
}

// writeMarker creates dir's marker; it fails if one exists.
func writeMarker(dir string, m Marker) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, MarkerName), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// renameInMarker sets the branch the run's marker names (written beside
// and renamed over it, so the marker is never half there).
func renameInMarker(dir, branch string) error {
	path := filepath.Join(dir, MarkerName)
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("the run's marker: %w", err)
	}
	var m Marker
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("the run's marker %s: %w", path, err)
	}
	m.Branch = branch
	if data, err = json.MarshalIndent(m, "", "  "); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("the run's marker: %w", err)
	}
	return os.Rename(tmp, path)
}

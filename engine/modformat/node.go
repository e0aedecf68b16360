package modformat

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// NodeInfo is the Node a repository runs, from the most binding source that
// names one.
type NodeInfo struct {
	// Version is normalized: "22" (the newest 22), "20.18" or "22.11.0"
	// (that release line), "lts" (the newest LTS line), "latest", or ""
	// when no source names one.
	Version string `json:"version"`
	// Source names where it came from, repository-relative:
	// "Dockerfile FROM node:22-alpine", ".nvmrc", ".node-version",
	// ".tool-versions", "package.json volta.node",
	// ".github/workflows/ci.yml node-version", "package.json engines.node".
	Source string `json:"source,omitempty"`
	// Note says what a reader should know about the answer: a Dockerfile on
	// a custom base image (production Node unknown), a CI matrix read as
	// its lowest entry, a source that could not be read.
	Note string `json:"note,omitempty"`
}

// Known reports whether a source named a version.
func (n NodeInfo) Known() bool { return n.Version != "" }

// String reads "Node 22 (.nvmrc)" or "Node unknown".
func (n NodeInfo) String() string {
	if n.Version == "" {
		return "Node unknown"
	}
	return fmt.Sprintf("Node %s (%s)", n.Version, n.Source)
}

// NodeVersion reads the Node a workspace runs, the most binding source
// first:
//
//  1. the final stage of a Dockerfile (or Containerfile) FROM node:<v>,
//     in the workspace directory or the nearest directory above it up to the
//     repository root: production runs that image;
//  2. .nvmrc, .node-version, .tool-versions (nodejs or node line), then the
//     manifest's volta.node, in the workspace directory or the nearest above:
//     what developers run;
//  3. GitHub Actions workflows at the repository root: every setup-node
//     node-version (matrix lists and env references expanded),
//     node-version-file, and job containers on a Node image. With several,
//     the lowest answers: CI promises the code runs on every Node it tests,
//     so the oldest one binds (the Note lists the others);
//  4. engines.node of the workspace's manifest, then the root's: the lowest
//     release the range admits (">=20" is the newest 20).
//
// A Dockerfile whose final stage builds on an image that is not Node's
// leaves the question to the next source, and the Note says production
// Node is unknown. A source that exists but cannot be read the same way
// (an .nvmrc saying "system", a workflow that is not YAML) is skipped with a
// Note. The error is for I/O failures other than a missing file, and for a
// workspaceDir outside repoRoot.
func NodeVersion(repoRoot, workspaceDir string) (NodeInfo, error) {
	dirs, err := dirChain(repoRoot, workspaceDir)
	if err != nil {
		return NodeInfo{}, err
	}
	r := resolver{root: repoRoot}
	steps := []func([]string) (NodeInfo, bool, error){
		r.fromDockerfile, r.fromVersionFiles, r.fromWorkflows, r.fromEngines,
	}
	for _, step := range steps {
		info, ok, err := step(dirs)
		if err != nil {
			return NodeInfo{}, err
		}
		if ok {
			info.Note = joinNotes(append(r.notes, info.Note)...)
			return info, nil
		}
	}
	return NodeInfo{Note: joinNotes(append(r.notes, "no Dockerfile, version file, CI workflow or engines.node names a Node version")...)}, nil
}

// dirChain lists workspaceDir and its ancestors up to repoRoot, nearest
// first.
func dirChain(repoRoot, workspaceDir string) ([]string, error) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		return nil, fmt.Errorf("repository root %s: %v", repoRoot, err)
	}
	ws := workspaceDir
	if ws == "" {
		ws = root
	} else if !filepath.IsAbs(ws) {
		ws = filepath.Join(root, ws)
	}
	ws = filepath.Clean(ws)
	rel, err := filepath.Rel(root, ws)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("workspace %s is not inside the repository %s: pass a workspace directory under the root", workspaceDir, repoRoot)
	}
	if st, err := os.Stat(ws); err != nil {
		return nil, fmt.Errorf("workspace %s: %v", ws, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("workspace %s is not a directory", ws)
	}
	var dirs []string
	for d := ws; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == root {
			break
		}
	}
	return dirs, nil
}

type resolver struct {
	root  string
	notes []string
}

func (r *resolver) rel(p string) string {
	rel, err := filepath.Rel(r.root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(rel)
}

func (r *resolver) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

// read returns a file's content, ok false when it does not exist.
func (r *resolver) read(p string) ([]byte, bool, error) {
	data, err := os.ReadFile(p)
	switch {
	case err == nil:
		return data, true, nil
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrInvalid):
		return nil, false, nil
	default:
		var pe *fs.PathError
		if errors.As(err, &pe) && isDirErr(p) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("reading %s: %v", r.rel(p), err)
	}
}

// readParsed reads the file at p, when there is one, with parse (which
// names the file by its path from the root in its errors): a file that
// does not parse is noted and skipped, one that cannot be read is the
// error.
func readParsed[T any](r *resolver, p string, parse func(rel string, data []byte) (T, error)) (T, bool, error) {
	var v T
	data, ok, err := r.read(p)
	if err != nil || !ok {
		return v, false, err
	}
	v, err = parse(r.rel(p), data)
	if err != nil {
		r.note("%v; skipped", err)
		return v, false, nil
	}
	return v, true, nil
}

func isDirErr(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func (r *resolver) fromDockerfile(dirs []string) (NodeInfo, bool, error) {
	for _, d := range dirs {
		for _, name := range []string{"Dockerfile", "Containerfile"} {
			p := filepath.Join(d, name)
			df, ok, err := readParsed(r, p, parseDockerfile)
			if err != nil {
				return NodeInfo{}, false, err
			}
			if !ok {
				continue
			}
			rel := r.rel(p)
			if df.version != "" {
				return NodeInfo{Version: df.version, Source: fmt.Sprintf("%s FROM %s", rel, df.image)}, true, nil
			}
			r.note("%s: %s, so production Node is unknown", rel, df.why)
			// The nearest Dockerfile is the workspace's image; one further up
			// builds something else.
			return NodeInfo{}, false, nil
		}
	}
	return NodeInfo{}, false, nil
}

func (r *resolver) fromVersionFiles(dirs []string) (NodeInfo, bool, error) {
	for _, d := range dirs {
		for _, name := range []string{".nvmrc", ".node-version"} {
			p := filepath.Join(d, name)
			v, ok, err := readParsed(r, p, parseNvmrc)
			if err != nil {
				return NodeInfo{}, false, err
			}
			if ok {
				return NodeInfo{Version: v.version, Source: r.rel(p)}, true, nil
			}
		}
		p := filepath.Join(d, ".tool-versions")
		// A file without a Node line leaves the version empty.
		v, ok, err := readParsed(r, p, func(rel string, data []byte) (versionLine, error) {
			v, _, err := parseToolVersions(rel, data)
			return v, err
		})
		if err != nil {
			return NodeInfo{}, false, err
		}
		if ok && v.version != "" {
			return NodeInfo{Version: v.version, Source: r.rel(p)}, true, nil
		}
		if info, ok, err := r.fromManifestField(d, "volta"); err != nil || ok {
			return info, ok, err
		}
	}
	return NodeInfo{}, false, nil
}

func (r *resolver) fromWorkflows(_ []string) (NodeInfo, bool, error) {
	dir := filepath.Join(r.root, ".github", "workflows")
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return NodeInfo{}, false, nil
		}
		return NodeInfo{}, false, fmt.Errorf("reading %s: %v", r.rel(dir), err)
	}
	type found struct {
		ciVersion
		file string
	}
	var all []found
	var unresolved []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".yaml")) {
			continue
		}
		p := filepath.Join(dir, name)
		wf, ok, err := readParsed(r, p, parseWorkflow)
		if err != nil {
			return NodeInfo{}, false, err
		}
		if !ok {
			continue
		}
		rel := r.rel(p)
		for _, v := range wf.versions {
			all = append(all, found{v, rel})
		}
		for _, f := range wf.files {
			v, ok := r.versionFile(f.path)
			if ok {
				all = append(all, found{ciVersion{version: v.version, written: v.written, line: f.line}, rel})
			}
		}
		for _, u := range wf.unresolved {
			unresolved = append(unresolved, fmt.Sprintf("%s node-version %s", rel, u))
		}
	}
	if len(unresolved) > 0 {
		r.note("could not read %s", strings.Join(unresolved, ", "))
	}
	if len(all) == 0 {
		return NodeInfo{}, false, nil
	}
	sort.SliceStable(all, func(i, j int) bool {
		if c := compareVersions(all[i].version, all[j].version); c != 0 {
			return c < 0
		}
		if all[i].file != all[j].file {
			return all[i].file < all[j].file
		}
		return all[i].line < all[j].line
	})
	low := all[0]
	key := "node-version"
	if low.container {
		key = "container " + low.written
	}
	info := NodeInfo{Version: low.version, Source: fmt.Sprintf("%s %s", low.file, key)}
	var distinct []string
	seen := map[string]bool{}
	for _, f := range all {
		if !seen[f.written] {
			seen[f.written] = true
			distinct = append(distinct, f.written)
		}
	}
	if len(distinct) > 1 {
		info.Note = fmt.Sprintf("CI runs Node %s; the lowest binds", strings.Join(distinct, ", "))
	}
	return info, true, nil
}

// versionFile reads a setup-node node-version-file (.nvmrc,
// .node-version, .tool-versions; package.json is left to engines).
func (r *resolver) versionFile(rel string) (versionLine, bool) {
	p := filepath.Join(r.root, filepath.FromSlash(rel))
	if !r.inside(p) {
		return versionLine{}, false
	}
	base := filepath.Base(p)
	if base == "package.json" {
		return versionLine{}, false
	}
	data, ok, err := r.read(p)
	if err != nil || !ok {
		if err == nil {
			r.note("node-version-file %s does not exist", rel)
		}
		return versionLine{}, false
	}
	if base == ".tool-versions" {
		v, found, err := parseToolVersions(rel, data)
		return v, found && err == nil
	}
	v, err := parseNvmrc(rel, data)
	return v, err == nil
}

func (r *resolver) inside(p string) bool {
	rel, err := filepath.Rel(r.root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func (r *resolver) fromEngines(dirs []string) (NodeInfo, bool, error) {
	for _, d := range dirs {
		if info, ok, err := r.fromManifestField(d, "engines"); err != nil || ok {
			return info, ok, err
		}
	}
	return NodeInfo{}, false, nil
}

// fromManifestField reads volta.node or engines.node of dir/package.json.
func (r *resolver) fromManifestField(dir, field string) (NodeInfo, bool, error) {
	p := filepath.Join(dir, "package.json")
	data, ok, err := r.read(p)
	if err != nil || !ok {
		return NodeInfo{}, false, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		if field == "engines" {
			r.note("%s: not valid JSON (%v); its engines.node was not read", r.rel(p), err)
		}
		return NodeInfo{}, false, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(m[field], &obj) != nil {
		return NodeInfo{}, false, nil
	}
	var written string
	if json.Unmarshal(obj["node"], &written) != nil || strings.TrimSpace(written) == "" {
		return NodeInfo{}, false, nil
	}
	src := fmt.Sprintf("%s %s.node", r.rel(p), field)
	var v string
	if field == "volta" {
		v, ok = normalizeVersion(written)
	} else {
		v, ok = enginesLowest(written)
	}
	if !ok {
		r.note("%s %q names no lowest Node version", src, written)
		return NodeInfo{}, false, nil
	}
	return NodeInfo{Version: v, Source: src}, true, nil
}

func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}

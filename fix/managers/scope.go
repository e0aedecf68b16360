package managers

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/internal/proc"
)

// scopeViolations compares two graphs of one lockfile: every record
// outside the moved packages' subtrees (the moved packages and everything
// reachable from them, before or after) and every importer declaration of
// a package that did not move must be the same.
func scopeViolations(before, after *lockfile.Graph, moved map[string]bool) []string {
	subtree := map[string]bool{}
	for _, g := range []*lockfile.Graph{before, after} {
		var seeds []string
		for k, r := range g.Records {
			if moved[r.Name] || moved[installName(g.Format, k)] {
				seeds = append(seeds, k)
			}
		}
		for _, edges := range g.ImporterEdges {
			for name, to := range edges {
				if moved[name] {
					seeds = append(seeds, to)
				}
			}
		}
		for k := range g.Reachable(seeds) {
			subtree[k] = true
		}
	}
	// Names inside the subtree: a record outside it may point at a new
	// version of one of them (a peer-suffixed pnpm key, a dependency's new
	// resolution) and still be the same install.
	subtreeNames := map[string]bool{}
	for _, g := range []*lockfile.Graph{before, after} {
		for k := range subtree {
			if r := g.Records[k]; r != nil {
				subtreeNames[r.Name] = true
			}
		}
	}
	same := func(a, b *lockfile.Record) bool {
		if a.Content == b.Content {
			return true
		}
		if a.Name != b.Name || a.Version != b.Version || a.Integrity != b.Integrity || len(a.Dependencies) != len(b.Dependencies) {
			return false
		}
		for n, v := range a.Dependencies {
			w, ok := b.Dependencies[n]
			if !ok || (v != w && !subtreeNames[n]) {
				return false
			}
		}
		return true
	}
	var out []string
	removed := map[string][]*lockfile.Record{}
	added := map[string][]*lockfile.Record{}
	for k, a := range before.Records {
		if subtree[k] {
			continue
		}
		b, ok := after.Records[k]
		switch {
		case !ok:
			removed[a.Name] = append(removed[a.Name], a)
		case !same(a, b):
			if a.Version != b.Version {
				out = append(out, fmt.Sprintf("%s %s → %s", a.Name, a.Version, b.Version))
			} else {
				out = append(out, fmt.Sprintf("%s %s changed its lockfile entry %q", a.Name, a.Version, k))
			}
		}
	}
	for k, b := range after.Records {
		if subtree[k] {
			continue
		}
		if _, ok := before.Records[k]; !ok {
			added[b.Name] = append(added[b.Name], b)
		}
	}
	for name, rs := range removed {
		as := added[name]
		for len(rs) > 0 && len(as) > 0 {
			a, b := rs[0], as[0]
			rs, as = rs[1:], as[1:]
			if a.Version == b.Version && same(a, b) {
				continue // the same install under a new key (a peer suffix)
			}
			out = append(out, fmt.Sprintf("%s %s → %s", name, a.Version, b.Version))
		}
		for _, a := range rs {
			if !hoisted(after, a) {
				out = append(out, fmt.Sprintf("%s %s removed", name, a.Version))
			}
		}
		added[name] = as
	}
	for name, as := range added {
		for _, b := range as {
			out = append(out, fmt.Sprintf("%s %s added", name, b.Version))
		}
	}
	importers := map[string]bool{}
	for ws := range before.Importers {
		importers[ws] = true
	}
	for ws := range after.Importers {
		importers[ws] = true
	}
	for ws := range importers {
		b, a := before.Importers[ws], after.Importers[ws]
		names := map[string]bool{}
		for n := range b {
			names[n] = true
		}
		for n := range a {
			names[n] = true
		}
		for n := range names {
			if moved[n] || b[n] == a[n] {
				continue
			}
			switch {
			case b[n] == "":
				out = append(out, fmt.Sprintf("importer %s: %s added (%s)", ws, n, a[n]))
			case a[n] == "":
				out = append(out, fmt.Sprintf("importer %s: %s removed (was %s)", ws, n, b[n]))
			default:
				out = append(out, fmt.Sprintf("importer %s: %s %s → %s", ws, n, b[n], a[n]))
			}
		}
	}
	sort.Strings(out)
	return out
}

// hoisted: npm removed a nested copy because its dependents now resolve
// the very same install (name, version, integrity) further up, where the
// upgrade put it (express 5 hoists debug 4, so the debug 4 nested under
// @babel/core goes): the same install for them, not a change.
func hoisted(after *lockfile.Graph, a *lockfile.Record) bool {
	if after.Format != lockfile.NPMv2 && after.Format != lockfile.NPMv3 {
		return false
	}
	name := installName(after.Format, a.Key)
	if name == "" {
		return false
	}
	leaf := "node_modules/" + name
	parent := strings.TrimSuffix(strings.TrimSuffix(a.Key, leaf), "/")
	for parent != "" {
		// One package up: drop the parent's own node_modules/<name>; a
		// workspace folder resolves from the root's.
		if i := strings.LastIndex(parent, "node_modules/"); i >= 0 {
			parent = strings.TrimSuffix(parent[:i], "/")
		} else {
			parent = ""
		}
		at := leaf
		if parent != "" {
			at = parent + "/" + leaf
		}
		if b := after.Records[at]; b != nil {
			// The nearest copy is the one they resolve.
			return b.Name == a.Name && b.Version == a.Version && b.Integrity == a.Integrity
		}
	}
	return false
}

// beyondOwn splits an install's changes outside the moved packages into
// what the manager rewrites on its own (own: before → norm, the same
// manager run on the untouched checkout) and what the upgrade adds to
// that (bad: norm → after), which alone the guard holds against it.
func beyondOwn(before, norm, after *lockfile.Graph, moved map[string]bool) (own, bad []string) {
	own = scopeViolations(before, norm, nil)
	if len(own) == 0 {
		return nil, scopeViolations(before, after, moved)
	}
	return own, scopeViolations(norm, after, moved)
}

// installName is the name a record is installed under when its key says
// so (npm's location, bun's key): an npm: alias's manifest key.
func installName(f lockfile.Format, key string) string {
	switch f {
	case lockfile.NPMv2, lockfile.NPMv3:
		if i := strings.LastIndex(key, "node_modules/"); i >= 0 {
			return key[i+len("node_modules/"):]
		}
	case lockfile.Bun:
		segs := strings.Split(key, "/")
		if n := len(segs); n >= 2 && strings.HasPrefix(segs[n-2], "@") {
			return segs[n-2] + "/" + segs[n-1]
		}
		return segs[len(segs)-1]
	}
	return ""
}

// versionsMoved reports whether the two graphs install different versions
// of anything: the second install, which only restores range styles, must
// not.
func versionsMoved(a, b *lockfile.Graph) []string {
	count := func(g *lockfile.Graph) map[string]int {
		m := map[string]int{}
		for _, r := range g.Records {
			m[r.Name+"@"+r.Version]++
		}
		return m
	}
	ca, cb := count(a), count(b)
	var out []string
	for k, n := range ca {
		if cb[k] != n {
			out = append(out, fmt.Sprintf("%s (%d → %d copies)", k, n, cb[k]))
		}
	}
	for k, n := range cb {
		if _, ok := ca[k]; !ok {
			out = append(out, fmt.Sprintf("%s (0 → %d copies)", k, n))
		}
	}
	sort.Strings(out)
	return out
}

// The install's file scope: beyond the lockfile's records, an install may
// change only the lockfile, the files the upgrade edited (and those only
// as the edit wrote them), node_modules, and what its manager writes for
// its own use (Manager.InstallWrites). Anything else it changed, the verification in
// the clone would see and the branch would not hold, so the transaction
// refuses it.

// gitChanges are the files git reports changed under root (modified,
// deleted, or new and not ignored), slash paths relative to root with
// their two-letter status; ok is false when root is not in a git work
// tree, where nothing tells a stray change from the repository's files.
// fsmonitor stays off: it is a program of the repository's configuration.
func gitChanges(ctx context.Context, root string, env []string) (map[string]string, bool, error) {
	env = append(append([]string{}, env...), "GIT_OPTIONAL_LOCKS=0")
	prefix, err := proc.Run(ctx, proc.Cmd{Argv: []string{"git", "rev-parse", "--show-prefix"}, Dir: root, Env: env, Timeout: time.Minute})
	if err != nil {
		return nil, false, err
	}
	if prefix.ExitCode != 0 {
		return nil, false, nil
	}
	var out bytes.Buffer
	args := []string{"git", "-c", "core.fsmonitor=false", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=no", "--no-renames", "--", "."}
	res, err := proc.Run(ctx, proc.Cmd{Argv: args, Dir: root, Env: env, Timeout: 5 * time.Minute, Stdout: &out})
	if err != nil {
		return nil, false, err
	}
	if res.ExitCode != 0 {
		return nil, false, fmt.Errorf("%s in %s: exit %d: %s", strings.Join(args, " "), root, res.ExitCode, firstLine(res.Output))
	}
	// Porcelain paths are the work tree's; root may be a folder of it.
	under := strings.TrimSpace(prefix.Output)
	changed := map[string]string{}
	for _, e := range strings.Split(out.String(), "\x00") {
		if len(e) < 4 {
			continue
		}
		changed[strings.TrimPrefix(e[3:], under)] = e[:2]
	}
	return changed, true, nil
}

// strayFiles are the files an install changed (git's view of the root
// before and after) outside its scope: not the lockfile nor an edited
// file, and not what the manager writes for itself. Sorted.
func strayFiles(m Manager, before, after map[string]string, lockfile string, edited []string) []string {
	mine := map[string]bool{lockfile: true}
	for _, f := range edited {
		mine[f] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, set := range []map[string]string{before, after} {
		for f := range set {
			if seen[f] {
				continue
			}
			seen[f] = true
			b, wasChanged := before[f]
			a, isChanged := after[f]
			if (wasChanged == isChanged && a == b) || mine[f] || ownWrite(m, f) {
				continue
			}
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// ownWrite: the manager writes f for its own use, or f is in a
// node_modules folder, where every install writes (a repository that
// commits its node_modules gets them changed too).
func ownWrite(m Manager, f string) bool {
	if strings.HasPrefix(f, "node_modules/") || strings.Contains(f, "/node_modules/") {
		return true
	}
	for _, w := range m.InstallWrites() {
		if f == w || (strings.HasSuffix(w, "/") && strings.HasPrefix(f, w)) {
			return true
		}
	}
	return false
}

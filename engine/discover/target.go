package discover

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/lists"
)

// TargetError is a --target the registry has no release for.
type TargetError struct {
	Name    string // as the user wrote it (the manifest key)
	Package string // the registry package (differs for an npm: alias)
	Want    string
	// Newest are the highest stable releases the registry has, newest
	// first; Latest is the latest dist-tag.
	Newest []string
	Latest string
}

func (e *TargetError) Error() string {
	s := fmt.Sprintf("--target %s@%s: the registry has no version, dist-tag or range %q of %s", e.Name, e.Want, e.Want, e.Package)
	switch {
	case len(e.Newest) == 0:
		return s + ": it has no release at all"
	case e.Latest != "":
		return fmt.Sprintf("%s; the newest releases are %s (latest %s)", s, strings.Join(e.Newest, ", "), e.Latest)
	}
	return fmt.Sprintf("%s; the newest releases are %s", s, strings.Join(e.Newest, ", "))
}

// ResolveTarget is the release --target's want names in p: a dist-tag, an
// exact version, or the newest release a range admits ("zod@4",
// "zod@^4.1"); a *TargetError when there is none.
func ResolveTarget(p *model.Packument, name, want string) (string, error) {
	if v, ok := p.DistTags[want]; ok {
		return v, nil
	}
	if v, ok := semver.Exact(want); ok {
		if _, ok := p.Versions[v]; ok {
			return v, nil
		}
	}
	versions := make([]string, 0, len(p.Versions))
	for v := range p.Versions {
		versions = append(versions, v)
	}
	sort.Slice(versions, func(i, j int) bool { return semver.Compare(versions[i], versions[j]) > 0 })
	if _, err := semver.ParseRange(want); err == nil {
		if v, ok := semver.MaxSatisfying(versions, want); ok {
			return v, nil
		}
	}
	pkg := p.Name
	if pkg == "" {
		pkg = name
	}
	// The newest stable releases: a line of canaries says nothing.
	var stable []string
	for _, v := range versions {
		if !strings.Contains(v, "-") {
			stable = append(stable, v)
		}
	}
	if len(stable) == 0 {
		stable = versions
	}
	return "", &TargetError{Name: name, Package: pkg, Want: want, Newest: stable[:min(len(stable), 3)], Latest: p.DistTags["latest"]}
}

// NewClient is the registry client of the repository at root, as check
// makes it: its .npmrc files and env's npm_config_*.
func NewClient(root string, env []string) (*registry.Client, error) { return newClient(root, env) }

// ClientFor is the registry client of the repository cwd is in (its root
// found as Discover finds it), for a caller that has not loaded it.
func ClientFor(cwd string, env []string) (*registry.Client, error) {
	r, err := repo.Load(cwd)
	if err != nil {
		return nil, err
	}
	return newClient(r.Root, env)
}

// ResolveTargets resolves every --target of a package the repository
// declares, as check will: the fix runner calls it before it clones, so a
// release that does not exist stops the run before anything is written.
// Names no workspace declares are left to check (its notes name them).
func ResolveTargets(ctx context.Context, client *registry.Client, r *model.Repository, targets map[string]string) error {
	names := lists.SortedKeys(targets)
	for _, name := range names {
		want := targets[name]
		if want == "" {
			continue
		}
		pkg := declaredPackage(r, name)
		if pkg == "" {
			continue
		}
		p, err := client.Packument(ctx, pkg, false)
		if err != nil {
			return fmt.Errorf("--target %s@%s: %w", name, want, err)
		}
		if _, err := ResolveTarget(p, name, want); err != nil {
			return err
		}
	}
	return nil
}

// declaredPackage is the registry package a workspace declares under
// name (the manifest key, or the package of an npm: alias); "" when none.
func declaredPackage(r *model.Repository, name string) string {
	for _, ws := range r.Workspaces {
		for _, d := range ws.Declarations {
			if d.Kind == model.SpecWorkspace || d.Kind == model.SpecLink || d.Kind == model.SpecFile {
				continue // a package of the repository itself
			}
			switch {
			case d.Name == name && d.Package != "":
				return d.Package
			case d.Name == name || d.Package == name:
				return name
			}
		}
	}
	return ""
}

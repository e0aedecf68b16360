package plan

import (
	"sort"
	"strings"
)

// Repo is what the commands need to know about how Uptide was run.
type Repo struct {
	// Cwd is the --cwd the user passed, as they wrote it; empty when they
	// ran Uptide inside the repository.
	Cwd string
	// Group: the members move as one release group that check takes only
	// with --group (peer ranges, shared pins), so the commands carry it.
	Group bool
	// Conflict: the companion plan has a conflict, which fix refuses, so
	// only the check command is offered.
	Conflict bool
}

// Target is one package moving to one version.
type Target struct {
	Name    string
	Version string
}

// Next returns the commands to go on with, for this repository:
//
//	uptide check <pkg> --target <pkg>@<v> [--target <member>@<v>…] [--group] --details
//	uptide fix <pkg> --target <pkg>@<v> [--target <member>@<v>…] [--group]
//
// Group members move with the lead, each at its own target, sorted by name.
// Arguments are shell-quoted where a shell would split or expand them.
func Next(repo Repo, pkg, target string, members []Target) []string {
	if pkg == "" || target == "" {
		return []string{}
	}
	targets := []string{"--target", quote(pkg + "@" + target)}
	ms := append([]Target(nil), members...)
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].Name != ms[j].Name {
			return ms[i].Name < ms[j].Name
		}
		return ms[i].Version < ms[j].Version
	})
	seen := map[string]bool{pkg: true}
	for _, m := range ms {
		if m.Name == "" || m.Version == "" || seen[m.Name] {
			continue
		}
		seen[m.Name] = true
		targets = append(targets, "--target", quote(m.Name+"@"+m.Version))
	}
	cmd := func(sub string, extra ...string) string {
		parts := []string{"uptide", sub}
		if repo.Cwd != "" {
			parts = append(parts, "--cwd", quote(repo.Cwd))
		}
		parts = append(parts, quote(pkg))
		parts = append(parts, targets...)
		parts = append(parts, extra...)
		return strings.Join(parts, " ")
	}
	var group []string
	if repo.Group {
		group = []string{"--group"}
	}
	if repo.Conflict {
		return []string{cmd("check", append(group, "--details")...)}
	}
	return []string{cmd("check", append(group, "--details")...), cmd("fix", group...)}
}

// CheckTypeScript is the command checking the repository's upgrade of
// typescript to version: what a target needing a newer TypeScript costs
// first.
func CheckTypeScript(repo Repo, version string) string {
	parts := []string{"uptide", "check"}
	if repo.Cwd != "" {
		parts = append(parts, "--cwd", quote(repo.Cwd))
	}
	parts = append(parts, "typescript", "--target", quote("typescript@"+version))
	return strings.Join(parts, " ")
}

// quote single-quotes an argument a POSIX shell would split, glob or
// expand; npm names, versions and plain paths pass through as written.
func quote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

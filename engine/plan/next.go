package plan

import (
	"sort"
	"strings"

	"github.com/uptide/uptide/internal/proc"
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
	return steps(commands(repo, pkg, target, members))
}

// steps are the commands given, in order, but for the empty ones.
func steps(check, fix string) []string {
	out := []string{}
	for _, c := range []string{check, fix} {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

// commands are Next's two commands apart: the detailed check, and the fix
// ("" under a conflict, which fix refuses); both "" without a target.
func commands(repo Repo, pkg, target string, members []Target) (check, fix string) {
	if pkg == "" || target == "" {
		return "", ""
	}
	targets := []string{"--target", proc.ShellQuote(pkg + "@" + target)}
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
		targets = append(targets, "--target", proc.ShellQuote(m.Name+"@"+m.Version))
	}
	cmd := func(sub string, extra ...string) string {
		parts := []string{"uptide", sub}
		if repo.Cwd != "" {
			parts = append(parts, "--cwd", proc.ShellQuote(repo.Cwd))
		}
		parts = append(parts, proc.ShellQuote(pkg))
		parts = append(parts, targets...)
		parts = append(parts, extra...)
		return strings.Join(parts, " ")
	}
	var group []string
	if repo.Group {
		group = []string{"--group"}
	}
	check = cmd("check", append(group, "--details")...)
	if repo.Conflict {
		return check, ""
	}
	return check, cmd("fix", group...)
}

// CheckTypeScript is the command checking the repository's upgrade of
// typescript to version: what a target needing a newer TypeScript costs
// first.
func CheckTypeScript(repo Repo, version string) string {
	parts := []string{"uptide", "check"}
	if repo.Cwd != "" {
		parts = append(parts, "--cwd", proc.ShellQuote(repo.Cwd))
	}
	parts = append(parts, "typescript", "--target", proc.ShellQuote("typescript@"+version))
	return strings.Join(parts, " ")
}

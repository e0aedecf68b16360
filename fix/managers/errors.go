package managers

import (
	"fmt"
	"strings"
)

// ScopeError is an install that changed the lockfile outside the moved
// packages' subtrees, beyond what the manager does on its own.
type ScopeError struct {
	Lockfile string
	// Entries name each offending record or declaration:
	// "left-pad 1.0.0 → 1.3.0".
	Entries []string
	// Normalized is what the manager rewrites on its own (the baseline the
	// entries are counted from); NormalizeErr says why that run failed.
	Normalized   []string
	NormalizeErr error
}

func (e *ScopeError) Error() string {
	s := fmt.Sprintf("%s: the install changed %d entr%s outside the moved packages: %s: the lockfile was restored; ",
		e.Lockfile, len(e.Entries), plural(len(e.Entries), "y", "ies"), strings.Join(e.Entries, "; "))
	switch {
	case len(e.Normalized) > 0:
		s += fmt.Sprintf("the manager rewrites %d more on its own (%s), which are not counted; ", len(e.Normalized), strings.Join(e.Normalized, "; "))
	case e.NormalizeErr != nil:
		s += fmt.Sprintf("the manager's own run on the untouched lockfile, to tell its rewrites from the upgrade's, failed too (%s); ", firstLine(e.NormalizeErr.Error()))
	}
	return s + "find out why the manager re-resolved them (a lockfile entry its manifest range no longer accepts, a hand-edited or stale lockfile), " +
		"fix that in a commit of its own, then run the upgrade again"
}

// VersionError is a manager binary whose version is not the one the
// repository names.
type VersionError struct {
	Field string // where the wanted version is written: "package.json packageManager"
	Want  string // "pnpm@9.15.9"
	Have  string // "pnpm@9.12.0 (/usr/bin/pnpm)"
	Hint  string
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("%s names %s but the binary on PATH is %s: %s", e.Field, e.Want, e.Have, e.Hint)
}

// InstallError is a manager command that failed.
type InstallError struct {
	Command string
	Output  string // the tail of its output
}

func (e *InstallError) Error() string {
	return fmt.Sprintf("%s failed; the original manifests and lockfile were restored: read its output below, fix the cause, and run again\n%s",
		e.Command, TailLines(e.Output, 30))
}

// RangeError is a declaration whose specifier cannot be moved keeping its
// style.
type RangeError struct {
	File string // the package.json or pnpm-workspace.yaml
	Name string
	Spec string
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("%s: %s is declared as %q, which uptide cannot move keeping its style (only exact, ^ and ~ versions, npm: aliases of them and pnpm catalog entries of them): "+
		"change it to one of those, or upgrade %s by hand", e.File, e.Name, e.Spec, e.Name)
}

// LinkerError is a Yarn Berry repository that does not install into
// node_modules.
type LinkerError struct {
	File   string // .yarnrc.yml
	Linker string // "pnp" (also when unset: Yarn's default)
}

func (e *LinkerError) Error() string {
	return fmt.Sprintf("%s: nodeLinker is %s; uptide fix installs Yarn Berry repositories only with nodeLinker: node-modules: "+
		"add `nodeLinker: node-modules` to %s (and commit it), or upgrade by hand", e.File, e.Linker, e.File)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// TailLines is the last n lines of a manager's output, what an error
// quotes of it.
func TailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// StrayError is an install that changed files outside its scope: not the
// lockfile, not the edited manifests as the upgrade wrote them, not what
// the manager keeps for itself.
type StrayError struct {
	Command string // the manager, as users type it: "pnpm"
	Files   []string
}

func (e *StrayError) Error() string {
	shown := e.Files
	more := ""
	if len(shown) > 5 {
		shown, more = shown[:5], fmt.Sprintf(" and %d more", len(e.Files)-5)
	}
	return fmt.Sprintf("the %s install changed %d file%s it has no business changing (%s%s): the upgrade would be verified on files its branch does not hold; "+
		"the original manifests and lockfile were restored: find what made %s write them (a setting, a plugin, a wrapper on PATH), then run again",
		e.Command, len(e.Files), plural(len(e.Files), "", "s"), strings.Join(shown, ", "), more, e.Command)
}

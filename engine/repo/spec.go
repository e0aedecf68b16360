package repo

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// Spec is what one dependency specifier points at.
type Spec struct {
	Kind model.SpecKind
	// Package is the registry (or workspace) package it resolves to: the
	// declared name, or the real name behind an alias.
	Package string
	// Range is the version range, exact version or tag asked of the
	// registry; empty for kinds that do not come from a registry, except
	// workspace: ranges (workspace:^1.2.0 gives ^1.2.0).
	Range string
	// Catalog is the catalog a catalog: specifier names ("default" for a
	// bare catalog:); the caller resolves it.
	Catalog string
	// Problem says why the specifier is not usable as written, if it is not.
	Problem string
}

// ClassifySpec says what the specifier spec, declared under name, points at,
// following npm-package-arg for npm's forms and the pnpm, yarn and bun
// protocols (workspace:, catalog:, link:, portal:, patch:).
func ClassifySpec(name, spec string) Spec {
	s := strings.TrimSpace(spec)
	reg := func(pkg, rng string) Spec { return classifyRegistry(pkg, rng) }
	switch {
	case s == "":
		// npm reads a missing range as "any version".
		return Spec{Kind: model.SpecRange, Package: name, Range: "*"}
	case strings.HasPrefix(s, "catalog:"):
		c := strings.TrimSpace(strings.TrimPrefix(s, "catalog:"))
		if c == "" {
			c = "default"
		}
		return Spec{Kind: model.SpecCatalog, Package: name, Catalog: c}
	case strings.HasPrefix(s, "workspace:"):
		return classifyWorkspace(name, strings.TrimPrefix(s, "workspace:"))
	case strings.HasPrefix(s, "npm:"):
		rest := strings.TrimPrefix(s, "npm:")
		// Yarn's npm:^1.2.3 asks the registry for the declared name itself.
		if strings.TrimSpace(rest) == "" {
			return reg(name, "*")
		}
		if validRange(rest) {
			return reg(name, rest)
		}
		pkg, rng := splitNameAt(rest)
		if !validPackageName(pkg) {
			return Spec{Kind: model.SpecAlias, Package: pkg, Range: rng,
				Problem: "npm: alias names no valid package (expected npm:<name>@<range>)"}
		}
		if rng == "" {
			rng = "latest"
		}
		inner := classifyRegistry(pkg, rng)
		return Spec{Kind: model.SpecAlias, Package: pkg, Range: rng, Problem: inner.Problem}
	case strings.HasPrefix(s, "link:"), strings.HasPrefix(s, "portal:"):
		return Spec{Kind: model.SpecLink, Package: name}
	case strings.HasPrefix(s, "file:"), strings.HasPrefix(s, "exec:"):
		return Spec{Kind: model.SpecFile, Package: name}
	case strings.HasPrefix(s, "patch:"):
		return classifyPatch(name, strings.TrimPrefix(s, "patch:"))
	case isGitSpec(s):
		return Spec{Kind: model.SpecGit, Package: name}
	case strings.HasPrefix(s, "http://"), strings.HasPrefix(s, "https://"):
		return Spec{Kind: model.SpecURL, Package: name}
	case isFilePath(s), isTarballPath(s):
		return Spec{Kind: model.SpecFile, Package: name}
	case hostedShorthand.MatchString(s):
		return Spec{Kind: model.SpecGit, Package: name}
	case unknownProtocol.MatchString(s):
		// Not a registry package: never ask a registry about it.
		return Spec{Kind: model.SpecURL, Package: name,
			Problem: "unknown protocol " + strings.SplitN(s, ":", 2)[0] + ":"}
	}
	return reg(name, s)
}

func classifyRegistry(pkg, rng string) Spec {
	switch {
	case exactVersion.MatchString(rng):
		return Spec{Kind: model.SpecExact, Package: pkg, Range: rng}
	case validRange(rng):
		return Spec{Kind: model.SpecRange, Package: pkg, Range: rng}
	case validTag(rng):
		return Spec{Kind: model.SpecTag, Package: pkg, Range: rng}
	}
	return Spec{Kind: model.SpecTag, Package: pkg, Range: rng,
		Problem: "neither a version range nor a dist-tag"}
}

// classifyWorkspace reads workspace:*, workspace:^, workspace:~,
// workspace:^1.2.0, workspace:../path and pnpm's workspace:name@range.
func classifyWorkspace(name, rest string) Spec {
	out := Spec{Kind: model.SpecWorkspace, Package: name}
	switch {
	case rest == "*" || rest == "^" || rest == "~" || validRange(rest):
		out.Range = rest
	case isFilePath(rest):
	default:
		if pkg, rng := splitNameAt(rest); validPackageName(pkg) && (rng == "" || rng == "^" || rng == "~" || validRange(rng)) {
			out.Package = pkg
			out.Range = rng
		} else if rest != "" {
			out.Problem = "workspace: takes *, ^, ~, a version range or a path"
		}
	}
	return out
}

// classifyPatch reads yarn's patch:<name>@<source>#<patch file> by the
// source it patches.
func classifyPatch(name, rest string) Spec {
	if i := strings.Index(rest, "#"); i >= 0 {
		rest = rest[:i]
	}
	if dec, err := url.PathUnescape(rest); err == nil {
		rest = dec
	}
	pkg, src := splitNameAt(rest)
	if !validPackageName(pkg) || strings.HasPrefix(src, "patch:") {
		return Spec{Kind: model.SpecFile, Package: name, Problem: "patch: names no package to patch"}
	}
	inner := ClassifySpec(pkg, src)
	if inner.Kind == model.SpecRange || inner.Kind == model.SpecExact || inner.Kind == model.SpecTag {
		if pkg != name {
			inner.Kind = model.SpecAlias
		}
	}
	return inner
}

// splitNameAt splits "name@range" and "@scope/name@range" at the version's '@'.
func splitNameAt(s string) (name, rng string) {
	from := 0
	if strings.HasPrefix(s, "@") {
		from = 1
	}
	if i := strings.Index(s[from:], "@"); i >= 0 {
		return s[:from+i], s[from+i+1:]
	}
	return s, ""
}

var (
	// validPackageNameRe is npm's rule for names on the registry (old
	// packages may carry capitals, so they are allowed).
	validPackageNameRe = regexp.MustCompile(`^(?:@[A-Za-z0-9_~][A-Za-z0-9._~-]*/)?[A-Za-z0-9_~][A-Za-z0-9._~-]*$`)
	exactVersion       = regexp.MustCompile(`^[=v\s]*v?\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$`)
	// hostedShorthand is npm-package-arg's user/repo[#ref] form.
	hostedShorthand = regexp.MustCompile(`^[^@%/\s.-][^:@%/\s]*/[^:@\s/%]+(?:#.*)?$`)
	scpLike         = regexp.MustCompile(`^[^@/:\s]+@[^:/\s]+:[^\s]+$`)
	unknownProtocol = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	windowsDrive    = regexp.MustCompile(`^[a-zA-Z]:[/\\]`)
	partialVersion  = regexp.MustCompile(`^v?(?:[xX*]|\d+)(?:\.(?:[xX*]|\d+)(?:\.(?:[xX*]|\d+)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)?)?$`)
)

func validPackageName(s string) bool {
	return len(s) <= 214 && validPackageNameRe.MatchString(s)
}

var gitPrefixes = []string{
	"git+ssh://", "git+https://", "git+http://", "git+file://", "git://", "ssh://",
	"github:", "gitlab:", "bitbucket:", "gist:",
}

var gitHosts = map[string]bool{"github.com": true, "gitlab.com": true, "bitbucket.org": true, "www.github.com": true}

func isGitSpec(s string) bool {
	for _, p := range gitPrefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	if scpLike.MatchString(s) {
		return true
	}
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		return false
	}
	noRef, _, _ := strings.Cut(s, "#")
	if strings.HasSuffix(noRef, ".git") {
		return true
	}
	u, err := url.Parse(noRef)
	if err != nil || !gitHosts[strings.ToLower(u.Host)] {
		return false
	}
	// https://github.com/user/repo is the repository; anything longer
	// (…/tarball/v1, …/archive/x.tgz) is a download.
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	return len(parts) == 2 && parts[0] != "" && parts[1] != ""
}

func isFilePath(s string) bool {
	return s == "." || s == ".." ||
		strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") ||
		strings.HasPrefix(s, `.\`) || strings.HasPrefix(s, `..\`) ||
		strings.HasPrefix(s, "/") || strings.HasPrefix(s, `\`) ||
		strings.HasPrefix(s, "~/") || windowsDrive.MatchString(s)
}

func isTarballPath(s string) bool {
	l := strings.ToLower(s)
	if strings.Contains(l, "://") {
		return false
	}
	return strings.HasSuffix(l, ".tgz") || strings.HasSuffix(l, ".tar.gz") || strings.HasSuffix(l, ".tar")
}

// validTag is npm's rule: a tag is left unchanged by encodeURIComponent.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-_.!~*'()", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// validRange checks node-semver's range grammar (loose mode, which npm uses
// for manifests): ||-separated sets of hyphen ranges or space-separated
// comparators, each an operator and a partial version with x-ranges.
func validRange(s string) bool {
	if len(s) > 1024 {
		return false
	}
	for _, part := range strings.Split(s, "||") {
		fields := strings.Fields(part)
		if len(fields) == 0 {
			continue // "" and "1 || " mean any version there
		}
		if len(fields) == 3 && fields[1] == "-" {
			if !partialVersion.MatchString(fields[0]) || !partialVersion.MatchString(fields[2]) {
				return false
			}
			continue
		}
		for i := 0; i < len(fields); i++ {
			f := fields[i]
			// An operator may stand apart from its version (">= 1.2.3").
			if isOperator(f) && i+1 < len(fields) {
				i++
				f += fields[i]
			}
			if !validComparator(f) {
				return false
			}
		}
	}
	return true
}

func isOperator(s string) bool {
	switch s {
	case "<", ">", "<=", ">=", "=", "~", "~>", "^":
		return true
	}
	return false
}

func validComparator(s string) bool {
	for _, op := range []string{">=", "<=", "~>", ">", "<", "=", "~", "^"} {
		if strings.HasPrefix(s, op) {
			s = s[len(op):]
			break
		}
	}
	return partialVersion.MatchString(s)
}

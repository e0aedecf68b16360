package check

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine/match"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/lists"
)

// Errors inside dependencies are evidence of a cause, never a site: nobody
// edits node_modules, and what the compiler says there is about a package
// (its declarations need a newer TypeScript, or do not type-check with
// skipLibCheck off), not about a line of the repository. Each package with
// such errors is one finding, in the workspace's package.json, with the
// errors as its evidence.

const (
	// changeNewerTypeScript: the repository's compiler cannot read the
	// target's declarations (or they need a newer release to type-check).
	changeNewerTypeScript = "newer-typescript"
	// changeDependencyErrors: errors inside a dependency's declarations
	// no newer TypeScript explains.
	changeDependencyErrors = "dependency-errors"
)

// depCause is one package whose declarations hold errors of the upgrade.
type depCause struct {
	// pkg is the package ("" when the file lies outside any node_modules),
	// version its version as linked or installed.
	pkg, version string
	diags        []model.Diagnostic
	// parse: the compiler could not parse them, and then checks nothing
	// else.
	parse bool
	// need is the TypeScript they need, nil when none is known to.
	need *tsNeed
}

// tsNeed is the TypeScript a package's declarations need.
type tsNeed struct {
	// min is the oldest release that reads them ("5.0"), "" when only
	// the bundled compiler is known to.
	min string
	// how says how min was found.
	how string
	// release is the typescript release to check the upgrade to ("5.0.4"),
	// "" when the registry has none.
	release string
}

// dependencyCauses groups the compile's errors inside dependencies (the
// targets' parse errors, and the new errors in declaration files) by
// package, and finds for each the TypeScript that reads them.
func (c *checker) dependencyCauses(ctx context.Context, wc *wsCompile, linked []typescript.LinkedPackage) []depCause {
	res := wc.res
	if res == nil {
		return nil
	}
	dirs := map[string]string{}
	for _, l := range linked {
		dirs[l.Name] = l.Dir
	}
	byPkg := map[string]*depCause{}
	add := func(d model.Diagnostic, parse bool) {
		pkg, _ := model.DependencyOf(d.File)
		dc := byPkg[pkg]
		if dc == nil {
			dc = &depCause{pkg: pkg}
			byPkg[pkg] = dc
		}
		dc.diags = append(dc.diags, d)
		dc.parse = dc.parse || parse
	}
	for _, d := range res.NewerTypeScript {
		add(d, true)
	}
	// A missing peer's errors are its finding's (peers.go).
	for _, d := range withoutConfirmed(res.New, countOf(wc.peerFixed)) {
		if model.InDependency(d.File) {
			add(d, false)
		}
	}
	var out []depCause
	for _, pkg := range lists.SortedKeys(byPkg) {
		dc := byPkg[pkg]
		dir := dirs[pkg]
		if dir == "" && pkg != "" {
			dir = c.installedDir(wc.ws, pkg)
		}
		dc.version = packageVersion(dir)
		if pkg != "" && dir != "" {
			dc.need = c.typeScriptNeed(ctx, res.TypeScript, res.SkipLibCheck, dir, dc)
		}
		out = append(out, *dc)
	}
	return out
}

// installedDir is a package as the workspace resolves it, "" when absent.
func (c *checker) installedDir(ws, pkg string) string {
	for d := filepath.Join(c.root, filepath.FromSlash(ws)); ; d = filepath.Dir(d) {
		p := filepath.Join(d, "node_modules", filepath.FromSlash(pkg))
		if _, err := os.Stat(filepath.Join(p, "package.json")); err == nil {
			return p
		}
		if len(d) <= len(c.root) || d == filepath.Dir(d) {
			return ""
		}
	}
}

func packageVersion(dir string) string {
	var pkg struct {
		Version string `json:"version"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil && json.Unmarshal(b, &pkg) == nil {
		return pkg.Version
	}
	return ""
}

// typeScriptNeed is the TypeScript the package's declarations need beyond
// the repository's (have): the range its manifest declares for typescript
// (peerDependencies), and the constructs the files with errors use, each
// new in a known release (a lib type such as NoInfer only when the
// repository type-checks declarations), whichever is newer. Parse errors no construct
// explains still need a newer TypeScript when the bundled one reads the
// files. nil: nothing says a newer TypeScript reads them.
func (c *checker) typeScriptNeed(ctx context.Context, have string, skipLibCheck bool, dir string, dc *depCause) *tsNeed {
	var min, how string
	if declared := peerTypeScript(dir); declared != "" {
		if low := lowestSatisfying(declared); low != "" && typescript.CompareVersions(low, have) > 0 {
			min, how = low, fmt.Sprintf("its peerDependencies.typescript (%s)", declared)
		}
	}
	var files []string
	seen := map[string]bool{}
	for _, d := range dc.diags {
		_, rest := model.DependencyOf(d.File)
		if rest == "" || seen[rest] {
			continue
		}
		seen[rest] = true
		files = append(files, filepath.Join(dir, filepath.FromSlash(rest)))
	}
	sort.Strings(files)
	bundledReads := false
	sa, err := c.surfaces(ctx)
	if err == nil && len(files) > 0 {
		if needs, err := sa.SyntaxNeeds(ctx, files); err == nil {
			bundledReads = needs.ParseErrors == 0
			var newer []typescript.SyntaxNeed
			for _, n := range needs.Newer(have) {
				// A type of the compiler's lib is missed only where
				// declarations are type-checked.
				if !n.Type || !skipLibCheck {
					newer = append(newer, n)
				}
			}
			if len(newer) > 0 && typescript.CompareVersions(newer[0].Since, min) > 0 {
				first := newer[0]
				at := first.File
				if rel, err := filepath.Rel(dir, first.File); err == nil {
					at = path.Join("node_modules", dc.pkg, filepath.ToSlash(rel))
				}
				min = first.Since
				// The sentence names the release already: the feature alone.
				how = fmt.Sprintf("the syntax they use: %s at %s:%d:%d", first.Feature, at, first.Line, first.Column)
				var also []string
				for _, n := range newer[1:] {
					also = append(also, fmt.Sprintf("%s (%s)", n.Feature, n.Since))
				}
				if len(also) > 0 {
					how += "; also " + strings.Join(also, ", ")
				}
			}
		}
	}
	switch {
	case min != "":
	case dc.parse && bundledReads:
		how = fmt.Sprintf("the bundled TypeScript %s reads them; no construct they use or range they declare says which release first does", typescript.PinnedVersion)
	default:
		return nil
	}
	n := &tsNeed{min: min, how: how}
	at := min
	if at == "" {
		at = typescript.PinnedVersion
	}
	n.release = c.typeScriptRelease(ctx, at)
	return n
}

// peerTypeScript is the typescript range a package's manifest declares.
func peerTypeScript(dir string) string {
	var pkg struct {
		Peer map[string]string `json:"peerDependencies"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil && json.Unmarshal(b, &pkg) == nil {
		return strings.TrimSpace(pkg.Peer["typescript"])
	}
	return ""
}

// lowestSatisfying is the lowest TypeScript version (2.0 to 9.x) a range
// admits, "5.0" for 5.0.0; "" for none or an unreadable range.
func lowestSatisfying(r string) string {
	rng, err := semver.ParseRange(r)
	if err != nil {
		return ""
	}
	for major := 2; major <= 9; major++ {
		for minor := 0; minor <= 12; minor++ {
			for patch := 0; patch <= 12; patch++ {
				v := fmt.Sprintf("%d.%d.%d", major, minor, patch)
				if rng.Satisfies(v) {
					if patch == 0 {
						return strconv.Itoa(major) + "." + strconv.Itoa(minor)
					}
					return v
				}
			}
		}
	}
	return ""
}

// typeScriptRelease is the typescript release to check an upgrade to
// when at least min is needed: the newest of min's minor line, else the
// oldest release above it (stable releases only), "" when the registry
// answers none.
func (c *checker) typeScriptRelease(ctx context.Context, min string) string {
	p, err := c.client.Packument(ctx, typescript.PinnedName, false)
	if err != nil || p == nil {
		return ""
	}
	parts := strings.SplitN(min, ".", 3)
	line := ""
	if len(parts) >= 2 {
		line = parts[0] + "." + parts[1] + "."
	}
	best, lowest := "", ""
	for v := range p.Versions {
		if strings.Contains(v, "-") || typescript.CompareVersions(v, min) < 0 {
			continue
		}
		if line != "" && strings.HasPrefix(v, line) && (best == "" || typescript.CompareVersions(v, best) > 0) {
			best = v
		}
		if lowest == "" || typescript.CompareVersions(v, lowest) < 0 {
			lowest = v
		}
	}
	if best != "" {
		return best
	}
	return lowest
}

// dependencyFinding is the one finding of a package's errors.
func dependencyFinding(lead string, wc *wsCompile, dc depCause) model.Finding {
	name := dc.pkg
	if name == "" {
		name = "a file outside the repository"
	} else if dc.version != "" {
		name += " " + dc.version
	}
	compiler := wc.res.TypeScript
	f := model.Finding{
		Package: lead, Path: dc.pkg, Severity: model.Breaking, Confidence: 1,
		Workspace: wc.ws, File: path.Join(wc.ws, "package.json"), Evidence: dc.diags,
	}
	what := fmt.Sprintf("its tsc reports %s inside them", pluralCount(len(dc.diags), "error"))
	if dc.parse {
		what += " and type-checks nothing else"
	} else {
		what += " (skipLibCheck is off, so it checks them)"
	}
	switch n := dc.need; {
	case n != nil:
		f.Change, f.Rule = changeNewerTypeScript, changeNewerTypeScript
		f.Replacement = typescript.PinnedName
		if n.min != "" {
			f.Replacement += "@>=" + n.min
			f.Reason = fmt.Sprintf("%s's declarations need TypeScript ≥ %s; this repository has %s: %s. TypeScript %s is read from %s",
				name, n.min, compiler, what, n.min, n.how)
		} else {
			f.Reason = fmt.Sprintf("%s's declarations need a newer TypeScript than this repository's %s: %s; %s",
				name, compiler, what, n.how)
		}
	default:
		f.Change = changeDependencyErrors
		f.Rule = changeDependencyErrors + ":" + dc.pkg
		first := dc.diags[0]
		f.Reason = fmt.Sprintf("%s inside %s's declarations under TypeScript %s (skipLibCheck is off, so tsc checks them); the first, TS%d at %s:%d: %s",
			pluralCount(len(dc.diags), "new error"), name, compiler, first.Code, first.File, first.Line, firstLine(first.Message))
		if dc.parse {
			f.Reason = fmt.Sprintf("%s inside %s's declarations: TypeScript %s cannot parse them, and nor can the bundled %s; the first, TS%d at %s:%d: %s",
				pluralCount(len(dc.diags), "error"), name, compiler, typescript.PinnedVersion, first.Code, first.File, first.Line, firstLine(first.Message))
		}
	}
	f.Fixability, _ = match.FixabilityOf(match.FixInput{Change: f.Change, Severity: f.Severity})
	return f
}

func pluralCount(n int, w string) string { return strconv.Itoa(n) + " " + pluralWord(n, w) }

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// typeScriptReleaseOf is the release the plan's first command checks: the
// newest the compiles' causes ask for ("" for none).
func typeScriptReleaseOf(compiles []*wsCompile) string {
	out := ""
	for _, wc := range compiles {
		for _, dc := range wc.deps {
			if dc.need != nil && dc.need.release != "" && typescript.CompareVersions(dc.need.release, out) > 0 {
				out = dc.need.release
			}
		}
	}
	return out
}

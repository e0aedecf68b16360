package modformat

import (
	"fmt"
	"strings"
)

// EntryLoads is how each loader sees one entry point of one version.
type EntryLoads struct {
	// Require is what require() loads on a Node without require(esm).
	Require EntryLoad `json:"require"`
	// RequireESM is what require() loads on a Node with require(esm)
	// (which also matches "module-sync").
	RequireESM EntryLoad `json:"requireEsm"`
	Import     EntryLoad `json:"import"`
}

// EntryFormat compares one entry point of the installed and target
// versions.
type EntryFormat struct {
	Subpath   string     `json:"subpath"`
	Installed EntryLoads `json:"installed"`
	Target    EntryLoads `json:"target"`
	// StopsRequire: require() loaded CommonJS from the installed version and
	// does not from the target (it loads ESM, or nothing).
	StopsRequire bool `json:"stopsRequire"`
	// NotRequirable: even a Node with require(esm) cannot require() the
	// target's entry, because its exports give require() no target.
	NotRequirable bool `json:"notRequirable,omitempty"`
	// TopLevelAwait: the ESM graph require(esm) would load awaits at top
	// level, so require() throws ERR_REQUIRE_ASYNC_MODULE; set only when
	// the caller handed over the target's files.
	TopLevelAwait *TopLevelAwait `json:"topLevelAwait,omitempty"`
	// Reason says in one sentence what changed, from the manifests.
	Reason string `json:"reason,omitempty"`
}

// FormatReport is the module-format comparison of two versions.
type FormatReport struct {
	Package string `json:"package"`
	From    string `json:"from"`
	To      string `json:"to"`
	// Entries: one per subpath asked about, in the order asked.
	Entries []EntryFormat `json:"entries"`
	// StopsRequire: some entry asked about stops supporting require().
	StopsRequire bool `json:"stopsRequire"`
	// EnginesFrom and EnginesTo are engines.node as written.
	EnginesFrom string `json:"enginesFrom,omitempty"`
	EnginesTo   string `json:"enginesTo,omitempty"`
}

// Entry returns the comparison of subpath, if it was asked about.
func (r FormatReport) Entry(subpath string) (EntryFormat, bool) {
	for _, e := range r.Entries {
		if e.Subpath == subpath {
			return e, true
		}
	}
	return EntryFormat{}, false
}

// Format compares how the installed and target versions load, for each
// subpath the repository loads ("." when subpaths is empty): type,
// main/module, the exports conditions seen by require() and import(), and
// engines.node. The "module" field is read by bundlers, never by Node, so
// it changes nothing here. Pure apart from reading the packages' FS (nested
// package.json files, and the ESM graph for top-level await).
func Format(installed, target Package, subpaths []string) FormatReport {
	if len(subpaths) == 0 {
		subpaths = []string{"."}
	}
	seen := map[string]bool{}
	r := FormatReport{
		Package:     firstNonEmpty(target.Manifest.Name, installed.Manifest.Name),
		From:        installed.Manifest.Version,
		To:          target.Manifest.Version,
		EnginesFrom: installed.Manifest.EnginesNode,
		EnginesTo:   target.Manifest.EnginesNode,
	}
	for _, sp := range subpaths {
		sp = normalizeSubpath(sp)
		if seen[sp] {
			continue
		}
		seen[sp] = true
		e := compareEntry(installed, target, sp)
		r.StopsRequire = r.StopsRequire || e.StopsRequire
		r.Entries = append(r.Entries, e)
	}
	return r
}

func normalizeSubpath(sp string) string {
	sp = strings.TrimSpace(sp)
	switch {
	case sp == "" || sp == ".":
		return "."
	case strings.HasPrefix(sp, "./"):
		return sp
	default:
		return "./" + strings.TrimPrefix(sp, "/")
	}
}

func loads(p Package, sp string) EntryLoads {
	return EntryLoads{
		Require:    resolveEntry(p, sp, condRequire),
		RequireESM: resolveEntry(p, sp, condRequireESM),
		Import:     resolveEntry(p, sp, condImport),
	}
}

func compareEntry(installed, target Package, sp string) EntryFormat {
	e := EntryFormat{Subpath: sp, Installed: loads(installed, sp), Target: loads(target, sp)}
	e.StopsRequire = e.Installed.Require.Kind == CommonJS && e.Target.Require.Kind != CommonJS
	e.NotRequirable = e.Target.RequireESM.Kind == ""
	if e.Target.RequireESM.Kind == ESM && target.FS != nil {
		e.TopLevelAwait = FindTopLevelAwait(target.FS, e.Target.RequireESM.File)
	}
	if e.StopsRequire {
		e.Reason = stopReason(target.Manifest, e)
	}
	return e
}

func stopReason(m Manifest, e EntryFormat) string {
	label := m.Name
	if m.Version != "" {
		label += "@" + m.Version
	}
	t := e.Target
	var b strings.Builder
	if t.Require.Kind == "" {
		fmt.Fprintf(&b, "%s gives require() nothing for %q: %s", label, e.Subpath, t.Require.Via)
		if t.Import.Kind == ESM {
			fmt.Fprintf(&b, "; only import() reaches %s", t.Import.File)
		}
	} else {
		fmt.Fprintf(&b, "%s ships %q as ESM only: require() resolves %s to %s, an ES module (%s)",
			label, e.Subpath, t.Require.Via, t.Require.File, t.Require.KindWhy)
	}
	if e.NotRequirable {
		b.WriteString("; no Node can require() it")
	} else if e.TopLevelAwait != nil {
		fmt.Fprintf(&b, "; its ESM graph awaits at top level (%s:%d), so no Node can require() it", e.TopLevelAwait.File, e.TopLevelAwait.Line)
	}
	return b.String()
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

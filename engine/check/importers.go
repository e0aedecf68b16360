package check

import (
	"fmt"
	"slices"
	"sort"

	"github.com/uptide/uptide/engine/groups"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/internal/lists"
)

// A workspace may import a package it does not declare: a hoisted copy
// another workspace declares (pnpm's shamefully-hoist, npm's hoisting)
// is what Node finds from it. The lockfile never lists such an import, so
// check scans each workspace's own sources once (nested workspaces
// excluded) and analyzes an undeclared importer against the copy it
// resolves to, as part of the decision that installed that copy.

// importers is what the scan found, for the reports.
type importers struct {
	// byWS maps a workspace to the packages its own files import, each
	// with its files: every package, since the companions an upgrade
	// drags along are known only once its unit is planned, and their
	// importers are in the compile's scope too.
	byWS map[string]map[string][]string
	// declared maps a workspace to the names its manifest declares.
	declared map[string]map[string]bool
	// names are the workspaces' package names, by path.
	names      map[string]string
	undeclared []undeclaredImport
	// warning says why the scan did not run; the reports carry it.
	warning string
}

// undeclaredImport is one workspace importing a package it does not
// declare, and what its import resolves to.
type undeclaredImport struct {
	ws, name string
	// installed is the version of the copy the import resolves to, viaWS
	// the workspace that declares that copy.
	installed, viaWS string
	// reason is set when the import cannot be analyzed.
	reason string
}

// scanImporters finds, before the units are planned, the workspaces that
// import the asked packages (and their group members) without declaring
// them. An importer whose import resolves to the copy a declaring workspace
// has joins that row's workspaces, so the unit finds its usages and
// compiles it like a declared one, and the declaring workspaces above it
// leave its files to it.
func (c *checker) scanImporters() {
	imp := &importers{byWS: map[string]map[string][]string{}, declared: map[string]map[string]bool{}, names: map[string]string{}}
	c.importers = imp
	r := c.repository
	wanted := c.relevantNames()
	if len(wanted) == 0 {
		return
	}
	byWS, err := repo.ImportersByWorkspace(r, nil)
	if err != nil {
		imp.warning = fmt.Sprintf("the workspaces' imports were not scanned, so workspaces importing a package they do not declare, and files importing only a companion, are not analyzed: %v", err)
		return
	}
	imp.byWS = byWS
	byName := map[string]model.Workspace{}
	for _, ws := range r.Workspaces {
		imp.names[ws.Path] = ws.Name
		if ws.Name != "" {
			byName[ws.Name] = ws
		}
		set := map[string]bool{}
		for _, d := range ws.Declarations {
			set[d.Name] = true
		}
		imp.declared[ws.Path] = set
	}
	for _, ws := range r.Workspaces {
		for _, name := range wanted {
			if len(byWS[ws.Path][name]) == 0 || imp.declared[ws.Path][name] {
				continue
			}
			u := c.resolveUndeclared(ws, name, byName)
			imp.undeclared = append(imp.undeclared, u)
		}
	}
}

// relevantNames are the asked packages as the manifests name them (and as
// asked: a package no workspace declares may still be imported), and the
// other members of their release groups.
func (c *checker) relevantNames() []string {
	asked := map[string]bool{}
	var out []string
	for _, n := range dedupeNames(c.opts.Packages) {
		asked[n] = true
		out = appendUnique(out, n)
	}
	groups := map[string]bool{}
	for _, r := range c.disc.Rows {
		if asked[r.Name] || asked[r.Package] {
			out = appendUnique(out, r.Name)
			if r.Group != "" {
				groups[r.Group] = true
			}
		}
	}
	for _, r := range c.disc.Rows {
		if r.Group != "" && groups[r.Group] {
			out = appendUnique(out, r.Name)
		}
	}
	sort.Strings(out)
	return out
}

// resolveUndeclared resolves name from ws the way Node does and finds the
// decision whose copy that is: a row declaring it in a workspace that
// resolves the same directory, preferring a workspace ws depends on.
func (c *checker) resolveUndeclared(ws model.Workspace, name string, byName map[string]model.Workspace) undeclaredImport {
	u := undeclaredImport{ws: ws.Path, name: name}
	dir, version := installedCopy(c.root, ws.Path, name)
	if dir == "" {
		u.reason = fmt.Sprintf("its import of %s does not resolve: no node_modules/%s in %s or a directory above it within the repository; declare %s in its package.json and install", name, name, wsDirLabel(ws.Path), name)
		return u
	}
	u.installed = version
	dependsOn := map[string]bool{}
	for _, d := range ws.Declarations {
		if w, ok := byName[d.Name]; ok {
			dependsOn[w.Path] = true
		}
	}
	row, via := -1, ""
	for i, r := range c.disc.Rows {
		if r.Name != name {
			continue
		}
		for _, w := range r.Workspaces {
			if d, _ := installedCopy(c.root, w, name); d != dir {
				continue
			}
			if row < 0 || dependsOn[w] && !dependsOn[via] {
				row, via = i, w
			}
		}
	}
	if row < 0 {
		u.reason = fmt.Sprintf("its import of %s resolves to %s@%s, a copy no workspace declares; declare %s in its package.json", name, name, orUnknown(version), name)
		return u
	}
	u.viaWS = via
	c.disc.Rows[row].Workspaces = appendUnique(c.disc.Rows[row].Workspaces, ws.Path)
	return u
}

func wsDirLabel(ws string) string {
	if ws == "." || ws == "" {
		return "the repository root"
	}
	return ws
}

// attachImporters fills every report's importers and undeclared entries,
// and takes the undeclared importers out of the declared workspaces the
// report names.
func (c *checker) attachImporters(reps []model.PackageReport) {
	imp := c.importers
	if imp == nil {
		imp = &importers{}
	}
	covered := map[string]bool{} // name + "\x00" + declaring workspace, by some report
	for _, p := range reps {
		for _, name := range reportNames(p) {
			for _, ws := range p.Workspaces {
				covered[name+"\x00"+ws] = true
			}
		}
	}
	for i := range reps {
		p := &reps[i]
		p.Importers, p.Undeclared = []model.Importer{}, []model.Undeclared{}
		if imp.warning != "" {
			p.Warnings = appendUnique(p.Warnings, imp.warning)
		}
		names := reportNames(*p)
		undeclaredHere := map[string]bool{} // name + "\x00" + ws analyzed in this report
		for _, u := range imp.undeclared {
			if !slices.Contains(names, u.name) {
				continue
			}
			entry := model.Undeclared{Workspace: u.ws, Package: u.name, Resolved: u.installed, ViaWorkspace: u.viaWS, Via: viaName(imp, u.viaWS)}
			switch {
			case u.reason != "":
				entry.Status, entry.Reason = model.StatusSkipped, u.reason
			case installedOf(*p, u.name) == u.installed && slices.Contains(p.Workspaces, u.ws):
				entry.Status, entry.Reason = memberStatus(*p, u.name)
				undeclaredHere[u.name+"\x00"+u.ws] = true
			default:
				continue // another report of the package analyzed it
			}
			p.Undeclared = append(p.Undeclared, entry)
		}
		p.Workspaces = withoutUndeclared(p.Workspaces, names, undeclaredHere)
		for j := range p.Members {
			p.Members[j].Workspaces = withoutUndeclared(p.Members[j].Workspaces, []string{p.Members[j].Name}, undeclaredHere)
		}
		for _, ws := range lists.SortedKeys(imp.byWS) {
			for _, name := range names {
				files := imp.byWS[ws][name]
				if len(files) == 0 {
					continue
				}
				in := model.Importer{Workspace: ws, Package: name, Declared: imp.declared[ws][name], Files: append([]string{}, files...)}
				switch {
				case in.Declared && slices.Contains(p.Workspaces, ws):
					in.Status, in.Reason = memberStatus(*p, name)
				case in.Declared && covered[name+"\x00"+ws]:
					continue // its own report lists it
				case in.Declared:
					in.Status = model.StatusNotAnalyzed
					in.Reason = fmt.Sprintf("it declares %s at a version this check did not cover: uptide check %s", name, name)
				default:
					i := slices.IndexFunc(p.Undeclared, func(e model.Undeclared) bool { return e.Workspace == ws && e.Package == name })
					if i < 0 {
						continue // another report of the package analyzed it
					}
					in.Status, in.Reason = p.Undeclared[i].Status, p.Undeclared[i].Reason
				}
				p.Importers = append(p.Importers, in)
			}
		}
		sort.SliceStable(p.Undeclared, func(a, b int) bool {
			x, y := p.Undeclared[a], p.Undeclared[b]
			return x.Workspace+"\x00"+x.Package < y.Workspace+"\x00"+y.Package
		})
	}
}

// reportNames are the package names a report stands for.
func reportNames(p model.PackageReport) []string {
	var out []string
	for _, m := range p.Members {
		out = appendUnique(out, m.Name)
	}
	if len(out) == 0 {
		out = append(out, p.Package)
	}
	return out
}

func installedOf(p model.PackageReport, name string) string {
	for _, m := range p.Members {
		if m.Name == name {
			return m.Installed
		}
	}
	return p.Installed
}

// memberStatus is whether the report analyzed name: its member's status,
// else the report's.
func memberStatus(p model.PackageReport, name string) (model.AnalysisStatus, string) {
	status, reason := p.Status, p.Reason
	for _, m := range p.Members {
		if m.Name == name {
			status, reason = m.Status, m.Reason
		}
	}
	if status == model.StatusPartial {
		return model.StatusAnalyzed, ""
	}
	return status, reason
}

func viaName(imp *importers, ws string) string {
	if ws == "" {
		return ""
	}
	if n := imp.names[ws]; n != "" {
		return n
	}
	return ws
}

func withoutUndeclared(wss, names []string, undeclared map[string]bool) []string {
	out := []string{}
	for _, ws := range wss {
		drop := false
		for _, n := range names {
			drop = drop || undeclared[n+"\x00"+ws]
		}
		if !drop {
			out = append(out, ws)
		}
	}
	return out
}

// companionImporters are the files of workspace ws importing a companion,
// by its name or a subpath of it (next/headers), or, for a DefinitelyTyped
// companion, by the module it types.
func (c *checker) companionImporters(ws, name string) []string {
	if c.importers == nil {
		return nil
	}
	files := c.importers.byWS[ws][name]
	if typed := groups.TypedPackage(name); typed != "" {
		files = slices.Concat(files, c.importers.byWS[ws][typed])
		slices.Sort(files)
		files = slices.Compact(files)
	}
	return files
}

package check

import (
	"context"
	"fmt"
	"github.com/uptide/uptide/engine/discover"
	"github.com/uptide/uptide/engine/event"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/uptide/uptide/engine/groups"
	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/peers"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/lists"
	"github.com/uptide/uptide/internal/redact"
)

// Options configures Check.
type Options struct {
	// Cwd is where the user ran Uptide; the repository root is found from it.
	Cwd string
	// CwdArg is --cwd as the user wrote it, for the commands of the plan's
	// Next block; empty when Uptide ran inside the repository.
	CwdArg string
	Env    []string
	// Client overrides the registry client (tests, the demo).
	Client *registry.Client
	// CompilerClient fetches the pinned TypeScript when the cache lacks it;
	// nil uses Client. The demo's registry serves only its own packages, so
	// it passes a client of the user's own registry here.
	CompilerClient *registry.Client
	// Packages are the dependencies asked about, as the manifests name them.
	Packages []string
	// Targets maps a package to the version (or dist-tag) to check against;
	// a package without one is checked against its latest release.
	Targets map[string]string
	// Group checks packages linked by a peer range or a shared pin (list's
	// cross-scope groups) together as well; one-scope release groups are
	// always checked together.
	Group bool
	// Compile runs Signal B; false (--no-compile) confirms nothing.
	Compile bool
	// Runtime runs Signal C (the runtime probe, engine/probe) beside it;
	// false (--no-runtime) leaves what the repository does not type-check
	// unverified.
	Runtime bool
	Events  event.Sink
	// Timing, when set, receives the duration of each phase.
	Timing map[event.Phase]time.Duration
	// Planned, when set, receives each package's moves as soon as they are
	// known, before its analysis: a report with only the title, the
	// workspaces, the versions, the members at their targets and the
	// companion plan. Peer companions the compile adds and the types
	// packages found in the analysis come only with the final report. Fix
	// starts installing on it.
	Planned func(model.PackageReport)
	// Drivers, when set, run the repository's own compiler for check and
	// outlive it: the fix runner's compiles then use the driver (and the
	// parsed files) check leaves. Their owner closes them.
	Drivers *typescript.Drivers
	// Installed, when set, is asked for a real install of the upgrade:
	// the root of the repository it was made in (the fix runner's clone,
	// once its early install is done), or "". Where that install holds a
	// target at the version the overlay would link, the overlay compile
	// links its copy instead of the registry's, and the Drivers keep its
	// parsed files,
	// which the compile after the upgrade then reads again. The package's
	// files are the same in both copies; what an npm install nests inside
	// it is the install's own choice of its dependencies, which the
	// overlay otherwise fetches at the highest version their ranges admit.
	Installed func() string
	// Index, when set, is the discovery of this repository the caller has
	// run already (the planner's): check starts from it instead of
	// discovering again. Cwd and Env are then not read, and Client
	// defaults to the index's.
	Index *discover.Index
	// Repository, when set without Index, is the repository the caller
	// has loaded from Cwd already (fix's): discovery reads it instead of
	// loading it again.
	Repository *model.Repository
	// Secrets, when set, learns the registry credentials the run's client
	// holds, so the caller can mask them (and the rest of the set) in the
	// report: compiler output quotes the repository's code.
	Secrets *redact.Secrets
}

// Check answers what upgrading each asked package breaks in the repository:
// the contract diff joined with every usage, judged by the repository's own
// compiler, with the release group, the companions and the per-rule plan.
// A failure in one package is that package's report, never the run's
// error; the error is for a repository that cannot be checked at all (not
// installed, unreadable).
func Check(ctx context.Context, opts Options) (*model.CheckReport, error) {
	if len(opts.Packages) == 0 {
		return nil, fmt.Errorf("check: no package named: uptide list shows the dependencies")
	}
	client, err := clientOf(opts)
	if err != nil {
		return nil, err
	}
	if opts.Secrets != nil {
		opts.Secrets.Add(client.Config().Secrets()...)
	}
	var disc *model.DiscoverReport
	idx := opts.Index
	if idx != nil {
		disc = idx.Report()
	} else if disc, idx, err = discover.Discover(ctx, discover.Options{Cwd: opts.Cwd, Env: opts.Env, Client: client, Repository: opts.Repository, Events: opts.Events, Timing: opts.Timing}); err != nil {
		return nil, err
	}
	// Discover timed its own phases into the same map.
	t := event.NewTimer(opts.Timing)

	c := &checker{opts: opts, client: client, disc: disc, repository: idx.Repository(), root: disc.Repository.Root, timer: t,
		probeSem: make(chan struct{}, probeSlots)}
	defer c.close()
	c.scanImporters()
	units, early := c.plan(ctx)
	if err := c.verifyInstall(units); err != nil {
		return nil, err
	}
	t.Done(event.PhaseInstall)

	rep := &model.CheckReport{
		Repository: disc.Repository,
		Packages:   early,
		Problems:   append([]model.Problem{}, disc.Problems...),
		Notes:      unusedTargets(opts.Targets, units),
	}
	rep.Packages = append(rep.Packages, c.analyzeAll(ctx, units)...)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.attachImporters(rep.Packages)
	c.addSourceWarnings(rep.Packages)
	rep.ComputedLoads = computedLoads(c.computed, rep.Packages)
	sort.SliceStable(rep.Packages, func(i, j int) bool {
		a, b := rep.Packages[i], rep.Packages[j]
		if a.Title != b.Title {
			return a.Title < b.Title
		}
		if a.Installed != b.Installed {
			return semver.Compare(a.Installed, b.Installed) < 0
		}
		return strings.Join(a.Workspaces, ",") < strings.Join(b.Workspaces, ",")
	})
	return rep, nil
}

// clientOf is the registry client of the run: the caller's, the one its
// discovery asked, or one of the repository's own .npmrc files.
func clientOf(opts Options) (*registry.Client, error) {
	switch {
	case opts.Client != nil:
		return opts.Client, nil
	case opts.Index != nil:
		return opts.Index.Client(), nil
	case opts.Repository != nil:
		return discover.NewClient(opts.Repository.Root, opts.Env)
	}
	return discover.ClientFor(opts.Cwd, opts.Env)
}

// member is one package of a unit, at the version it moves to.
type member struct {
	row    model.DependencyRow
	target string
	// reason is set when the member cannot be analyzed (no such target).
	reason string
}

func (m member) name() string { return m.row.Name }

// unit is one dependency decision to check: a package at one installed
// version, alone or with the rest of its release group.
type unit struct {
	lead    member
	members []member // lead first, then the rest sorted by name
	group   *model.Group
	// notes say which members stay where they are, and why.
	notes []string
	// early is the companion plan made before the analysis (planEarly).
	early *earlyPlan
}

func (u unit) title() string {
	if u.group != nil {
		return u.group.Title
	}
	return u.lead.name()
}

// workspaces every member is declared in, sorted.
func (u unit) workspaces() []string {
	var out []string
	for _, m := range u.members {
		for _, w := range m.row.Workspaces {
			out = appendUnique(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// checker holds what one Check run shares across its units.
type checker struct {
	opts   Options
	client *registry.Client
	disc   *model.DiscoverReport
	// repository is the repository as discovery loaded it.
	repository *model.Repository
	root       string
	timer      *event.Timer

	pinned    *typescript.Adapter
	pinnedErr error
	adapters  map[string]*typescript.Adapter // by compiler directory
	// shared are the adapters opts.Drivers own.
	shared map[*typescript.Adapter]bool
	// mu guards fetched: overlays fetch what targets import while compiling.
	mu      sync.Mutex
	fetched []*registry.Package

	// peers is what the repository's manager does with missing peers.
	peers *peers.Policy
	// lockGraph is the yarn lockfile's whole graph, read once (locked).
	lockOnce  sync.Once
	lockGraph *lockfile.Graph

	packs groups.Packuments
	deps  []groups.Dep
	// importers are the workspaces importing the asked packages, declared
	// or not (importers.go).
	importers *importers
	// computed are the computed loads that cannot load the member they
	// were found for, from every member run (loads.go).
	computed []model.ComputedLoad
	// probeSem bounds the runtime probes running at once.
	probeSem chan struct{}

	// The units analyzed at once (slots.go) share these: judgeMu guards
	// adapters and shared, pinnedMu the pinned adapter, lazyMu what is
	// read once on first use (packs, deps, peers).
	judgeMu, pinnedMu, lazyMu sync.Mutex
	// baselines are the workspaces' baselines, compiled once before the
	// units run (baseline.go); read-only afterwards.
	baselines map[string]*typescript.SharedBaseline
}

func (c *checker) close() {
	if c.pinned != nil {
		c.pinned.Close()
	}
	for _, a := range c.adapters {
		switch {
		case c.shared[a]:
			// Its owner goes on with it: what only check reads goes.
			_ = a.Release(context.Background())
		case a != c.pinned:
			a.Close()
		}
	}
	for _, p := range c.fetched {
		_ = p.Remove()
	}
}

// plan turns the asked names into units: the rows of each name, each row
// with its release group. Names that are no dependency, and rows that cannot
// be checked, become reports at once.
func (c *checker) plan(ctx context.Context) ([]unit, []model.PackageReport) {
	var units []unit
	var early []model.PackageReport
	seen := map[string]bool{}
	for _, name := range dedupeNames(c.opts.Packages) {
		rows := c.rowsOf(name)
		if len(rows) == 0 {
			early = append(early, notAnalyzed(name, "not a dependency of any workspace of this repository: uptide list shows them"))
			continue
		}
		for _, row := range rows {
			key := row.Name + "@" + row.Installed + "\x00" + strings.Join(row.Workspaces, ",")
			if seen[key] {
				continue
			}
			switch {
			case row.Status != model.RowOK:
				seen[key] = true
				r := notAnalyzed(row.Name, "the registry did not answer: "+row.Reason)
				r.Workspaces, r.Installed = row.Workspaces, row.Installed
				early = append(early, r)
				continue
			case row.Installed == "":
				seen[key] = true
				r := notAnalyzed(row.Name, "its installed version is unknown: "+row.Reason)
				r.Workspaces = row.Workspaces
				early = append(early, r)
				continue
			}
			u := c.unitFor(ctx, row)
			for _, m := range u.members {
				seen[m.row.Name+"@"+m.row.Installed+"\x00"+strings.Join(m.row.Workspaces, ",")] = true
			}
			units = append(units, u)
		}
	}
	return units, early
}

func dedupeNames(names []string) []string {
	var out []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n != "" {
			out = appendUnique(out, n)
		}
	}
	return out
}

// rowsOf are the list rows of a dependency, by the name the manifests use
// (or the registry package behind an alias).
func (c *checker) rowsOf(name string) []model.DependencyRow {
	var out []model.DependencyRow
	for _, r := range c.disc.Rows {
		if r.Name == name {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		for _, r := range c.disc.Rows {
			if r.Package == name {
				out = append(out, r)
			}
		}
	}
	return out
}

// unitFor builds the unit of one row: its release group when it has one
// that check moves together, every member at its target.
func (c *checker) unitFor(ctx context.Context, row model.DependencyRow) unit {
	lead := c.memberOf(ctx, row)
	u := unit{lead: lead, members: []member{lead}}
	g := c.groupOf(row)
	if g == nil {
		return u
	}
	if lead.target == lead.row.Target && lead.row.TargetWhy != "" && !c.explicitTarget(lead.row) {
		// Discovery held the group at the newest release every member
		// has (groups.Index.SharedTarget): say why.
		u.notes = append(u.notes, lead.row.TargetWhy)
	}
	moves, conflicts := c.followLead(ctx, *g, lead)
	var rest []member
	for i, name := range g.Members {
		if name == row.Package {
			continue
		}
		version := ""
		if i < len(g.Versions) {
			version = g.Versions[i]
		}
		r, ok := c.rowAt(name, version)
		if !ok || r.Status != model.RowOK || r.Installed == "" {
			continue
		}
		m := c.memberOf(ctx, r)
		if !c.explicitTarget(r) && lead.reason == "" {
			// Without --target of its own a member goes where the lead
			// takes it, not to its own latest: each at its latest may be a
			// combination no release agrees with (zod 4 under ai 4.0.0,
			// which peer-requires zod 3).
			if cf, ok := conflicts[name]; ok {
				u.notes = append(u.notes, fmt.Sprintf("%s %s stays: %s", name, r.Installed, cf.Why))
				continue
			}
			mv, ok := moves[name]
			if !ok || mv.To == mv.From {
				if ok {
					u.notes = append(u.notes, fmt.Sprintf("%s %s stays: %s", name, r.Installed, strings.TrimPrefix(mv.Why, "stays: ")))
				}
				continue
			}
			m.target = mv.To
		}
		rest = append(rest, m)
	}
	if len(rest) == 0 {
		return u
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].name() < rest[j].name() })
	u.members = append(u.members, rest...)
	u.group = g
	return u
}

// followLead plans where the group's other members go when the lead moves
// to its target (groups.Index.MemberTargets, as the planner does when a
// target is picked), by package name.
func (c *checker) followLead(ctx context.Context, g model.Group, lead member) (map[string]model.Companion, map[string]model.Conflict) {
	moves, conflicts := map[string]model.Companion{}, map[string]model.Conflict{}
	if lead.target == "" || len(lead.row.Workspaces) == 0 {
		return moves, conflicts
	}
	c.loadCompanionInputs(ctx)
	if c.packs[lead.row.Package] == nil {
		return moves, conflicts
	}
	dep := groups.Dep{Name: lead.row.Package, Installed: lead.row.Installed, Workspace: lead.row.Workspaces[0], Target: lead.target}
	ms, cfs := groups.NewIndex(c.packs).MemberTargets(g, dep, lead.target, c.deps)
	for _, m := range ms {
		moves[m.Name] = m
	}
	for _, cf := range cfs {
		conflicts[cf.Name] = cf
	}
	return moves, conflicts
}

// oneScope: a group whose packages are released together, which check
// takes with any member; the others only with --group.
func oneScope(k model.GroupKind) bool {
	return k == model.GroupFamily || k == model.GroupExplicit
}

// explicitTarget: the user named this member's version with --target.
func (c *checker) explicitTarget(row model.DependencyRow) bool {
	_, byName := c.opts.Targets[row.Name]
	_, byPackage := c.opts.Targets[row.Package]
	return byName || byPackage
}

// groupOf is the release group check moves row with: a one-scope group
// always, a cross-scope one with --group.
func (c *checker) groupOf(row model.DependencyRow) *model.Group {
	if row.Group == "" {
		return nil
	}
	for i := range c.disc.Groups {
		g := c.disc.Groups[i]
		if g.Title != row.Group {
			continue
		}
		if oneScope(g.Kind) || c.opts.Group {
			return &g
		}
	}
	return nil
}

func (c *checker) rowAt(pkg, installed string) (model.DependencyRow, bool) {
	for _, r := range c.disc.Rows {
		if r.Package == pkg && (installed == "" || r.Installed == installed) {
			return r, true
		}
	}
	return model.DependencyRow{}, false
}

// memberOf resolves the target of one row: --target, else the row's.
func (c *checker) memberOf(ctx context.Context, row model.DependencyRow) member {
	m := member{row: row, target: row.Target}
	want, ok := c.opts.Targets[row.Name]
	if !ok {
		want, ok = c.opts.Targets[row.Package]
	}
	if !ok || want == "" {
		return m
	}
	p, err := c.client.Packument(ctx, row.Package, false)
	if err != nil {
		m.reason = fmt.Sprintf("--target %s@%s: %v", row.Name, want, err)
		return m
	}
	if m.target, err = discover.ResolveTarget(p, row.Name, want); err != nil {
		m.target, m.reason = row.Target, err.Error()
	}
	return m
}

func notAnalyzed(name, reason string) model.PackageReport {
	r := emptyReport(name)
	r.Status, r.Reason = model.StatusNotAnalyzed, reason
	r.Summary = "not analyzed: " + reason
	return r
}

// emptyReport has every list present, so absence is never read as clean.
func emptyReport(name string) model.PackageReport {
	return model.PackageReport{
		Title:        name,
		Package:      name,
		Workspaces:   []string{},
		Members:      []model.MemberReport{},
		Findings:     []model.Finding{},
		Unanalyzed:   []model.Unanalyzed{},
		Compile:      model.CompileReport{Status: model.StatusNotAnalyzed, Reason: "the package was not analyzed", Skipped: []model.SkippedFile{}, PreExistingErrors: []model.Diagnostic{}},
		ModuleFormat: model.ModuleFormatReport{Status: model.StatusNotAnalyzed, Reason: "the package was not analyzed"},
		Companions:   model.CompanionPlan{Name: name, Companions: []model.Companion{}, Conflicts: []model.Conflict{}},
		Plan:         model.Plan{Package: name, Rules: []model.PlanRule{}, Unverified: []model.PlanRule{}, Deprecations: []model.PlanRule{}, Noted: []model.PlanRule{}, Next: []string{}},
		Notes:        []string{},
		Warnings:     []string{},
	}
}

// loadCompanionInputs reads, once per run, what companion plans and group
// moves are planned over; a package the registry does not answer for is
// left out of the plans, as Discover leaves it.
func (c *checker) loadCompanionInputs(ctx context.Context) {
	c.lazyMu.Lock()
	defer c.lazyMu.Unlock()
	if c.packs == nil {
		c.packs, c.deps, _ = discover.PlannedDeps(ctx, c.client, c.disc.Rows)
	}
}

// unusedTargets names the --target flags no checked package took, so a
// typo is said rather than silently ignored.
func unusedTargets(targets map[string]string, units []unit) []string {
	used := map[string]bool{}
	for _, u := range units {
		for _, m := range u.members {
			used[m.row.Name], used[m.row.Package] = true, true
		}
	}
	notes := []string{}
	for _, name := range lists.SortedKeys(targets) {
		if !used[name] {
			notes = append(notes, fmt.Sprintf("--target %s@%s was not used: %s is not among the packages checked", name, targets[name], name))
		}
	}
	return notes
}

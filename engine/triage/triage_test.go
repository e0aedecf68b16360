package triage

import (
	"encoding/json"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
)

var now = time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)

func row(name, installed, target, update string) model.DependencyRow {
	var kind model.UpdateKind
	_ = kind.UnmarshalText([]byte(update)) // "": up to date
	return model.DependencyRow{Name: name, Package: name, Workspaces: []string{"."}, Installed: installed, Target: target, Latest: target,
		Update: kind, Status: "ok"}
}

// packument builds a registry document: versions with their peers, and
// publish times one day apart unless given.
func packument(name string, versions map[string]map[string]string, times map[string]string) *model.Packument {
	p := &model.Packument{Name: name, Versions: map[string]model.Release{}, Time: times}
	for v, peers := range versions {
		p.Versions[v] = model.Release{Name: name, Version: v, PeerDependencies: peers}
	}
	return p
}

func ids(p model.UpgradePlan) []string {
	var out []string
	for _, s := range p.Steps {
		out = append(out, s.ID)
	}
	return out
}

func stepOf(t *testing.T, p model.UpgradePlan, id string) model.PlanStep {
	t.Helper()
	for _, s := range p.Steps {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no step %s in %v", id, ids(p))
	return model.PlanStep{}
}

// A target whose declarations need a newer TypeScript puts typescript
// first, and says why; a peer range the installed copy does not satisfy
// puts the peer's upgrade first, which then blocks it.
func TestOrderUnderConstraints(t *testing.T) {
	zodCheck := &model.PackageReport{Package: "zod", Installed: "3.22.4", Target: "4.1.12", Status: model.StatusAnalyzed, Verdict: "breaking",
		Findings: []model.Finding{{ID: "c1", Change: "newer-typescript", Replacement: "typescript@>=5.0", File: "package.json"}}}
	in := Input{
		Rows: []model.DependencyRow{row("zod", "3.22.4", "4.1.12", "major"), row("typescript", "4.9.5", "5.8.3", "major"),
			row("react", "18.3.1", "19.1.0", "major"), row("react-dom", "18.3.1", "19.1.0", "major")},
		Releases: map[string]*model.Packument{
			"react-dom": packument("react-dom", map[string]map[string]string{"18.3.1": {"react": "^18.3.1"}, "19.1.0": {"react": "^19.1.0"}}, nil),
		},
		Checks: map[string]*model.PackageReport{"zod": zodCheck},
		Now:    now,
	}
	p := Plan(in)
	got := strings.Join(ids(p), " ")
	if got != "react typescript react-dom zod" {
		t.Fatalf("order %q, want react and typescript (each blocking a step) before react-dom and zod", got)
	}
	z := stepOf(t, p, "zod")
	if len(z.After) != 1 || z.After[0].Step != "typescript" || !strings.Contains(z.After[0].Why, "need TypeScript ≥ 5.0") {
		t.Errorf("zod after %+v", z.After)
	}
	rd := stepOf(t, p, "react-dom")
	if len(rd.After) != 1 || rd.After[0].Step != "react" || rd.After[0].Why != "react-dom 19.1.0 peer-requires react ^19.1.0" {
		t.Errorf("react-dom after %+v", rd.After)
	}
	if r := stepOf(t, p, "react"); !hasKind(r, model.PriorityBlocking) {
		t.Errorf("react blocks react-dom but has priorities %+v", r.Priorities)
	}
	if len(p.Cycles) != 0 || strings.Join(p.Unchecked, " ") != "react typescript react-dom" {
		t.Errorf("cycles %v unchecked %v", p.Cycles, p.Unchecked)
	}
}

func hasKind(s model.PlanStep, k model.PriorityKind) bool {
	for _, p := range s.Priorities {
		if p.Kind == k {
			return true
		}
	}
	return false
}

// Two upgrades that each need the other first are a cycle: reported, both
// steps blocked, nothing guessed; a step after them cannot move either.
func TestCycleIsReportedNotGuessed(t *testing.T) {
	in := Input{
		Rows: []model.DependencyRow{row("a", "1.0.0", "2.0.0", "major"), row("b", "1.0.0", "2.0.0", "major"),
			row("c", "1.0.0", "2.0.0", "major"), row("d", "1.0.0", "1.1.0", "minor")},
		Releases: map[string]*model.Packument{
			"a": packument("a", map[string]map[string]string{"2.0.0": {"b": "^2.0.0"}}, nil),
			"b": packument("b", map[string]map[string]string{"2.0.0": {"a": "^2.0.0"}}, nil),
			"c": packument("c", map[string]map[string]string{"2.0.0": {"a": "^2.0.0"}}, nil),
		},
	}
	p := Plan(in)
	if !reflect.DeepEqual(p.Cycles, [][]string{{"a", "b"}}) {
		t.Fatalf("cycles %v, want [[a b]]", p.Cycles)
	}
	if got := strings.Join(ids(p), " "); got != "d a b c" {
		t.Errorf("order %q: the free step first, then the blocked ones by name", got)
	}
	if s := stepOf(t, p, "a"); s.Blocked != "cycle: a → b → a" {
		t.Errorf("a blocked %q", s.Blocked)
	}
	if s := stepOf(t, p, "c"); s.Blocked != "after a, which cannot move" {
		t.Errorf("c blocked %q", s.Blocked)
	}
	if s := stepOf(t, p, "d"); s.Blocked != "" {
		t.Errorf("d blocked %q", s.Blocked)
	}
}

// A peer range no planned version satisfies blocks the step with its
// reason instead of ordering it.
func TestPeerNothingSatisfiesBlocks(t *testing.T) {
	in := Input{
		Rows: []model.DependencyRow{row("plugin", "1.0.0", "2.0.0", "major"), row("host", "1.0.0", "2.0.0", "major")},
		Releases: map[string]*model.Packument{
			"plugin": packument("plugin", map[string]map[string]string{"2.0.0": {"host": "^3.0.0"}}, nil),
		},
	}
	s := stepOf(t, Plan(in), "plugin")
	if s.Blocked != "plugin 2.0.0 peer-requires host ^3.0.0, which neither 1.0.0 nor the planned 2.0.0 satisfies" {
		t.Errorf("blocked %q", s.Blocked)
	}
}

// Priorities: an advisory covering the installed version (with the
// smallest release that fixes it), a deprecated installed version, a major
// line without a release for 12 months while a newer major exists, majors
// behind. The most urgent step comes first.
func TestPriorities(t *testing.T) {
	dep := row("request", "2.88.2", "2.88.2", "")
	dep.Target, dep.Update = "3.0.0", model.Major(1)
	dep.Deprecated = "request has been deprecated"
	in := Input{
		Rows: []model.DependencyRow{row("aaa", "1.0.0", "4.0.0", "major ×3"), row("lodash", "4.17.20", "4.17.21", "patch"), dep,
			row("old", "1.5.0", "2.0.0", "major")},
		Releases: map[string]*model.Packument{
			"lodash": packument("lodash", map[string]map[string]string{"4.17.19": nil, "4.17.20": nil, "4.17.21": nil, "4.17.22-beta.1": nil}, nil),
			"old": packument("old", map[string]map[string]string{"1.5.0": nil, "2.0.0": nil},
				map[string]string{"1.5.0": "2024-01-10T00:00:00Z", "2.0.0": "2025-06-01T00:00:00Z"}),
		},
		Advisories: map[string][]model.Advisory{"lodash": {
			{ID: 2, Title: "ReDoS in lodash", Severity: "moderate", VulnerableVersions: ">=4.0.0 <4.17.21"},
			{ID: 1, Title: "Command Injection in lodash", Severity: "high", VulnerableVersions: "<4.17.21", URL: "https://example.invalid/1"},
			{ID: 3, Title: "fixed long ago", Severity: "critical", VulnerableVersions: "<4.0.0"},
		}},
		AdvisoryStatus: model.AdvisoryStatus{Asked: true},
		Now:            now,
	}
	p := Plan(in)
	if got := strings.Join(ids(p), " "); got != "lodash request old aaa" {
		t.Fatalf("order %q: advisory, deprecated, unsupported, then majors behind", got)
	}
	l := stepOf(t, p, "lodash")
	if len(l.Priorities) != 2 || l.Priorities[0].Severity != "high" || l.Priorities[0].FixedIn != "4.17.21" ||
		l.Priorities[0].Reason != "Command Injection in lodash (high) covers 4.17.20; fixed in 4.17.21" || l.Priorities[1].Severity != "moderate" {
		t.Errorf("lodash priorities %+v", l.Priorities)
	}
	if r := stepOf(t, p, "request"); !hasKind(r, model.PriorityDeprecated) {
		t.Errorf("request priorities %+v", r.Priorities)
	}
	o := stepOf(t, p, "old")
	if !hasKind(o, model.PriorityUnsupported) || !strings.Contains(o.Priorities[0].Reason, "old 1.5.0: no 1.x release for over 12 months (the last on 2024-01-10) while 2.x exists") {
		t.Errorf("old priorities %+v", o.Priorities)
	}
	a := stepOf(t, p, "aaa")
	if len(a.Priorities) != 1 || a.Priorities[0].Count != 3 || a.Priorities[0].Reason != "3 majors behind (aaa 1.0.0 → 4.0.0)" {
		t.Errorf("aaa priorities %+v", a.Priorities)
	}
}

// The upgrades checked ✓ no impact and free to move are one step; effort
// is summed from the checks; a release group and a package with its
// companions are one step each.
func TestCheapBatchGroupsAndEffort(t *testing.T) {
	safe := func(name string) *model.PackageReport {
		return &model.PackageReport{Package: name, Status: model.StatusAnalyzed, Verdict: "safe"}
	}
	reactCheck := &model.PackageReport{Package: "react", Status: model.StatusAnalyzed, Verdict: "breaking",
		Members:    []model.MemberReport{{Name: "react"}, {Name: "react-dom"}},
		Companions: model.CompanionPlan{Companions: []model.Companion{{Name: "@types/react", From: "18.3.12", To: "19.1.2", Why: "types of react"}}},
		Findings:   []model.Finding{{ID: "f1", File: "src/a.tsx"}, {ID: "f2", File: "src/a.tsx"}, {ID: "f3", File: "src/b.tsx"}, {ID: "f4", File: "src/c.tsx"}},
		Plan: model.Plan{Rules: []model.PlanRule{{ID: "r", Findings: []string{"f1", "f2", "f3"}}},
			Totals: model.PlanTotals{Sites: 3, ByRule: 1, ByAgent: 1, Manual: 1}}}
	react, reactDom := row("react", "18.3.1", "19.1.0", "major"), row("react-dom", "18.3.1", "19.1.0", "major")
	react.Group, reactDom.Group = "react (2 packages)", "react (2 packages)"
	in := Input{
		Rows: []model.DependencyRow{react, reactDom, row("@types/react", "18.3.12", "19.1.2", "major"),
			row("left-pad", "1.1.0", "1.3.0", "minor"), row("zod", "3.22.4", "3.25.76", "minor"), row("ms", "2.0.0", "2.1.3", "minor")},
		// react-dom's own check judged it alone; react's moved it along.
		Checks: map[string]*model.PackageReport{"react": reactCheck, "left-pad": safe("left-pad"), "zod": safe("zod"),
			"react-dom": {Package: "react-dom", Status: model.StatusNotAnalyzed, Reason: "alone", Plan: model.Plan{Totals: model.PlanTotals{Sites: 9}}}},
	}
	p := Plan(in)
	if got := strings.Join(ids(p), " "); got != "react "+BatchID+" ms" {
		t.Fatalf("steps %q", got)
	}
	r := stepOf(t, p, "react")
	var moved []string
	for _, m := range r.Moves {
		moved = append(moved, m.Name)
	}
	if strings.Join(moved, " ") != "@types/react react react-dom" || !r.Checked || r.Verdict != "breaking" {
		t.Errorf("react step moves %v checked %v verdict %s", moved, r.Checked, r.Verdict)
	}
	if r.Effort != (model.Effort{Sites: 3, ByRule: 1, ByAgent: 1, Manual: 1, Files: 2}) {
		t.Errorf("effort %+v", r.Effort)
	}
	b := stepOf(t, p, BatchID)
	if !b.Batch || len(b.Moves) != 2 || b.Moves[0].Name != "left-pad" || b.Moves[1].Name != "zod" {
		t.Errorf("batch %+v", b)
	}
	if strings.Join(p.Unchecked, " ") != "ms" || p.Totals.Sites != 3 {
		t.Errorf("unchecked %v totals %+v", p.Unchecked, p.Totals)
	}
	// plan zod: only what is named (and what moves with it).
	in.Only = []string{"react-dom"}
	if got := strings.Join(ids(Plan(in)), " "); got != "react" {
		t.Errorf("plan react-dom: %q, want the react step it belongs to", got)
	}
}

// The same inputs give the same bytes, whatever order the rows come in.
func TestDeterministic(t *testing.T) {
	var rows []model.DependencyRow
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		rows = append(rows, row(n, "1.0.0", "2.0.0", "major"))
	}
	in := Input{Rows: rows, Releases: map[string]*model.Packument{
		"b": packument("b", map[string]map[string]string{"2.0.0": {"a": "^2.0.0"}}, nil),
		"c": packument("c", map[string]map[string]string{"2.0.0": {"d": "^2.0.0"}}, nil),
	}}
	want, _ := json.Marshal(Plan(in))
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20; i++ {
		rng.Shuffle(len(in.Rows), func(a, b int) { in.Rows[a], in.Rows[b] = in.Rows[b], in.Rows[a] })
		got, _ := json.Marshal(Plan(in))
		if string(got) != string(want) {
			t.Fatalf("run %d differs:\n%s\n%s", i, got, want)
		}
	}
}

// Planned are the registry documents a plan reads: the packages its steps
// move. With Only, an outdated dependency no step moves is not one of
// them, and leaving its document out changes nothing in the plan; a
// companion check moves along, and an alias's package, are.
func TestPlannedAreTheDocumentsThePlanReads(t *testing.T) {
	alias := row("legacy-ui", "1.0.0", "2.0.0", "major")
	alias.Package = "ui-kit"
	check := &model.PackageReport{Package: "react", Installed: "18.3.1", Target: "19.1.0", Status: model.StatusAnalyzed,
		Companions: model.CompanionPlan{Companions: []model.Companion{{Name: "react-dom", From: "18.3.1", To: "19.1.0", Why: "peer range"}}}}
	releases := map[string]*model.Packument{
		"react-dom": packument("react-dom", map[string]map[string]string{"19.1.0": {"react": "^19.1.0"}}, nil),
		"react":     packument("react", map[string]map[string]string{"19.1.0": nil}, map[string]string{"18.3.1": "2024-04-26T00:00:00Z", "19.1.0": "2025-03-28T00:00:00Z"}),
		"zod":       packument("zod", map[string]map[string]string{"4.1.12": nil}, map[string]string{"3.22.4": "2023-01-01T00:00:00Z", "4.1.12": "2025-10-01T00:00:00Z"}),
		"ui-kit":    packument("ui-kit", map[string]map[string]string{"2.0.0": nil}, nil),
	}
	in := Input{
		Rows: []model.DependencyRow{row("react", "18.3.1", "19.1.0", "major"), row("react-dom", "18.3.1", "19.1.0", "major"),
			row("zod", "3.22.4", "4.1.12", "major"), row("chalk", "5.3.0", "5.3.0", ""), alias},
		Checks: map[string]*model.PackageReport{"react": check}, Now: now,
	}
	for _, tc := range []struct {
		only []string
		want string
	}{
		{nil, "react react-dom ui-kit zod"},
		{[]string{"react"}, "react react-dom"},
		{[]string{"legacy-ui"}, "ui-kit"},
	} {
		in.Only = tc.only
		got := Planned(in)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("only %v: planned %v, want %s", tc.only, got, tc.want)
			continue
		}
		in.Releases = releases
		all := Plan(in)
		in.Releases = map[string]*model.Packument{}
		for _, n := range got {
			in.Releases[n] = releases[n]
		}
		if alias.Package != alias.Name && in.Releases["ui-kit"] != nil {
			in.Releases[alias.Name] = in.Releases["ui-kit"]
		}
		if some := Plan(in); !reflect.DeepEqual(all, some) {
			t.Errorf("only %v: the plan from the planned documents differs from the plan from all:\n%+v\n%+v", tc.only, some, all)
		}
	}
}

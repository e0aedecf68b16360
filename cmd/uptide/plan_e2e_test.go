package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// planApp is fixtures/check/plan-app installed by npm and committed: plan
// keeps check results per state of a git checkout.
func planApp(t *testing.T, e env) string {
	t.Helper()
	dir := copyFixture(t, "plan-app")
	npmInstall(t, e, dir)
	commitAll(t, dir)
	return dir
}

func decodePlan(t *testing.T, r result) model.UpgradePlan {
	t.Helper()
	var rep model.UpgradePlanReport
	env := decode(t, r, &rep)
	if env.Command != "plan" || r.code != 0 {
		t.Fatalf("plan exited %d (%s)\n%s\n%s", r.code, env.Command, r.stdout, r.stderr)
	}
	return rep.Plan
}

func stepIDs(p model.UpgradePlan) string {
	var ids []string
	for _, s := range p.Steps {
		ids = append(ids, s.ID+":"+string(s.Verdict))
	}
	return strings.Join(ids, " ")
}

// plan orders the upgrades with their priorities: lodash's advisory first
// (with the release that fixes it), zod's unsupported major line; without
// checks every step is unchecked and says so; `check` here keeps its
// results for plan, and plan --check checks what is left. The checked
// upgrades with no impact become one batch.
func TestPlanEndToEnd(t *testing.T) {
	e := checkEnv(t)
	dir := planApp(t, e)

	p := decodePlan(t, run(t, e, dir, "plan", "--json"))
	if got := stepIDs(p); got != "lodash:unchecked zod:unchecked chalk:unchecked postcss:unchecked" {
		t.Fatalf("steps %s", got)
	}
	lodash := p.Steps[0]
	if len(lodash.Priorities) != 2 || lodash.Priorities[0].Kind != model.PriorityAdvisory || lodash.Priorities[0].Severity != "high" ||
		lodash.Priorities[0].FixedIn != "4.17.21" || !p.Advisories.Asked {
		t.Errorf("lodash priorities %+v (advisories %+v)", lodash.Priorities, p.Advisories)
	}
	if zod := p.Steps[1]; len(zod.Priorities) != 2 || zod.Priorities[0].Kind != model.PriorityUnsupported {
		t.Errorf("zod priorities %+v", zod.Priorities)
	}
	text := run(t, e, dir, "plan")
	if !strings.Contains(text.stdout, "Unchecked  lodash, zod, chalk, postcss: uptide plan --check checks them") {
		t.Errorf("the text plan does not say what is unchecked:\n%s", text.stdout)
	}

	// A check made here is what plan reads next.
	if r := run(t, e, dir, "check", "zod", "--json"); r.code != 1 {
		t.Fatalf("check zod exited %d\n%s", r.code, r.stderr)
	}
	p = decodePlan(t, run(t, e, dir, "plan", "--json"))
	zod := p.Steps[1]
	if zod.ID != "zod" || zod.Verdict != "breaking" || zod.Effort.Sites != 1 || zod.Effort.Files != 1 {
		t.Errorf("zod after its check: %+v", zod)
	}
	first := run(t, e, dir, "plan", "--check", "--json")
	p = decodePlan(t, first)
	if got := stepIDs(p); got != "lodash:unknown zod:breaking cheap-batch:safe" || len(p.Unchecked) != 0 {
		t.Errorf("after plan --check: %s, unchecked %v", got, p.Unchecked)
	}
	if again := run(t, e, dir, "plan", "--json"); again.stdout != first.stdout {
		t.Errorf("the same checks gave another plan:\n%s\n---\n%s", first.stdout, again.stdout)
	}
	if r := run(t, e, dir, "plan", "--no-advisories", "--json"); strings.Contains(r.stdout, `"kind": "advisory"`) ||
		!strings.Contains(r.stdout, `"reason": "--no-advisories"`) {
		t.Errorf("--no-advisories still lists advisories:\n%s", r.stdout)
	}
}

// A CI matrix: two jobs check parts of the repository in parallel, each on
// its own machine (checkout, cache); a final job merges their envelopes
// into the plan one machine computes from the same checks, byte for byte.
// Envelopes of another repository or schema are refused.
func TestPlanMergesResultsFromManyJobs(t *testing.T) {
	reg := startRegistry(t)
	job := func() env {
		e := newEnv(t, reg)
		if err := os.Symlink(sharedCompilers(t), filepath.Join(e.cache, "compilers")); err != nil {
			t.Fatal(err)
		}
		return e
	}
	jobs := [][]string{{"zod"}, {"chalk", "postcss"}}
	files := make([]string, len(jobs))
	var wg sync.WaitGroup
	for i, pkgs := range jobs {
		e := job()
		dir := planApp(t, e)
		files[i] = filepath.Join(t.TempDir(), "check.json")
		wg.Add(1)
		go func(i int, pkgs []string) {
			defer wg.Done()
			r := run(t, e, dir, append(append([]string{"check"}, pkgs...), "--json")...)
			if err := os.WriteFile(files[i], []byte(r.stdout), 0o644); err != nil {
				t.Error(err)
			}
		}(i, pkgs)
	}
	wg.Wait()

	// The final job: a fresh machine with the envelopes only.
	final := job()
	dir := planApp(t, final)
	merged := run(t, final, dir, "plan", "--results", files[0], "--results", files[1], "--json")
	p := decodePlan(t, merged)
	if got := stepIDs(p); got != "lodash:unchecked zod:breaking cheap-batch:safe" {
		t.Fatalf("merged plan %s", got)
	}
	// One machine making the same checks computes the same bytes.
	one := job()
	oneDir := planApp(t, one)
	run(t, one, oneDir, "check", "zod", "--json")
	run(t, one, oneDir, "check", "chalk", "postcss", "--json")
	single := run(t, one, oneDir, "plan", "--json")
	if strings.ReplaceAll(single.stdout, oneDir, "$REPO") != strings.ReplaceAll(merged.stdout, dir, "$REPO") {
		t.Errorf("the merged plan differs from one machine's:\n%s\n---\n%s", merged.stdout, single.stdout)
	}

	// Refused: another schema, another repository, not a check.
	bad := func(name, body string) string {
		f := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	var env map[string]any
	data, _ := os.ReadFile(files[0])
	if err := json.Unmarshal(data, &env); err != nil {
		t.Fatal(err)
	}
	env["schemaVersion"] = 99
	v99, _ := json.Marshal(env)
	env["schemaVersion"] = 1
	env["data"].(map[string]any)["repository"].(map[string]any)["name"] = "someone-else"
	other, _ := json.Marshal(env)
	for _, c := range []struct{ file, want string }{
		{bad("v99.json", string(v99)), "schema version 99"},
		{bad("other.json", string(other)), "checks of someone-else, this repository is plan-app"},
		{bad("list.json", `{"schemaVersion":1,"command":"list","data":{}}`), `the envelope of "list", not of check`},
	} {
		r := run(t, final, dir, "plan", "--results", c.file)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, c.file) {
			t.Errorf("plan --results %s: exit %d, stderr %q; want 2 and %q naming the file", filepath.Base(c.file), r.code, r.stderr, c.want)
		}
	}
}

// plan --ceiling bisects the releases above the installed one: latest
// first, then halving; the checks are kept, so asking again checks
// nothing (the compiler is gone and the answer is the same).
func TestPlanCeiling(t *testing.T) {
	e := checkEnv(t)
	dir := planApp(t, e)
	ceilingOf := func(pkg string) (*model.Ceiling, result) {
		r := run(t, e, dir, "plan", "--ceiling", pkg, "--json")
		var rep model.UpgradePlanReport
		decode(t, r, &rep)
		if rep.Ceiling == nil {
			t.Fatalf("plan --ceiling %s: no ceiling\n%s\n%s", pkg, r.stdout, r.stderr)
		}
		return rep.Ceiling, r
	}
	c, first := ceilingOf("zod")
	var asked []string
	for _, s := range c.Steps {
		asked = append(asked, s.Version+":"+string(s.Verdict))
	}
	if c.Version != "3.25.76" || c.Latest != "4.1.12" || strings.Join(asked, " ") != "4.1.12:breaking 4.0.17:breaking 4.0.0:breaking" {
		t.Fatalf("zod ceiling %s (latest %s) after %v", c.Version, c.Latest, asked)
	}
	if c, _ := ceilingOf("chalk"); c.Version != "5.4.1" || len(c.Steps) != 1 || c.Steps[0].Verdict != "safe" {
		t.Errorf("chalk ceiling %+v", c)
	}
	if err := os.Remove(filepath.Join(e.cache, "compilers")); err != nil {
		t.Fatal(err)
	}
	if _, again := ceilingOf("zod"); again.stdout != first.stdout {
		t.Errorf("asking again checked again:\n%s\n---\n%s", first.stdout, again.stdout)
	}
	text := run(t, e, dir, "plan", "--ceiling", "zod")
	if !strings.Contains(text.stdout, "zod 3.25.76: ceiling 3.25.76 — the first release above it already has impact (latest 4.1.12)") {
		t.Errorf("text:\n%s", text.stdout)
	}
	if r := run(t, e, dir, "plan", "--ceiling", "left-pad"); r.code != 2 || !strings.Contains(r.stderr, "not a dependency of this repository") {
		t.Errorf("a package not here: exit %d %s", r.code, r.stderr)
	}
}

// A check of an npm: alias is kept under the name the manifest declares,
// and plan reads it back by that name (not by the registry package).
func TestPlanReadsTheKeptCheckOfAnAlias(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "plan-app")
	manifest := filepath.Join(dir, "package.json")
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	aliased := strings.Replace(string(data), `"lodash": "4.17.20"`, `"old-lodash": "npm:lodash@4.17.20"`, 1)
	if aliased == string(data) {
		t.Fatal("plan-app no longer declares lodash 4.17.20")
	}
	if err := os.WriteFile(manifest, []byte(aliased), 0o644); err != nil {
		t.Fatal(err)
	}
	npmInstall(t, e, dir)
	commitAll(t, dir)

	// lodash has no declarations: the check says it could not analyze it
	// (exit 2), and plan still keeps what it said.
	if r := run(t, e, dir, "check", "old-lodash", "--json"); r.code != 2 || !strings.Contains(r.stdout, `"package": "old-lodash"`) {
		t.Fatalf("check old-lodash exited %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	p := decodePlan(t, run(t, e, dir, "plan", "old-lodash", "--json"))
	if len(p.Steps) != 1 || p.Steps[0].ID != "old-lodash" || p.Steps[0].Verdict == model.VerdictUnchecked || len(p.Unchecked) != 0 {
		t.Fatalf("plan does not read the alias's kept check: %s, unchecked %v", stepIDs(p), p.Unchecked)
	}
}

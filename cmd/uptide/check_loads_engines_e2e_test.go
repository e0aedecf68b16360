package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// TestCheckComputedLoadsAndEngines: a computed import() of the repository's
// own files leaves every check complete and is listed once; one whose
// prefix can name the package keeps that package's check partial; a target
// whose engines.node excludes the repository's Node (.nvmrc 20) is breaking,
// and is not once the repository runs 22.12.
func TestCheckComputedLoadsAndEngines(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "loads-engines")
	npmInstall(t, e, dir)

	t.Run("engines.node excludes Node 20", func(t *testing.T) {
		r := run(t, e, dir, "check", "jotai", "--json")
		if r.code != 1 {
			t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
		}
		var rep model.CheckReport
		decode(t, r, &rep)
		p := packageReport(t, rep, "jotai")
		if p.Status != model.StatusAnalyzed || len(p.Unanalyzed) != 0 {
			t.Errorf("status %q (%s), unanalyzed %+v: want analyzed, the computed loads here cannot load jotai", p.Status, p.Reason, p.Unanalyzed)
		}
		var engines []model.Finding
		for _, f := range p.Findings {
			if f.Change == "engines-node" {
				engines = append(engines, f)
			}
		}
		if len(engines) != 1 {
			t.Fatalf("findings %+v: want one engines-node finding", p.Findings)
		}
		f := engines[0]
		if f.Severity != model.Breaking || f.Fixability != model.Manual || f.File != "package.json" ||
			!strings.Contains(f.Reason, ">=22.12.0") || !strings.Contains(f.Reason, "Node 20 (.nvmrc)") {
			t.Errorf("engines finding %+v", f)
		}
		if p.Counts.Breaking != 1 || p.Verdict != "breaking" {
			t.Errorf("counts %+v, verdict %q", p.Counts, p.Verdict)
		}
		for _, cmd := range p.Plan.Next {
			if strings.HasPrefix(cmd, "uptide fix") {
				t.Errorf("next %v offers fix, which cannot move the repository's Node", p.Plan.Next)
			}
		}
		files := []string{}
		for _, l := range rep.ComputedLoads {
			files = append(files, l.File)
		}
		if !slices.Equal(files, []string{"src/i18n.ts", "src/num.ts"}) {
			t.Errorf("computedLoads %+v: want src/i18n.ts and src/num.ts, once each", rep.ComputedLoads)
		}
	})

	t.Run("a prefix naming the package keeps it partial", func(t *testing.T) {
		r := run(t, e, dir, "check", "is-number", "jotai", "--json")
		var rep model.CheckReport
		decode(t, r, &rep)
		p := packageReport(t, rep, "is-number")
		if p.Status != model.StatusPartial || len(p.Unanalyzed) != 1 || p.Unanalyzed[0].File != "src/num.ts" ||
			!strings.Contains(p.Unanalyzed[0].Reason, `"is-number/"`) {
			t.Errorf("is-number: status %q (%s), unanalyzed %+v", p.Status, p.Reason, p.Unanalyzed)
		}
		if j := packageReport(t, rep, "jotai"); len(j.Unanalyzed) != 0 {
			t.Errorf("jotai unanalyzed %+v", j.Unanalyzed)
		}
		if len(rep.ComputedLoads) != 1 || rep.ComputedLoads[0].File != "src/i18n.ts" ||
			rep.ComputedLoads[0].Specifier != "`./locales/${lang}.json`" {
			t.Errorf("computedLoads %+v: want only src/i18n.ts (src/num.ts counts against is-number)", rep.ComputedLoads)
		}
	})

	t.Run("human report", func(t *testing.T) {
		r := run(t, e, dir, "check", "jotai")
		for _, want := range []string{
			"needs a newer Node: the target's engines.node excludes the repository's",
			"2 computed loads cannot load a checked package, not counted: src/i18n.ts:3 import(`./locales/${lang}.json`), src/num.ts:6 import(`is-number/${sub}`)",
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, r.stdout)
			}
		}
		if strings.Contains(r.stdout, "uptide fix") {
			t.Errorf("output names uptide fix, which does not exist:\n%s", r.stdout)
		}
	})

	t.Run("Node 22.12 admits the target", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(dir, ".nvmrc"), []byte("22.12\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := run(t, e, dir, "check", "jotai", "--json")
		if r.code != 0 {
			t.Fatalf("exit %d, want 0\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
		}
		var rep model.CheckReport
		decode(t, r, &rep)
		for _, f := range packageReport(t, rep, "jotai").Findings {
			if f.Change == "engines-node" {
				t.Errorf("engines finding on Node 22.12: %+v", f)
			}
		}
	})
}

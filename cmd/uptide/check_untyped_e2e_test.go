package main

import (
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// TestCheckUntypedPackageIsJudgedByTheProbe: a CommonJS app requiring a
// package that ships no declarations on either side and no @types package
// (faker 5 → 6.6.6 in hagopj13/node-express-boilerplate). Before, check
// stopped at "not analyzed" and never loaded anything. The sites are read
// from the syntax (the load, the members read from it) and the runtime
// probe judges each: barekit 2.0.0 drops email, so index.js:4 is breaking
// with the probe's evidence, while name() (line 3) loads the same; 3.0.0
// ships no code, so require() throws at index.js:1; 1.1.0 keeps the
// shape, so ✓, with the coverage line saying the verdict rests on the
// probe; without the probe nothing decides and nothing is ✓.
func TestCheckUntypedPackageIsJudgedByTheProbe(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "js-untyped-app")
	npmInstall(t, e, dir)
	const basis = "barekit ships no declarations"

	r := run(t, e, dir, "check", "barekit", "--target", "barekit@2.0.0", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	p := packageReport(t, rep, "barekit")
	if r.code != 1 || p.Verdict != model.VerdictBreaking || p.Counts.Breaking != 1 || len(p.Findings) != 1 {
		t.Fatalf("exit %d, verdict %q, counts %+v, %d findings: want 1, breaking, the one site reading email\n%s", r.code, p.Verdict, p.Counts, len(p.Findings), r.stdout)
	}
	f := p.Findings[0]
	if f.File != "index.js" || f.Line != 4 || f.Severity != model.Breaking || len(f.Runtime) == 0 || f.Runtime[0].Kind != model.RuntimeKeyRemoved || f.Runtime[0].Key != "email" {
		t.Errorf("finding %+v: want index.js:4 breaking with the probe's key-removed email", f)
	}
	if !strings.Contains(p.Compile.Line, basis) || !strings.Contains(p.Compile.Line, "runtime probe") {
		t.Errorf("coverage line %q: want it to say no declarations exist and the probe decides", p.Compile.Line)
	}
	if len(p.Runtime) != 1 || p.Runtime[0].Status != model.RuntimeCompared {
		t.Errorf("runtime %+v: want barekit's probe, compared", p.Runtime)
	}
	h := run(t, e, dir, "check", "barekit", "--target", "barekit@2.0.0", "--details")
	for _, want := range []string{"index.js:4", "require() of 2.0.0 has no email", basis} {
		if !strings.Contains(h.stdout, want) {
			t.Errorf("--details does not say %q:\n%s", want, h.stdout)
		}
	}

	// 3.0.0 ships no code (faker 6.6.6): its main is missing, so require()
	// throws MODULE_NOT_FOUND, in the probe as after the real upgrade. That
	// is a change the probe saw, at the load; the members it gives never run.
	x := run(t, e, dir, "check", "barekit", "--target", "barekit@3.0.0", "--json")
	var empty model.CheckReport
	decode(t, x, &empty)
	g := packageReport(t, empty, "barekit")
	if x.code != 1 || g.Verdict != model.VerdictBreaking || len(g.Findings) != 1 {
		t.Fatalf("no code: exit %d, verdict %q, findings %+v: want 1, breaking, the load\n%s", x.code, g.Verdict, g.Findings, x.stdout)
	}
	if l := g.Findings[0]; l.Line != 1 || len(l.Runtime) == 0 || l.Runtime[0].Kind != model.RuntimeRequireThrows || l.Runtime[0].Code != "MODULE_NOT_FOUND" {
		t.Errorf("no code: finding %+v: want index.js:1 with the probe's require-throws MODULE_NOT_FOUND", l)
	}

	s := run(t, e, dir, "check", "barekit", "--target", "barekit@1.1.0", "--json")
	var same model.CheckReport
	decode(t, s, &same)
	q := packageReport(t, same, "barekit")
	if s.code != 0 || q.Verdict != model.VerdictSafe || len(q.Findings) != 0 || q.Counts.Sites != 3 {
		t.Errorf("same shape: exit %d, verdict %q, counts %+v, findings %+v: want 0, safe, the load and its two members judged\n%s", s.code, q.Verdict, q.Counts, q.Findings, s.stdout)
	}
	if !strings.Contains(q.Compile.Line, basis) || len(q.Runtime) != 1 || q.Runtime[0].Status != model.RuntimeCompared {
		t.Errorf("same shape: coverage line %q, runtime %+v: want the probe stated as the basis", q.Compile.Line, q.Runtime)
	}

	n := run(t, e, dir, "check", "barekit", "--target", "barekit@1.1.0", "--no-runtime", "--json")
	var off model.CheckReport
	decode(t, n, &off)
	o := packageReport(t, off, "barekit")
	if o.Verdict == model.VerdictSafe || o.Counts.Possible != 3 || len(o.Runtime) != 0 {
		t.Errorf("--no-runtime: verdict %q, counts %+v: want nothing decided, every site possible impact\n%s", o.Verdict, o.Counts, n.stdout)
	}
}

package match

import (
	"fmt"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

type untypedCase struct {
	rule    string
	name    string
	usages  []model.Usage
	runtime *model.RuntimeResult
	// want: file:line severity change per finding, in order.
	want []string
}

// A package without declarations (faker-shaped): the sites are a load
// ("." with access import) and the members read from what it gives.
var (
	bareLoad  = unchecked(require(use("src/seed.js", 1, ".", model.AccessImport)))
	bareName  = unchecked(require(use("src/seed.js", 3, "name", model.AccessCall)))
	bareEmail = unchecked(require(use("src/seed.js", 4, "email", model.AccessCall)))
	bareWhole = unchecked(require(use("src/seed.js", 5, ".", model.AccessRead)))
	bareSites = []model.Usage{bareLoad, bareName, bareEmail}
	emailGone = model.RuntimeChange{Kind: model.RuntimeKeyRemoved, Loader: model.LoaderRequire, Key: "email", Detail: "require() of 2.0.0 has no email"}
	bareThrow = model.RuntimeChange{Kind: model.RuntimeRequireThrows, Loader: model.LoaderRequire, Code: "MODULE_NOT_FOUND", Detail: "require() of 6.6.6 throws MODULE_NOT_FOUND"}
)

var untypedCases = []untypedCase{
	{rule: "arbiter/untyped-runtime-hit", name: "a member the target no longer has, where it is read",
		usages: bareSites, runtime: tintRuntime(model.RuntimeCompared, emailGone),
		want: []string{"src/seed.js:4 breaking removed"}},
	{rule: "arbiter/untyped-runtime-hit", name: "a load that throws breaks at the load, once for the members it gives",
		usages: bareSites, runtime: tintRuntime(model.RuntimeCompared, bareThrow),
		want: []string{"src/seed.js:1 breaking require-throws"}},
	{rule: "arbiter/untyped-undecided", name: "no probe: every site possible impact, none no impact",
		usages: bareSites,
		want:   []string{"src/seed.js:1 unverified untyped", "src/seed.js:3 unverified untyped", "src/seed.js:4 unverified untyped"}},
	{rule: "arbiter/untyped-undecided", name: "the value read whole, when it lost keys, is neither hit nor ruled out",
		usages: []model.Usage{bareLoad, bareWhole}, runtime: tintRuntime(model.RuntimeCompared, emailGone),
		want: []string{"src/seed.js:5 unverified untyped"}},
	{rule: "arbiter/untyped-undecided", name: "a probe that could not decide proves nothing",
		usages: bareSites[1:2], runtime: tintRuntime(model.RuntimeInconclusive),
		want: []string{"src/seed.js:3 unverified untyped"}},
}

func TestUntyped(t *testing.T) {
	for _, c := range untypedCases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, f := range Untyped(c.usages, c.runtime, pkg, ".") {
				got = append(got, fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.Severity, f.Change))
				if f.Severity == model.Breaking && len(f.Runtime) == 0 {
					t.Errorf("%s:%d breaking without the probe's evidence", f.File, f.Line)
				}
			}
			if strings.Join(got, "; ") != strings.Join(c.want, "; ") {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	// Same shape everywhere: nothing to report, every site decided.
	if fs := Untyped(bareSites, tintRuntime(model.RuntimeCompared), pkg, "."); len(fs) != 0 {
		t.Errorf("same shape: %+v, want no finding", fs)
	}
}

package probe

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// Which sites a chalk 4 → 5-shaped result breaks: calling the required
// module and reading its colors break (namespace, colors on default),
// reading a named export that stayed does not; import() sites keep
// working but for the member the default export lost.
func TestHits(t *testing.T) {
	colors := map[string]model.RuntimeMember{"red": member, "stderr": member, "supportsColor": {Type: "boolean"}}
	newColors := map[string]model.RuntimeMember{"red": member}
	installed := copyOf(arrow(colors), namespace(arrow(colors), nil))
	target := copyOf(namespace(arrow(newColors), map[string]model.RuntimeMember{"supportsColor": {Type: "boolean"}}), namespace(arrow(newColors), map[string]model.RuntimeMember{"supportsColor": {Type: "boolean"}}))
	res := model.RuntimeResult{Status: model.RuntimeCompared, Installed: installed, Target: target, Changes: Diff(installed, target)}

	cases := []struct {
		name string
		site Site
		want []model.RuntimeChangeKind
	}{
		{"require()(…)", Site{model.LoaderRequire, nil, model.AccessCall, ""}, []model.RuntimeChangeKind{model.RuntimeNamespaceInstead}},
		{"require().red(…)", Site{model.LoaderRequire, []string{"red"}, model.AccessCall, ""}, []model.RuntimeChangeKind{model.RuntimeKeyRemoved}},
		{"require().red.bold(…)", Site{model.LoaderRequire, []string{"red", "bold"}, model.AccessCall, ""}, []model.RuntimeChangeKind{model.RuntimeKeyRemoved}},
		{"const { supportsColor } = require()", Site{model.LoaderRequire, []string{"supportsColor"}, model.AccessRead, ""}, nil},
		{"import tint; tint(…)", Site{model.LoaderImport, []string{"default"}, model.AccessCall, ""}, nil},
		{"import tint; tint.red(…)", Site{model.LoaderImport, []string{"default", "red"}, model.AccessCall, ""}, nil},
		{"import tint; tint.stderr", Site{model.LoaderImport, []string{"default", "stderr"}, model.AccessRead, ""}, []model.RuntimeChangeKind{model.RuntimeKeyRemoved}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hits, decided := Hits(res, tc.site)
			if !decided {
				t.Fatal("undecided on a compared result")
			}
			var got []model.RuntimeChangeKind
			for _, h := range hits {
				got = append(got, h.Kind)
			}
			if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
				t.Errorf("hits %v, want %v", got, tc.want)
			}
		})
	}

	// The value itself read (passed on, or indexed with a computed key:
	// httpStatus[code], whose numeric keys http-status 2's require() lost)
	// reaches members the probe cannot name: undecided, never "the same
	// shape"; with no key lost it is decided.
	if hits, ok := Hits(res, Site{model.LoaderRequire, nil, model.AccessRead, ""}); ok {
		t.Errorf("a read of a require() value that lost keys was decided: %v", hits)
	}
	same := model.RuntimeResult{Status: model.RuntimeCompared, Installed: installed, Target: installed, Changes: Diff(installed, installed)}
	if hits, ok := Hits(same, Site{model.LoaderRequire, nil, model.AccessRead, ""}); !ok || len(hits) != 0 {
		t.Errorf("a read of a require() value of the same shape: %v %v, want decided, no hit", hits, ok)
	}

	// A thrown target load breaks every site of that loader.
	throws := model.RuntimeResult{Status: model.RuntimeCompared, Installed: installed, Target: copyOf(nil, target.Import.Value)}
	throws.Changes = Diff(throws.Installed, throws.Target)
	if hits, ok := Hits(throws, Site{model.LoaderRequire, []string{"supportsColor"}, model.AccessRead, ""}); !ok || len(hits) != 1 || hits[0].Kind != model.RuntimeRequireThrows {
		t.Errorf("a require() site of a target whose require() throws: %v %v", hits, ok)
	}
	// Inconclusive, or a loader the installed copy never served: undecided.
	if _, ok := Hits(model.RuntimeResult{Status: model.RuntimeInconclusive}, Site{Loader: model.LoaderRequire}); ok {
		t.Error("an inconclusive probe decided a site")
	}
	noImport := res
	noImport.Installed = copyOf(arrow(colors), nil)
	if _, ok := Hits(noImport, Site{Loader: model.LoaderImport, Path: []string{"default"}}); ok {
		t.Error("an import() site was decided although import() of the installed copy threw")
	}
}

package check

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/typescript"
)

// TestDeprecatedKeyFindings: a deprecated key the overlay found becomes a
// deprecation finding of the member whose target declares it, named as a
// member of the type it was typed by when the surface has that type, else
// by its declaration's path (canonical, not an alias); a key of another
// package, one the surface does not reach, and one the join already
// reported deprecated add nothing.
func TestDeprecatedKeyFindings(t *testing.T) {
	tgt := &model.Surface{Package: "zod", Version: "4.0.17", Symbols: []model.Symbol{
		{Path: "$ZodStringBoolParams#message", File: "v4/core/api.d.ts", Pos: 667, Kind: "property",
			Deprecated: &model.Deprecation{Message: "This parameter is deprecated. Use `error` instead.", Replacement: "error"}},
		{Path: "core.$ZodStringBoolParams#message", AliasOf: "$ZodStringBoolParams#message", File: "v4/core/api.d.ts", Pos: 667, Kind: "property"},
		{Path: "$ZodCheckMinLengthParams", File: "v4/core/api.d.ts", Pos: 9000, Kind: "type"},
		{Path: "core.$ZodCheckMinLengthParams", AliasOf: "$ZodCheckMinLengthParams", File: "v4/core/api.d.ts", Pos: 9000, Kind: "type"},
	}}
	r := &memberRun{m: member{row: model.DependencyRow{Name: "zod"}}, linkName: "zod", tgt: tgt}
	key := func(line int, container int) typescript.DeprecatedKey {
		k := typescript.DeprecatedKey{File: "src/a.ts", Line: line, Column: 5, Start: line * 100, End: line*100 + 7, Name: "message", Access: "write",
			Package: "zod", DeclFile: "v4/core/api.d.ts", DeclPos: 667, Message: "This parameter is deprecated. Use `error` instead."}
		if container > 0 {
			k.ContainerFile, k.ContainerPos = "v4/core/api.d.ts", container
		}
		return k
	}
	other := key(4, 0)
	other.Package = "@types/other"
	unreached := key(5, 0)
	unreached.DeclPos = 12
	keys := []typescript.DeprecatedKey{
		key(1, 9000), // typed by a type the surface has
		key(2, 0),    // anonymous: the declaration's own path
		key(3, 4242), // typed by a type the surface does not have
		other, unreached,
		key(6, 9000), // already reported by the join
	}
	have := []model.Finding{{Change: "deprecated", File: "src/a.ts", Line: 6, Column: 5, Path: "$ZodCheckMinLengthParams#message"}}
	var got []string
	for _, f := range deprecatedKeyFindings(r, "", keys, have) {
		got = append(got, fmt.Sprintf("%d %s %s %s %s %s", f.Line, f.Path, f.Severity, f.Access, f.Replacement, f.Reason))
	}
	sort.Strings(got)
	note := "is deprecated: still works, but is on its way out; This parameter is deprecated. Use `error` instead."
	want := []string{
		"1 $ZodCheckMinLengthParams#message deprecated write error $ZodCheckMinLengthParams#message " + note,
		"2 $ZodStringBoolParams#message deprecated write error $ZodStringBoolParams#message " + note,
		"3 $ZodStringBoolParams#message deprecated write error $ZodStringBoolParams#message " + note,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if fs := deprecatedKeyFindings(&memberRun{m: r.m, linkName: "zod"}, "", keys, nil); fs != nil {
		t.Errorf("without a target surface: %v", fs)
	}
}

// TestDeprecatedNames: the overlay judges only keys named like a member a
// moving target deprecates; a top-level export is no key, and a member
// that stays put adds nothing.
func TestDeprecatedNames(t *testing.T) {
	dep := &model.Deprecation{Message: "x"}
	moving := &memberRun{ok: true, tgtDir: "/t", tgt: &model.Surface{Symbols: []model.Symbol{
		{Path: "$ZodCheckParams#message", Deprecated: dep},
		{Path: "z.$ZodCheckParams#message", AliasOf: "$ZodCheckParams#message", Deprecated: dep},
		{Path: "ZodString#email", Deprecated: dep},
		{Path: "nativeEnum", Deprecated: dep},
		{Path: `Opts#"x-legacy"`, Deprecated: dep},
		{Path: "ZodString#min"},
	}}}
	staying := &memberRun{ok: true, tgt: &model.Surface{Symbols: []model.Symbol{{Path: "Other#old", Deprecated: dep}}}}
	got := deprecatedNames([]*memberRun{moving, staying})
	if want := []string{"email", "message", "x-legacy"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("deprecatedNames = %q, want %q", got, want)
	}
}

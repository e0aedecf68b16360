package match

import (
	"testing"

	"github.com/uptide/uptide/engine/diff"
	"github.com/uptide/uptide/engine/model"
)

type directionCase struct {
	row    string
	name   string
	change model.Change
	access model.Access
	want   model.Severity
}

var (
	sigChange = func(rule string, sev model.Severity) model.Change {
		return withRule(change("parse", model.ChangeSignature, sev), rule)
	}
	typed = func(k model.ChangeKind, role string, sev model.Severity) model.Change {
		return withRole(change("Options#mode", k, sev), role)
	}
)

// directionCases: every row of the direction table, at least once.
var directionCases = []directionCase{
	{row: "direction/removed", name: "removed function called", change: change("parse", model.ChangeRemoved, model.Breaking), access: model.AccessCall, want: model.Breaking},
	{row: "direction/removed", name: "moved type named", change: change("Options", model.ChangeMoved, model.Breaking), access: model.AccessTypeRef, want: model.Breaking},
	{row: "direction/removed", name: "removed binding imported", change: change("parse", model.ChangeRemoved, model.Breaking), access: model.AccessImport, want: model.Breaking},
	{row: "direction/deprecated", name: "deprecated read", change: change("parse", model.ChangeDeprecated, model.Deprecated), access: model.AccessRead, want: model.Deprecated},
	{row: "direction/param-required/call", name: "required parameter added, called", change: sigChange("sig/param/added-required", model.Breaking), access: model.AccessCall, want: model.Breaking},
	{row: "direction/param-required/call", name: "parameter made required, constructed", change: sigChange("sig/param/made-required", model.Breaking), access: model.AccessConstruct, want: model.Breaking},
	{row: "direction/param-required/implement", name: "required parameter added, implemented", change: sigChange("sig/param/added-required", model.Breaking), access: model.AccessImplement, want: model.Additive},
	{row: "direction/param-added-optional/implement", name: "optional parameter added, implemented", change: sigChange("sig/param/added-optional", model.Additive), access: model.AccessImplement, want: model.Additive},
	{row: "direction/param-added-optional/implement", name: "rest parameter added, implemented", change: sigChange("sig/param/added-rest", model.Additive), access: model.AccessImplement, want: model.Additive},
	{row: "direction/param-removed/implement", name: "parameter removed, implemented", change: sigChange("sig/param/removed", model.Breaking), access: model.AccessImplement, want: model.Breaking},
	{row: "direction/param-widened/implement", name: "parameter widened, implemented", change: typed(model.ChangeWidened, "parameter", model.Additive), access: model.AccessImplement, want: model.Breaking},
	{row: "direction/param-narrowed/implement", name: "parameter narrowed, implemented", change: typed(model.ChangeNarrowed, "parameter", model.Breaking), access: model.AccessImplement, want: model.Additive},
	{row: "direction/return-widened/implement", name: "return widened, implemented", change: typed(model.ChangeWidened, "return", model.Breaking), access: model.AccessImplement, want: model.Additive},
	{row: "direction/return-narrowed/implement", name: "return narrowed, implemented", change: typed(model.ChangeNarrowed, "return", model.Additive), access: model.AccessImplement, want: model.Breaking},
	{row: "direction/required/write", name: "property became required, written", change: change("Options#timeout", model.ChangeRequired, model.Breaking), access: model.AccessWrite, want: model.Breaking},
	{row: "direction/required/write", name: "property became required, constructed", change: change("Options#timeout", model.ChangeRequired, model.Breaking), access: model.AccessConstruct, want: model.Breaking},
	{row: "direction/required/implement", name: "property became required, implemented", change: change("Options#timeout", model.ChangeRequired, model.Breaking), access: model.AccessImplement, want: model.Breaking},
	{row: "direction/required/read", name: "property became required, read", change: change("Options#timeout", model.ChangeRequired, model.Breaking), access: model.AccessRead, want: model.Additive},
	{row: "direction/widened/read", name: "text-widened property read", change: typed(model.ChangeWidened, "", model.Additive), access: model.AccessRead, want: model.Breaking},
	{row: "direction/widened/read", name: "unknown-direction alias named as a type", change: typed(model.ChangeWidened, "unknown", model.Additive), access: model.AccessTypeRef, want: model.Breaking},
	{row: "direction/widened/write", name: "widened property written", change: typed(model.ChangeWidened, "", model.Additive), access: model.AccessWrite, want: model.Additive},
	{row: "direction/widened/write", name: "widened variable passed in a call", change: typed(model.ChangeWidened, "unknown", model.Breaking), access: model.AccessCall, want: model.Additive},
	{row: "direction/narrowed/read", name: "narrowed property read", change: typed(model.ChangeNarrowed, "", model.Breaking), access: model.AccessRead, want: model.Additive},
	{row: "direction/narrowed/write", name: "narrowed property written", change: typed(model.ChangeNarrowed, "unknown", model.Additive), access: model.AccessWrite, want: model.Breaking},
	{row: "direction/narrowed/write", name: "narrowed option constructed", change: typed(model.ChangeNarrowed, "", model.Breaking), access: model.AccessConstruct, want: model.Breaking},
	{row: "direction/keep", name: "return widened at a call keeps the diff's verdict", change: typed(model.ChangeWidened, "return", model.Breaking), access: model.AccessCall, want: model.Breaking},
	{row: "direction/keep", name: "output narrowed read keeps the diff's verdict", change: typed(model.ChangeNarrowed, "output", model.Additive), access: model.AccessRead, want: model.Additive},
	{row: "direction/keep", name: "type change keeps its severity", change: change("Options#mode", model.ChangeType, model.Breaking), access: model.AccessRead, want: model.Breaking},
	{row: "direction/keep", name: "signature changed otherwise, called", change: sigChange("sig/param/changed", model.Breaking), access: model.AccessCall, want: model.Breaking},
}

func TestDirectionRows(t *testing.T) {
	for _, tc := range directionCases {
		t.Run(tc.row+"/"+tc.name, func(t *testing.T) {
			d := ResolveDirection(tc.change, tc.access)
			if d.Row != tc.row {
				t.Errorf("row = %q, want %q", d.Row, tc.row)
			}
			if d.Severity != tc.want {
				t.Errorf("severity = %q, want %q", d.Severity, tc.want)
			}
			if tc.row != "direction/keep" && d.Reason == "" {
				t.Error("a deciding row must say why")
			}
		})
	}
}

// TestDiffRuleIDsExist keeps the diff row ids and roles this package keys on
// in step with engine/diff's tables.
func TestDiffRuleIDsExist(t *testing.T) {
	for _, id := range []string{diffParamAddedRequired, diffParamMadeRequired, diffParamAddedOptional, diffParamAddedRest, diffParamRemoved, diffReturnChanged} {
		if _, ok := diff.RuleByID(id); !ok {
			t.Errorf("engine/diff has no rule %q", id)
		}
	}
	for got, want := range map[string]string{roleParameter: diff.RoleParameter, roleReturn: diff.RoleReturn, roleUnknown: diff.RoleUnknown} {
		if got != want {
			t.Errorf("role %q, engine/diff spells it %q", got, want)
		}
	}
	for _, r := range directionRows {
		for _, id := range r.ChangeRules {
			if _, ok := diff.RuleByID(id); !ok {
				t.Errorf("direction row %s names unknown diff rule %q", r.ID, id)
			}
		}
	}
}

package match

import (
	"slices"

	"github.com/uptide/uptide/engine/model"
)

// viaRows maps each way a usage reaches a symbol to its certainty row.
var viaRows = map[model.Via]string{
	model.ViaDirect:      "via/direct",
	model.ViaAlias:       "via/alias",
	model.ViaReexport:    "via/reexport",
	model.ViaDestructure: "via/destructure",
	model.ViaRequire:     "via/require",
	model.ViaInferred:    "via/inferred",
}

// Certainty is how sure a usage is of the symbol it names. A usage that
// does not say how it was reached is taken as direct, since the adapter
// resolved it with the checker; an unknown via is as sure as an inference.
func Certainty(v model.Via) float64 {
	if v == "" {
		v = model.ViaDirect
	}
	id, ok := viaRows[v]
	if !ok {
		id = viaRows[model.ViaInferred]
	}
	for _, r := range certaintyRows {
		if r.ID == id {
			return r.Certainty
		}
	}
	panic("match: via row " + id + " missing")
}

// FixInput is what fixability is decided from.
type FixInput struct {
	// Change is the finding's change: a change kind, "TS<code>" or "cause".
	Change   string
	Severity model.Severity
	Via      model.Via
	// ChangeRule is the diff's classification row of the change, if any.
	ChangeRule  string
	Replacement string
}

// FixRow is one row of the fixability table; the first that matches decides.
type FixRow struct {
	ID    string
	Title string
	Fix   model.Fixability
	Match func(FixInput) bool
}

func changeIs(kinds ...model.ChangeKind) func(FixInput) bool {
	return func(in FixInput) bool { return slices.Contains(kinds, model.ChangeKind(in.Change)) }
}

var fixRows = []FixRow{
	{ID: "fix/additive", Title: "additive finding: nothing to change", Fix: model.NoFix,
		Match: func(in FixInput) bool { return in.Severity == model.Additive }},
	{ID: "fix/unattributed", Title: "compile error no known change explains", Fix: model.UnknownFix,
		Match: func(in FixInput) bool { return model.CompilerCode(in.Change) != 0 }},
	{ID: "fix/cause", Title: "root cause: one edit at the anchor", Fix: model.Manual,
		Match: func(in FixInput) bool { return in.Change == model.ChangeCause }},
	{ID: "fix/inferred", Title: "only seen through a compiler diagnostic", Fix: model.UnknownFix,
		Match: func(in FixInput) bool { return in.Via == model.ViaInferred }},
	{ID: "fix/moved", Title: "moved", Fix: model.Mechanical, Match: changeIs(model.ChangeMoved)},
	{ID: "fix/renamed", Title: "removed with a rename replacement", Fix: model.Mechanical,
		Match: func(in FixInput) bool { return in.Change == string(model.ChangeRemoved) && in.Replacement != "" }},
	{ID: "fix/deprecated-replacement", Title: "deprecated whose JSDoc names the replacement", Fix: model.Mechanical,
		Match: func(in FixInput) bool { return in.Change == string(model.ChangeDeprecated) && in.Replacement != "" }},
	{ID: "fix/param-removed", Title: "signature with only a parameter removed", Fix: model.Mechanical,
		Match: func(in FixInput) bool {
			return in.Change == string(model.ChangeSignature) && in.ChangeRule == diffParamRemoved
		}},
	{ID: "fix/param-required", Title: "required parameter added", Fix: model.Assisted,
		Match: func(in FixInput) bool {
			return in.Change == string(model.ChangeSignature) && (in.ChangeRule == diffParamAddedRequired || in.ChangeRule == diffParamMadeRequired)
		}},
	{ID: "fix/type-incompatible", Title: "type incompatible", Fix: model.Assisted,
		Match: changeIs(model.ChangeType, model.ChangeNarrowed, model.ChangeWidened)},
	{ID: "fix/return-incompatible", Title: "incompatible return", Fix: model.Assisted,
		Match: func(in FixInput) bool {
			return in.Change == string(model.ChangeSignature) && in.ChangeRule == diffReturnChanged
		}},
	{ID: "fix/manual", Title: "everything else", Fix: model.Manual, Match: func(FixInput) bool { return true }},
}

// FixabilityOf is the fixability table applied to one finding, with the id
// of the row that decided.
func FixabilityOf(in FixInput) (model.Fixability, string) {
	for _, r := range fixRows {
		if r.Match(in) {
			return r.Fix, r.ID
		}
	}
	panic("match: the fixability table has no catch-all row")
}

package match

import (
	"slices"

	"github.com/uptide/uptide/engine/model"
)

// Diff rule ids and roles the direction table keys on. They are engine/diff's
// row ids, spelled here so that this package depends on the model only;
// TestDiffRuleIDsExist keeps them in step.
const (
	diffParamAddedRequired = "sig/param/added-required"
	diffParamMadeRequired  = "sig/param/made-required"
	diffParamAddedOptional = "sig/param/added-optional"
	diffParamAddedRest     = "sig/param/added-rest"
	diffParamRemoved       = "sig/param/removed"
	diffReturnChanged      = "sig/return/changed"

	roleParameter = "parameter"
	roleReturn    = "return"
	roleUnknown   = "unknown"
)

// DirectionRow resolves the severity of a change from the side of the
// contract the usage is on. Empty match fields match anything; the first
// row that matches decides.
type DirectionRow struct {
	ID    string
	Title string
	Kinds []model.ChangeKind
	// Roles are the diff's direction roles the row applies to ("" is a
	// change the diff gave no role).
	Roles []string
	// ChangeRules are the diff's classification rows the row applies to.
	ChangeRules []string
	Accesses    []model.Access
	// Severity is the result; empty keeps the change's own severity.
	Severity model.Severity
	Reason   string
}

var (
	consumes = []model.Access{model.AccessRead, model.AccessTypeRef}
	supplies = []model.Access{model.AccessWrite, model.AccessCall, model.AccessConstruct}
	calls    = []model.Access{model.AccessCall, model.AccessConstruct}
	// undirected is a type change the diff could not place on either side:
	// the usage decides.
	undirected = []string{"", roleUnknown}
)

var directionRows = []DirectionRow{
	{ID: "direction/removed", Title: "removed or moved, any access including usages of members",
		Kinds: []model.ChangeKind{model.ChangeRemoved, model.ChangeMoved}, Severity: model.Breaking,
		Reason: "symbol or its container is gone"},
	{ID: "direction/deprecated", Title: "deprecated, any access",
		Kinds: []model.ChangeKind{model.ChangeDeprecated}, Severity: model.Deprecated,
		Reason: "still works, but is on its way out"},
	{ID: "direction/param-required/call", Title: "parameter became required or required parameter added, called",
		Kinds: []model.ChangeKind{model.ChangeSignature}, ChangeRules: []string{diffParamAddedRequired, diffParamMadeRequired},
		Accesses: calls, Severity: model.Breaking, Reason: "caller must now supply the argument"},
	{ID: "direction/param-required/implement", Title: "parameter became required or required parameter added, implemented",
		Kinds: []model.ChangeKind{model.ChangeSignature}, ChangeRules: []string{diffParamAddedRequired, diffParamMadeRequired},
		Accesses: []model.Access{model.AccessImplement}, Severity: model.Additive, Reason: "implementation now always receives the argument"},
	{ID: "direction/param-added-optional/implement", Title: "optional parameter added, implemented",
		Kinds: []model.ChangeKind{model.ChangeSignature}, ChangeRules: []string{diffParamAddedOptional, diffParamAddedRest},
		Accesses: []model.Access{model.AccessImplement}, Severity: model.Additive, Reason: "implementation may ignore extra arguments"},
	{ID: "direction/param-removed/implement", Title: "parameter removed, implemented",
		Kinds: []model.ChangeKind{model.ChangeSignature}, ChangeRules: []string{diffParamRemoved},
		Accesses: []model.Access{model.AccessImplement}, Severity: model.Breaking, Reason: "implementation must not expect arguments that are no longer passed"},
	{ID: "direction/param-widened/implement", Title: "parameter widened, implemented (inverted)",
		Kinds: []model.ChangeKind{model.ChangeWidened}, Roles: []string{roleParameter},
		Accesses: []model.Access{model.AccessImplement}, Severity: model.Breaking, Reason: "consumer is on the other side of the contract: the implementation now receives the wider type"},
	{ID: "direction/param-narrowed/implement", Title: "parameter narrowed, implemented (inverted)",
		Kinds: []model.ChangeKind{model.ChangeNarrowed}, Roles: []string{roleParameter},
		Accesses: []model.Access{model.AccessImplement}, Severity: model.Additive, Reason: "consumer is on the other side of the contract: the implementation receives fewer kinds of values"},
	// Not in the specification's table, but the same inversion: an
	// implementation produces the return value the package consumes.
	{ID: "direction/return-widened/implement", Title: "return widened, implemented (inverted)",
		Kinds: []model.ChangeKind{model.ChangeWidened}, Roles: []string{roleReturn},
		Accesses: []model.Access{model.AccessImplement}, Severity: model.Additive, Reason: "consumer is on the other side of the contract: its return values still fit"},
	{ID: "direction/return-narrowed/implement", Title: "return narrowed, implemented (inverted)",
		Kinds: []model.ChangeKind{model.ChangeNarrowed}, Roles: []string{roleReturn},
		Accesses: []model.Access{model.AccessImplement}, Severity: model.Breaking, Reason: "consumer is on the other side of the contract: its return values may no longer fit"},
	{ID: "direction/required/write", Title: "property became required, written or constructed",
		Kinds: []model.ChangeKind{model.ChangeRequired}, Accesses: []model.Access{model.AccessWrite, model.AccessConstruct},
		Severity: model.Breaking, Reason: "consumer must now supply the member"},
	{ID: "direction/required/implement", Title: "property became required, implemented",
		Kinds: []model.ChangeKind{model.ChangeRequired}, Accesses: []model.Access{model.AccessImplement},
		Severity: model.Breaking, Reason: "implementation must now provide the member"},
	{ID: "direction/required/read", Title: "property became required, read",
		Kinds: []model.ChangeKind{model.ChangeRequired}, Accesses: []model.Access{model.AccessRead},
		Severity: model.Additive, Reason: "the member is now always present"},
	{ID: "direction/widened/read", Title: "widened, read or named as a type",
		Kinds: []model.ChangeKind{model.ChangeWidened}, Roles: undirected, Accesses: consumes,
		Severity: model.Breaking, Reason: "widened type is read by the consumer"},
	{ID: "direction/widened/write", Title: "widened, written or passed to a call",
		Kinds: []model.ChangeKind{model.ChangeWidened}, Roles: undirected, Accesses: supplies,
		Severity: model.Additive, Reason: "widened type only receives values from the consumer"},
	{ID: "direction/narrowed/read", Title: "narrowed, read or named as a type",
		Kinds: []model.ChangeKind{model.ChangeNarrowed}, Roles: undirected, Accesses: consumes,
		Severity: model.Additive, Reason: "narrower value still satisfies the reader"},
	{ID: "direction/narrowed/write", Title: "narrowed, written or passed to a call",
		Kinds: []model.ChangeKind{model.ChangeNarrowed}, Roles: undirected, Accesses: supplies,
		Severity: model.Breaking, Reason: "consumer's values may no longer fit"},
	{ID: "direction/keep", Title: "anything else keeps the change's severity"},
}

func (r *DirectionRow) matches(c model.Change, a model.Access) bool {
	return (len(r.Kinds) == 0 || slices.Contains(r.Kinds, c.Kind)) &&
		(len(r.Roles) == 0 || slices.Contains(r.Roles, c.Role)) &&
		(len(r.ChangeRules) == 0 || slices.Contains(r.ChangeRules, c.Rule)) &&
		(len(r.Accesses) == 0 || slices.Contains(r.Accesses, a))
}

// Direction is what the table decided for one change at one usage.
type Direction struct {
	Row      string
	Severity model.Severity
	Reason   string
}

// ResolveDirection is the direction table applied to a change seen through
// an access. It always answers: the last row keeps the change's severity.
func ResolveDirection(c model.Change, a model.Access) Direction {
	for i := range directionRows {
		r := &directionRows[i]
		if !r.matches(c, a) {
			continue
		}
		d := Direction{Row: r.ID, Severity: r.Severity, Reason: r.Reason}
		if d.Severity == "" {
			d.Severity = c.Severity
		}
		return d
	}
	panic("match: the direction table has no catch-all row")
}

package diff

import (
	"fmt"

	"github.com/uptide/uptide/engine/model"
)

// Roles say which way a type flows between the package and its consumer,
// which is what decides whether widening or narrowing it breaks them.
const (
	RoleParameter         = "parameter"
	RoleReturn            = "return"
	RoleCallbackParameter = "callback-parameter"
	RoleCallbackReturn    = "callback-return"
	RoleOutput            = "output"
	RoleUnknown           = "unknown"
)

// The tables of the specification the rules come from.
const (
	TableDiff        = "diff semantics"
	TableDeclKind    = "declaration kind changes"
	TableHeader      = "container headers"
	TableSignature   = "signature parsing"
	TableDirection   = "direction of a type change"
	TableRenameHints = "rename hints"
)

// Rule is one row of a classification table: a situation and what it
// means. A row whose Kind is empty is a situation that produces no change.
type Rule struct {
	ID         string
	Table      string
	Title      string
	Kind       model.ChangeKind
	Severity   model.Severity
	Confidence float64
	// Role is the direction role the row is about, when it is about one.
	Role string
	// Note is the one sentence a reader needs beyond the title, when the
	// row carries a caveat.
	Note string
}

const readCaveat = "type widened; breaking if the member is read by the consumer"

// rules is every classification row. Adding a row here without a test case
// naming it fails TestRuleRegistry.
var rules = []Rule{
	// Diff semantics.
	{ID: "removed", Table: TableDiff, Title: "path in A, not in B", Kind: model.ChangeRemoved, Severity: model.Breaking, Confidence: 1},
	{ID: "removed/was-deprecated", Table: TableDiff, Title: "deprecated in A, gone in B", Kind: model.ChangeRemoved, Severity: model.Breaking, Confidence: 1, Note: "was deprecated"},
	{ID: "added", Table: TableDiff, Title: "path in B, not in A", Kind: model.ChangeAdded, Severity: model.Additive, Confidence: 1},
	{ID: "required", Table: TableDiff, Title: "optional member became required", Kind: model.ChangeRequired, Severity: model.Breaking, Confidence: 1},
	{ID: "optional", Table: TableDiff, Title: "required member became optional", Kind: model.ChangeType, Severity: model.Additive, Confidence: 1},
	{ID: "deprecated", Table: TableDiff, Title: "newly @deprecated", Kind: model.ChangeDeprecated, Severity: model.Deprecated, Confidence: 1},
	{ID: "moved", Table: TableDiff, Title: "path present in both, but B shares no entry point with A, or no longer exports it from its own entry point (the root, for a bare path the root exported)", Kind: model.ChangeMoved, Severity: model.Breaking, Confidence: 0.95},
	{ID: "moved/still-reachable", Table: TableDiff, Title: "moved between subpaths while still reachable from its own entry point (or, for a subpath-only export, a shared entry)"},
	{ID: "moved/augmentation", Table: TableDiff, Title: "a global declaration or an augmentation of another module, in both versions: reachable from every entry point, whatever entry points were added or dropped"},
	{ID: "checker/incompatible", Table: TableDiff, Title: "same path, type checker says neither is assignable to the other", Kind: model.ChangeType, Severity: model.Breaking, Confidence: 1},
	{ID: "checker/equivalent", Table: TableDiff, Title: "same path, type checker says assignable both ways"},

	// Declaration kind changes.
	{ID: "decl-kind/interface-to-alias", Table: TableDeclKind, Title: "interface became a type alias", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 0.7,
		Note: "type positions keep working; only declaration merging and extends may differ"},
	{ID: "decl-kind/alias-to-interface", Table: TableDeclKind, Title: "type alias became an interface", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 0.7,
		Note: "type positions keep working; only declaration merging and extends may differ"},
	{ID: "decl-kind/method-to-property", Table: TableDeclKind, Title: "method became a callable property", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 0.7,
		Note: "call sites keep working; only this binding and overriding may differ"},
	{ID: "decl-kind/class-to-variable", Table: TableDeclKind, Title: "class became a variable (value and type pair)", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 0.6,
		Note: "it may still construct, but it can no longer be extended"},
	{ID: "decl-kind/other", Table: TableDeclKind, Title: "declaration kind changed otherwise", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1},

	// Container headers.
	{ID: "header/extends-grew", Table: TableHeader, Title: "extends/implements list grew", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 0.8,
		Note: "the new base's members are new API"},
	{ID: "header/extends-lost", Table: TableHeader, Title: "extends/implements list lost or swapped a member", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1},
	{ID: "header/became-abstract", Table: TableHeader, Title: "class became abstract", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1},
	{ID: "header/stopped-abstract", Table: TableHeader, Title: "class stopped being abstract", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 1},

	// Signature parsing without the checker.
	{ID: "type-params/trailing-default", Table: TableSignature, Title: "trailing type parameter with a default added", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 1},
	{ID: "type-params/changed", Table: TableSignature, Title: "type parameter list changed otherwise", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1},
	{ID: "sig/param/widened", Table: TableSignature, Title: "parameter type widened", Kind: model.ChangeWidened, Severity: model.Additive, Confidence: 0.8, Role: RoleParameter},
	{ID: "sig/param/narrowed", Table: TableSignature, Title: "parameter type narrowed", Kind: model.ChangeNarrowed, Severity: model.Breaking, Confidence: 1, Role: RoleParameter},
	{ID: "sig/param/changed", Table: TableSignature, Title: "parameter type changed", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1, Role: RoleParameter},
	{ID: "sig/param/inline-to-named", Table: TableSignature, Title: "inline object parameter type replaced by a named type (or back)", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 0.5, Role: RoleParameter,
		Note: "named types are not expanded, so an equivalent named type looks like a change"},
	{ID: "sig/param/added-optional", Table: TableSignature, Title: "new optional parameter", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 1},
	{ID: "sig/param/added-rest", Table: TableSignature, Title: "new rest parameter", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 1},
	{ID: "sig/param/made-optional", Table: TableSignature, Title: "parameter made optional", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 1},
	{ID: "sig/param/removed", Table: TableSignature, Title: "parameter removed", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1},
	{ID: "sig/param/added-required", Table: TableSignature, Title: "new required parameter", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1},
	{ID: "sig/param/made-required", Table: TableSignature, Title: "parameter made required", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1},
	{ID: "sig/return/narrowed", Table: TableSignature, Title: "return type narrowed", Kind: model.ChangeNarrowed, Severity: model.Additive, Confidence: 1, Role: RoleReturn},
	{ID: "sig/return/widened", Table: TableSignature, Title: "return type widened", Kind: model.ChangeWidened, Severity: model.Additive, Confidence: 0.6, Role: RoleReturn, Note: readCaveat},
	{ID: "sig/return/changed", Table: TableSignature, Title: "return type changed", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1, Role: RoleReturn},
	{ID: "sig/overloads/survived", Table: TableSignature, Title: "every old overload survives verbatim", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 1},
	{ID: "sig/overloads/changed", Table: TableSignature, Title: "more than one overload changed or disappeared", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1},
	{ID: "sig/modifier/loosened", Table: TableSignature, Title: "protected, abstract, readonly or const removed", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 1},
	{ID: "sig/modifier/tightened", Table: TableSignature, Title: "protected, abstract, readonly or const added", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1},
	{ID: "sig/unparsed", Table: TableSignature, Title: "signature could not be parsed", Kind: model.ChangeSignature, Severity: model.Breaking, Confidence: 1,
		Note: "the signature could not be compared, so the change is assumed breaking"},
	{ID: "type/widened", Table: TableSignature, Title: "property, variable or alias type widened (any or unknown after anything counts)", Kind: model.ChangeWidened, Severity: model.Additive, Confidence: 0.6, Note: readCaveat},
	{ID: "type/narrowed", Table: TableSignature, Title: "property, variable or alias type narrowed", Kind: model.ChangeNarrowed, Severity: model.Breaking, Confidence: 1},
	{ID: "type/changed", Table: TableSignature, Title: "property, variable or alias type changed", Kind: model.ChangeType, Severity: model.Breaking, Confidence: 1},

	// Direction of a type change, with the checker.
	{ID: "direction/parameter/widened", Table: TableDirection, Title: "callable parameter widened", Kind: model.ChangeWidened, Severity: model.Additive, Confidence: 0.8, Role: RoleParameter},
	{ID: "direction/parameter/narrowed", Table: TableDirection, Title: "callable parameter narrowed", Kind: model.ChangeNarrowed, Severity: model.Breaking, Confidence: 1, Role: RoleParameter},
	{ID: "direction/return/widened", Table: TableDirection, Title: "callable return widened", Kind: model.ChangeWidened, Severity: model.Breaking, Confidence: 1, Role: RoleReturn},
	{ID: "direction/return/narrowed", Table: TableDirection, Title: "callable return narrowed", Kind: model.ChangeNarrowed, Severity: model.Additive, Confidence: 1, Role: RoleReturn},
	{ID: "direction/callback-parameter/widened", Table: TableDirection, Title: "callback parameter widened", Kind: model.ChangeWidened, Severity: model.Breaking, Confidence: 1, Role: RoleCallbackParameter},
	{ID: "direction/callback-parameter/narrowed", Table: TableDirection, Title: "callback parameter narrowed", Kind: model.ChangeNarrowed, Severity: model.Additive, Confidence: 0.6, Role: RoleCallbackParameter},
	{ID: "direction/callback-return/widened", Table: TableDirection, Title: "callback return widened", Kind: model.ChangeWidened, Severity: model.Additive, Confidence: 1, Role: RoleCallbackReturn},
	{ID: "direction/callback-return/narrowed", Table: TableDirection, Title: "callback return narrowed", Kind: model.ChangeNarrowed, Severity: model.Breaking, Confidence: 1, Role: RoleCallbackReturn},
	{ID: "direction/output/widened", Table: TableDirection, Title: "output (readonly property, variable, enum member, class) widened", Kind: model.ChangeWidened, Severity: model.Breaking, Confidence: 1, Role: RoleOutput},
	{ID: "direction/output/narrowed", Table: TableDirection, Title: "output (readonly property, variable, enum member, class) narrowed", Kind: model.ChangeNarrowed, Severity: model.Additive, Confidence: 1, Role: RoleOutput},
	{ID: "direction/unknown/widened", Table: TableDirection, Title: "unknown direction (mutable property, type alias) widened", Kind: model.ChangeWidened, Severity: model.Additive, Confidence: 0.6, Role: RoleUnknown,
		Note: "type widened; breaking if read"},
	{ID: "direction/unknown/narrowed", Table: TableDirection, Title: "unknown direction (mutable property, type alias) narrowed", Kind: model.ChangeNarrowed, Severity: model.Breaking, Confidence: 0.7, Role: RoleUnknown},
	{ID: "direction/callable/compatible", Table: TableDirection, Title: "callable compared as a whole: new type assignable to old", Kind: model.ChangeSignature, Severity: model.Additive, Confidence: 1,
		Note: "the new function type is assignable to the old one, so existing calls keep working"},
}

// ruleIndex maps ids to rows; built once from the immutable table.
var ruleIndex = func() map[string]int {
	m := make(map[string]int, len(rules))
	for i, r := range rules {
		if _, dup := m[r.ID]; dup {
			panic("diff: duplicate rule id " + r.ID)
		}
		m[r.ID] = i
	}
	return m
}()

// Rules returns every classification row, in table order.
func Rules() []Rule { return append([]Rule(nil), rules...) }

// RuleByID returns the row with the given id.
func RuleByID(id string) (Rule, bool) {
	i, ok := ruleIndex[id]
	if !ok {
		return Rule{}, false
	}
	return rules[i], true
}

// rule is RuleByID for ids written in this package's code.
func rule(id string) Rule {
	r, ok := RuleByID(id)
	if !ok {
		panic(fmt.Sprintf("diff: unknown rule id %q", id))
	}
	return r
}

// directionRule is the checker row for a role and direction.
func directionRule(role string, d direction) string {
	switch d {
	case widened:
		return "direction/" + role + "/widened"
	case narrowed:
		return "direction/" + role + "/narrowed"
	}
	return "checker/incompatible"
}

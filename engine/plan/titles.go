package plan

import (
	"fmt"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// Change spellings outside model.ChangeKind that findings use.
const (
	changeModuleFormat = "module-format"
	changeEnginesNode  = "engines-node"
	changeMissingPeer  = "missing-peer"
	// A target's declarations need a newer TypeScript; errors inside a
	// dependency no newer TypeScript explains (engine/check/deps.go).
	changeNewerTypeScript  = "newer-typescript"
	changeDependencyErrors = "dependency-errors"
	// A site of a package without declarations the probe could not
	// decide (engine/match/untyped.go).
	changeUntyped = "untyped"
)

// tsTitles are plain-English titles for the compiler errors an upgrade
// commonly produces; the raw message stays in the finding for --details.
var tsTitles = map[int]string{
	1192:  "module has no default export",
	1259:  "default import needs esModuleInterop",
	2304:  "name not found",
	2305:  "module has no such export",
	2307:  "module not found",
	2314:  "generic type needs type arguments",
	2315:  "type is not generic",
	2322:  "value not assignable",
	2339:  "property does not exist",
	2344:  "type argument does not satisfy its constraint",
	2345:  "argument not assignable",
	2349:  "expression is not callable",
	2351:  "expression is not constructable",
	2353:  "object literal has an unknown property",
	2416:  "member incompatible with its base type",
	2420:  "class incorrectly implements an interface",
	2445:  "member is protected",
	2503:  "namespace not found",
	2531:  "value is possibly null",
	2532:  "value is possibly undefined",
	2551:  "property does not exist (renamed?)",
	2552:  "name not found (renamed?)",
	2554:  "wrong number of arguments",
	2555:  "too few arguments",
	2559:  "type has nothing in common with the expected type",
	2564:  "property not definitely assigned",
	2571:  "value is of type unknown",
	2602:  "JSX element type missing from the global JSX namespace",
	2614:  "module has no such export (default import?)",
	2694:  "namespace has no such exported member",
	2707:  "generic type needs a different number of type arguments",
	2724:  "module has no such export (renamed?)",
	2739:  "type is missing properties",
	2740:  "type is missing properties",
	2741:  "property missing",
	2769:  "no overload matches this call",
	2786:  "component cannot be used as a JSX element",
	2792:  "module not found (moduleResolution?)",
	5023:  "unknown tsconfig option",
	5025:  "unknown tsconfig option (renamed?)",
	5095:  "tsconfig options disagree",
	5101:  "tsconfig option deprecated",
	5102:  "tsconfig option removed",
	5107:  "tsconfig option value deprecated",
	5108:  "tsconfig option value removed",
	5110:  "tsconfig options disagree",
	6046:  "tsconfig option value not allowed",
	7006:  "parameter implicitly has type any",
	7016:  "module has no declarations",
	7026:  "JSX element implicitly has type any",
	7031:  "binding element implicitly has type any",
	18046: "value is of type unknown",
	18047: "value is possibly null",
	18048: "value is possibly undefined",
}

var kindTitles = map[string]string{
	string(model.ChangeSignature): "call signature changed",
	string(model.ChangeType):      "type changed",
	string(model.ChangeRequired):  "member now required",
	string(model.ChangeNarrowed):  "type narrowed: your values may no longer fit",
	string(model.ChangeWidened):   "type widened: your code may read values it does not expect",
	string(model.ChangeAdded):     "added",
	changeModuleFormat:            "ESM only: require() of the package must become import()",
	changeEnginesNode:             "needs a newer Node: the target's engines.node excludes the repository's",
	// What the runtime probe saw of a package without declarations.
	string(model.RuntimeRequireThrows):     "the target throws when require() loads it",
	string(model.RuntimeImportThrows):      "the target throws when import() loads it",
	string(model.RuntimeCallableLost):      "no longer callable when loaded",
	string(model.RuntimeConstructableLost): "no longer constructable when loaded",
	string(model.RuntimeNamespaceInstead):  "loads as a module namespace, not the value",
	changeUntyped:                          "no declarations, and the runtime probe could not decide",
}

// RuleKey is the rule a finding falls under when no pack claims it: one
// rule per removed or moved symbol (the fix is a per-symbol replacement),
// one per other change kind, one per compiler error code, one per root
// cause. match records the id in Finding.Rule; Build derives it again, so
// the two agree.
func RuleKey(f model.Finding) (id, title string) {
	switch change := f.Change; {
	case change == string(model.ChangeRemoved):
		sym := symbolOf(f)
		if f.Replacement != "" {
			return "removed:" + sym, fmt.Sprintf("%s removed, use %s", sym, f.Replacement)
		}
		return "removed:" + sym, sym + " removed"
	case change == string(model.ChangeMoved):
		sym := symbolOf(f)
		if f.Replacement != "" {
			return "moved:" + sym, fmt.Sprintf("%s moved to %s", sym, f.Replacement)
		}
		return "moved:" + sym, sym + " moved"
	case change == string(model.ChangeDeprecated):
		sym := symbolOf(f)
		if f.Replacement != "" {
			return "deprecated:" + sym, fmt.Sprintf("%s deprecated, use %s", sym, f.Replacement)
		}
		return "deprecated:" + sym, sym + " deprecated"
	case change == model.ChangeCause:
		at := f.Root
		if at == "" {
			at = f.File
		}
		id = "cause:" + at
		if f.Path != "" {
			id += ":" + f.Path
			return id, fmt.Sprintf("%s changed: one edit at %s", f.Path, at)
		}
		return id, "one edit at " + at
	case change == changeNewerTypeScript:
		// Replacement is "typescript@>=5.0", or "typescript" when only a
		// newer compiler is known to read the declarations.
		if _, at, ok := strings.Cut(f.Replacement, "@>="); ok {
			return change, "upgrade typescript to ≥ " + at
		}
		return change, "upgrade typescript"
	case change == changeDependencyErrors:
		return change + ":" + f.Path, fmt.Sprintf("errors inside %s's declarations", f.Path)
	case change == changeMissingPeer:
		// Adding the peer fixes every site: one rule per peer.
		return "missing-peer:" + f.Path, fmt.Sprintf("add %s (%s)", f.Replacement, f.Reason)
	case model.CompilerCode(change) > 0:
		code := model.CompilerCode(change)
		if t, ok := tsTitles[code]; ok {
			return change, fmt.Sprintf("%s (TS%d)", t, code)
		}
		return change, fmt.Sprintf("compile error TS%d", code)
	}
	if t, ok := kindTitles[f.Change]; ok {
		return f.Change, t
	}
	if f.Change == "" {
		return "unknown", "unclassified change"
	}
	return f.Change, f.Change
}

func symbolOf(f model.Finding) string {
	if f.Path != "" {
		return f.Path
	}
	if f.SymbolPath != "" {
		return f.SymbolPath
	}
	return "a symbol"
}

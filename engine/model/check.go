package model

import (
	"strconv"
	"strings"
)

// Unverified is the severity of a change the diff reports at a site that
// nothing confirmed: "possible impact", listed apart, never counted as
// breaking.
const Unverified Severity = "unverified"

// Access is what the consumer's code does with a package symbol at a site.
type Access string

// The accesses, read from the AST position of the reference.
const (
	AccessCall      Access = "call"
	AccessConstruct Access = "construct"
	AccessRead      Access = "read"
	AccessWrite     Access = "write"
	AccessImplement Access = "implement"
	AccessTypeRef   Access = "typeRef"
	AccessImport    Access = "import"
)

// Via says how the reference reached the package symbol.
type Via string

// The ways a usage reaches a symbol, each with its certainty.
const (
	ViaDirect      Via = "direct"
	ViaAlias       Via = "alias"
	ViaReexport    Via = "reexport"
	ViaDestructure Via = "destructure"
	ViaInferred    Via = "inferred"
	// ViaRequire: matched by name on a require() the checker could not type.
	ViaRequire Via = "require"
)

// Loader is how the file loads the package.
type Loader string

// The loaders.
const (
	LoaderImport  Loader = "import"
	LoaderRequire Loader = "require"
)

// Usage is one reference in the repository to a symbol of the package.
type Usage struct {
	Workspace string `json:"workspace"`
	// File is repository-relative, slash-separated.
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Start and End are the character offsets of the reference's span.
	Start int `json:"start"`
	End   int `json:"end"`
	// SymbolPath is the name the consumer wrote (an import alias keeps the
	// export name written); CanonicalPath is the surface path it resolves to.
	SymbolPath    string `json:"symbolPath"`
	CanonicalPath string `json:"canonicalPath"`
	Access        Access `json:"access"`
	Via           Via    `json:"via"`
	Loader        Loader `json:"loader"`
	// Checked: the repository type-checks this file (TypeScript, or
	// JavaScript under checkJs or // @ts-check, and no @ts-nocheck).
	Checked bool `json:"checked"`
	// Subpath is the entry point the file imports ("." or "./v4").
	Subpath string `json:"subpath,omitempty"`
}

// Unanalyzed is a load of the package the analysis could not follow
// (a computed require or import), listed instead of dropped.
type Unanalyzed struct {
	Workspace string `json:"workspace"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Kind      string `json:"kind"`
	Reason    string `json:"reason"`
	// Specifier is the computed specifier's source text, when it is one.
	Specifier string `json:"specifier,omitempty"`
}

// ComputedLoad is a computed require() or import() that cannot load any
// package checked (a relative prefix reaching no re-exporting file, a bare
// prefix naming another module, a fully computed specifier in a file that
// neither loads nor names the package): listed once per report, never a
// partial verdict.
type ComputedLoad struct {
	Workspace string `json:"workspace"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Kind      string `json:"kind"`
	Specifier string `json:"specifier"`
	Reason    string `json:"reason"`
}

// Diagnostic is one compiler error, repository-relative.
type Diagnostic struct {
	Workspace string `json:"workspace,omitempty"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	Start     int    `json:"start"`
	Length    int    `json:"length"`
	Code      int    `json:"code"`
	Message   string `json:"message"`
	// Root is the repository declaration the diagnostic was traced to, when
	// the cause tracer found one: the place its one edit lies.
	Root *Root `json:"root,omitempty"`
}

// Without is ds less the diagnostics of minus, as multisets on file, code
// and message: edits shift positions, so lines are not part of the key.
func Without(ds, minus []Diagnostic) []Diagnostic {
	type key struct {
		file, message string
		code          int
	}
	left := map[key]int{}
	for _, d := range minus {
		left[key{d.File, d.Message, d.Code}]++
	}
	out := []Diagnostic{}
	for _, d := range ds {
		k := key{d.File, d.Message, d.Code}
		if left[k] > 0 {
			left[k]--
			continue
		}
		out = append(out, d)
	}
	return out
}

// CauseKind says what a traced root is.
type CauseKind string

// The root causes a diagnostic can trace to.
const (
	// CauseConfig: a compiler option (the jsx line of a tsconfig).
	CauseConfig CauseKind = "config"
	// CauseParameter: a repository parameter or prop whose type names
	// something from outside the repository.
	CauseParameter CauseKind = "parameter"
	// CauseAugmentation: a repository augmentation (declare global,
	// declare module "x").
	CauseAugmentation CauseKind = "augmentation"
	// CauseDeclaration: a repository declaration whose type changed between
	// the installed version and the target, or that fails to compile itself.
	CauseDeclaration CauseKind = "declaration"
	// CauseUsage: a reference into the checked package the tracer reached
	// from an unknown/any diagnostic elsewhere (TS7006 on the callback of
	// r.error.errors.map after errors went away). The diagnostic is
	// downstream evidence of the finding at that usage, not a break of its
	// own; File, Line and Column are the reference's.
	CauseUsage CauseKind = "usage"
)

// Root locates a repository declaration a diagnostic traces to.
type Root struct {
	Kind      CauseKind `json:"kind"`
	Workspace string    `json:"workspace,omitempty"`
	// File is repository-relative, slash-separated.
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Name is what the edit changes: "jsx", "usePassThroughWheelEvents(ref)".
	Name string `json:"name"`
	// Detail completes the reason when the tracer knows more: "whose type
	// changed from A to B".
	Detail string `json:"detail,omitempty"`
}

// Fixability says who can make a finding's edit.
type Fixability string

// The fixabilities.
const (
	Mechanical Fixability = "mechanical"
	Assisted   Fixability = "assisted"
	Manual     Fixability = "manual"
	NoFix      Fixability = "none"
	UnknownFix Fixability = "unknown"
)

// Finding is one change joined to one site of the repository, or a new
// compiler error no known change explains, or a root cause anchoring
// several errors.
type Finding struct {
	// ID is stable: hashed from package, canonical path, file, change kind
	// and code, never from lines or order.
	ID      string `json:"id"`
	Package string `json:"package"`
	// Path is the canonical symbol path, SymbolPath the name written.
	Path       string `json:"path,omitempty"`
	SymbolPath string `json:"symbolPath,omitempty"`
	// Change is the change kind, "TS<code>" for an unattributed compiler
	// error, "module-format", or "cause" for a root-cause anchor.
	Change     string     `json:"change"`
	Severity   Severity   `json:"severity"`
	Confidence float64    `json:"confidence"`
	Reason     string     `json:"reason"`
	Fixability Fixability `json:"fixability"`
	Workspace  string     `json:"workspace"`
	File       string     `json:"file"`
	Line       int        `json:"line"`
	Column     int        `json:"column"`
	Access     Access     `json:"access,omitempty"`
	Via        Via        `json:"via,omitempty"`
	// Evidence: the compiler errors that confirm the finding.
	Evidence []Diagnostic `json:"evidence,omitempty"`
	// Runtime are the changes the runtime probe saw that the finding's
	// sites meet: its evidence in a file the repository does not
	// type-check, and for a require() of an ESM-only target.
	Runtime []RuntimeChange `json:"runtime,omitempty"`
	// Sites: every site a per-file finding stands for (module format).
	Sites []Usage `json:"sites,omitempty"`
	// Folded are the findings at this finding's sites that are counted
	// with it, once: a member the target's declarations lost, read at a
	// require() site of a target gone ESM-only, is the module format's
	// doing at that same site. Each keeps its id and reason.
	Folded []FoldedFinding `json:"folded,omitempty"`
	// AnchorOnly marks a root cause (a tsconfig option, a repository
	// parameter or augmentation): one edit, with the errors it causes as
	// Downstream evidence.
	AnchorOnly bool         `json:"anchorOnly,omitempty"`
	Downstream []Diagnostic `json:"downstream,omitempty"`
	// Root is the repository declaration a diagnostic traced to.
	Root        string `json:"root,omitempty"`
	Replacement string `json:"replacement,omitempty"`
	// Rule groups the finding in the plan: a pack rule id, else a key
	// derived from the change kind or TS code.
	Rule string `json:"rule,omitempty"`
	// Similar counts the further diagnostics folded into an unattributed
	// finding of the same group.
	Similar int `json:"similar,omitempty"`
	// Hidden: left out of the human report unless --all (confidence under
	// 0.5 without evidence, info, or additive); JSON keeps it. Decided once
	// in engine/match so the CLI and the TUI hide the same findings.
	Hidden bool `json:"hidden,omitempty"`
}

// FoldedFinding is a finding counted with the one it is folded into: what
// it said on its own.
type FoldedFinding struct {
	ID         string   `json:"id"`
	Path       string   `json:"path,omitempty"`
	SymbolPath string   `json:"symbolPath,omitempty"`
	Change     string   `json:"change"`
	Severity   Severity `json:"severity"`
	Reason     string   `json:"reason"`
	File       string   `json:"file"`
	Line       int      `json:"line"`
	Column     int      `json:"column"`
	// Evidence and Downstream are the compiler errors it carried.
	Evidence   []Diagnostic `json:"evidence,omitempty"`
	Downstream []Diagnostic `json:"downstream,omitempty"`
}

// CompilerCode reads the change of a finding that stands for a compiler
// error no change explains ("TS2345"); 0 for any other change.
func CompilerCode(change string) int {
	rest, ok := strings.CutPrefix(change, "TS")
	if !ok || rest == "" {
		return 0
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

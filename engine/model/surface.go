package model

// SurfaceSchemaVersion is part of every surface cache key. Bump it whenever
// extraction or path rules change, so a stale cached surface is never
// compared against a fresh one (2: `export =` roots carry ExportEquals; 3: a
// variable typed by a named constructor type has X.new(); 4: the surface
// carries ExportEqualsRoots and UMD for the usage position map).
const SurfaceSchemaVersion = 4

// SymbolKind is what a declaration is. For merged declarations it is the
// strongest of the merged kinds (class > function > variable > interface >
// enum > type > namespace > module).
type SymbolKind string

// The symbol kinds.
const (
	KindClass          SymbolKind = "class"
	KindFunction       SymbolKind = "function"
	KindVariable       SymbolKind = "variable"
	KindInterface      SymbolKind = "interface"
	KindEnum           SymbolKind = "enum"
	KindTypeAlias      SymbolKind = "type"
	KindNamespace      SymbolKind = "namespace"
	KindModule         SymbolKind = "module"
	KindMethod         SymbolKind = "method"
	KindProperty       SymbolKind = "property"
	KindConstructor    SymbolKind = "constructor"
	KindCallSignature  SymbolKind = "call"
	KindIndexSignature SymbolKind = "index"
	KindEnumMember     SymbolKind = "enum-member"
)

// Visibility marks symbols that are in the surface but not meant for consumers.
type Visibility string

// Visibilities; empty is public.
const (
	Public    Visibility = ""
	Protected Visibility = "protected"
	Internal  Visibility = "internal"
)

// Deprecation is a symbol's @deprecated tag.
type Deprecation struct {
	// Message is the tag's text as written.
	Message string `json:"message"`
	// Replacement is the bare identifier or member the text names as the
	// replacement ("use parse instead" → "parse"), when it names one.
	Replacement string `json:"replacement,omitempty"`
}

// Symbol is one public declaration of a package version, by canonical path.
type Symbol struct {
	// Path is the canonical symbol path (see engine/model/path).
	Path      string     `json:"path"`
	Kind      SymbolKind `json:"kind"`
	Signature string     `json:"signature"`
	Optional  bool       `json:"optional,omitempty"`
	// Deprecated is set when the declaration carries @deprecated.
	Deprecated *Deprecation `json:"deprecated,omitempty"`
	Visibility Visibility   `json:"visibility,omitempty"`
	// ExportedFrom lists the entry points that reach it (".", "./v4").
	ExportedFrom []string `json:"exportedFrom"`
	// AliasOf is the shortest path of the same declaration when this path is
	// another export name of it.
	AliasOf string `json:"aliasOf,omitempty"`
	// ExportEquals marks the top-level symbol an entry point exports with
	// `export =`: the diff needs it to see that `export = f` and
	// `export default f` plus named exports are one API to a consumer.
	ExportEquals bool `json:"exportEquals,omitempty"`
	// File and Pos locate the declaration inside the package directory
	// (slash path, character offset of the name), for the usage position map.
	File string `json:"file,omitempty"`
	Pos  int    `json:"pos,omitempty"`
}

// Surface is the public API of one package version, symbols sorted by path.
type Surface struct {
	Package       string `json:"package"`
	Version       string `json:"version"`
	Adapter       string `json:"adapter"`
	SchemaVersion int    `json:"schemaVersion"`
	// EntryPoints are the subpaths with declarations (".", "./server").
	EntryPoints []string `json:"entryPoints"`
	Symbols     []Symbol `json:"symbols"`
	// TypesFrom names the package the declarations came from when it is not
	// the package itself (@types/express for express).
	TypesFrom string `json:"typesFrom,omitempty"`
	// ExportEqualsRoots are, per entry point with `export =`, the top-level
	// unscoped paths emitted at the declarations its target resolves to:
	// Signal A reads a default or namespace import of such an entry as them.
	ExportEqualsRoots map[string][]string `json:"exportEqualsRoots,omitempty"`
	// UMD: an entry point declares `export as namespace`, so any file may
	// use the package without loading it.
	UMD bool `json:"umd,omitempty"`
}

// ChangeKind is what happened to a symbol between two versions. There is
// deliberately no "renamed": a rename is only ever a hint on a removal.
type ChangeKind string

// The change kinds.
const (
	ChangeRemoved    ChangeKind = "removed"
	ChangeAdded      ChangeKind = "added"
	ChangeSignature  ChangeKind = "signature"
	ChangeType       ChangeKind = "type"
	ChangeRequired   ChangeKind = "required"
	ChangeDeprecated ChangeKind = "deprecated"
	ChangeMoved      ChangeKind = "moved"
	ChangeWidened    ChangeKind = "widened"
	ChangeNarrowed   ChangeKind = "narrowed"
)

// ChangeUse is the change of a finding that stands for a use a migration
// pack has a note on, whatever the diff says of the symbol (React 19's
// forwardRef still compiles, and its declaration did not change); a pack
// rule keyed by it is about uses, not about a change.
const ChangeUse = "use"

// ChangeCause is the change of a finding that anchors several compiler
// errors at one root cause (a tsconfig option, a repository parameter or
// augmentation): one edit there fixes them all.
const ChangeCause = "cause"

// Severity is what a change means for consumers before usage is known.
type Severity string

// The severities.
const (
	Breaking   Severity = "breaking"
	Additive   Severity = "additive"
	Deprecated Severity = "deprecated"
	Info       Severity = "info"
)

// Change is one classified difference between two surfaces.
type Change struct {
	Path       string     `json:"path"`
	Kind       ChangeKind `json:"kind"`
	Severity   Severity   `json:"severity"`
	Confidence float64    `json:"confidence"`
	SymbolKind SymbolKind `json:"symbolKind,omitempty"`
	Before     string     `json:"before,omitempty"`
	After      string     `json:"after,omitempty"`
	// Note says why, in one sentence a TypeScript developer would agree with.
	Note string `json:"note,omitempty"`
	// Replacement: a rename hint, the new entry point of a move, or the
	// deprecation's named replacement.
	Replacement string     `json:"replacement,omitempty"`
	Visibility  Visibility `json:"visibility,omitempty"`
	// AliasOf is set on a change of an alias path: the same change exists on
	// the canonical path.
	AliasOf string `json:"aliasOf,omitempty"`
	// FoldedInto is the removed ancestor this member change is implied by.
	FoldedInto string `json:"foldedInto,omitempty"`
	// Rule is the id of the classification row that decided this change
	// (engine/diff's rule table), so fixtures and reports can name it.
	Rule string `json:"rule,omitempty"`
	// Role is the direction role used to classify a type change
	// (parameter, return, callback-parameter, callback-return, output, unknown).
	Role string `json:"role,omitempty"`
}

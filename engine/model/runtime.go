package model

import "strconv"

// Signal C's vocabulary: what loading a package in a sandboxed Node
// showed, for the installed and the target copy, and how the two differ.
// engine/probe produces it; the checker's arbiter and the reports read it.

// RuntimeChangeKind names a difference the probe saw between the installed
// and the target copy's loads.
type RuntimeChangeKind string

// The runtime change kinds.
const (
	// RuntimeRequireThrows: require() of the installed copy gave a value,
	// the target's throws (Code says why: ERR_REQUIRE_ESM,
	// ERR_REQUIRE_ASYNC_MODULE, ...).
	RuntimeRequireThrows RuntimeChangeKind = "require-throws"
	// RuntimeImportThrows: the same for import().
	RuntimeImportThrows RuntimeChangeKind = "import-throws"
	// RuntimeKeyRemoved: a key of the loaded value (or of its default,
	// Key "default.x") is gone. OnDefault says the target still has it on
	// its default export, where a namespace moved it.
	RuntimeKeyRemoved RuntimeChangeKind = "key-removed"
	// RuntimeCallableLost: the value (Key ""), one of its members or the
	// default export is no longer a function.
	RuntimeCallableLost RuntimeChangeKind = "callable-lost"
	// RuntimeConstructableLost: the same for new.
	RuntimeConstructableLost RuntimeChangeKind = "constructable-lost"
	// RuntimeNamespaceInstead: require() gave a function and now gives a
	// module namespace whose default is the function (an ESM-only target
	// under require(esm)): calling or constructing the module breaks.
	RuntimeNamespaceInstead RuntimeChangeKind = "namespace-instead"
)

// RuntimeChange is one difference, for one loader.
type RuntimeChange struct {
	Kind   RuntimeChangeKind `json:"kind"`
	Loader Loader            `json:"loader"`
	// Key is the member concerned: "" for the value itself, "red",
	// "default" or "default.red".
	Key       string `json:"key,omitempty"`
	Code      string `json:"code,omitempty"`
	OnDefault bool   `json:"onDefault,omitempty"`
	// Subpath is the entry point loaded ("./v4" for pkg/v4); "" is the
	// package's main entry.
	Subpath string `json:"subpath,omitempty"`
	// Detail says it in words ("require() of 5.3.0 returns a module
	// namespace; the function is its default export").
	Detail string `json:"detail"`
}

// RuntimeMember is what typeof and new say of one exported value.
type RuntimeMember struct {
	Type          string `json:"type"`
	Callable      bool   `json:"callable,omitempty"`
	Constructable bool   `json:"constructable,omitempty"`
}

// RuntimeValue is the shape of what a loader returned: the value itself,
// its keys (own and inherited, up to the built-in prototypes) and, one
// level down, its default export.
type RuntimeValue struct {
	RuntimeMember
	// Namespace: a module namespace object (what import() returns, and
	// require() of an ES module).
	Namespace     bool                     `json:"namespace,omitempty"`
	Keys          map[string]RuntimeMember `json:"keys,omitempty"`
	KeysTruncated bool                     `json:"keysTruncated,omitempty"`
	Default       *RuntimeValue            `json:"default,omitempty"`
}

// RuntimeLoad is one loader's outcome.
type RuntimeLoad struct {
	// Value is nil when the load threw or never finished.
	Value   *RuntimeValue `json:"value,omitempty"`
	Threw   bool          `json:"threw,omitempty"`
	Code    string        `json:"code,omitempty"`
	Message string        `json:"message,omitempty"`
	// Missing is the package a failed load could not find (bare
	// specifier), and Importer the file that asked for it.
	Missing  string `json:"missing,omitempty"`
	Importer string `json:"importer,omitempty"`
	// TimedOut: the probe was killed before this loader finished.
	TimedOut bool `json:"timedOut,omitempty"`
}

// Got reports whether the loader produced a value.
func (l RuntimeLoad) Got() bool { return l.Value != nil }

// RuntimeCopy is one copy's probe: where it was loaded from and what each
// loader returned.
type RuntimeCopy struct {
	Version string      `json:"version"`
	Require RuntimeLoad `json:"require"`
	Import  RuntimeLoad `json:"import"`
	// Placement says how the copy was laid out ("loaded from its installed
	// directory node_modules/.pnpm/...", "placed with 2 dependencies: 1 from
	// your install, 1 fetched").
	Placement string `json:"placement,omitempty"`
	// Inconclusive is why this copy's loads decide nothing; "" when they do.
	Inconclusive string `json:"inconclusive,omitempty"`
	// Denied lists what the sandbox refused during the load.
	Denied []string `json:"denied,omitempty"`
	// Subpaths are the loads of the subpath entries the repository
	// imports (pkg/v4), beside the main entry's above.
	Subpaths []RuntimeEntry `json:"subpaths,omitempty"`
}

// RuntimeEntry is what each loader returned for one subpath entry of a
// copy.
type RuntimeEntry struct {
	// Subpath is the entry as exports names it: "./v4".
	Subpath string      `json:"subpath"`
	Require RuntimeLoad `json:"require"`
	Import  RuntimeLoad `json:"import"`
	// Inconclusive is why this entry's loads decide nothing (a timeout, a
	// refusal by the sandbox, a dependency missing); "" when they do.
	Inconclusive string `json:"inconclusive,omitempty"`
}

// Load is the outcome for one loader.
func (e RuntimeEntry) Load(l Loader) RuntimeLoad {
	if l == LoaderRequire {
		return e.Require
	}
	return e.Import
}

// Entry is the copy's loads of one entry point: the main entry for ""
// or ".", else the subpath's, and whether the copy has it.
func (c RuntimeCopy) Entry(subpath string) (RuntimeEntry, bool) {
	if subpath == "" || subpath == "." {
		return RuntimeEntry{Subpath: ".", Require: c.Require, Import: c.Import, Inconclusive: c.Inconclusive}, true
	}
	for _, e := range c.Subpaths {
		if e.Subpath == subpath {
			return e, true
		}
	}
	return RuntimeEntry{}, false
}

// Load is the outcome for one loader.
func (c RuntimeCopy) Load(l Loader) RuntimeLoad {
	if l == LoaderRequire {
		return c.Require
	}
	return c.Import
}

// RuntimeStatus says whether the probe decided anything.
type RuntimeStatus string

// The probe's statuses.
const (
	RuntimeCompared     RuntimeStatus = "compared"
	RuntimeInconclusive RuntimeStatus = "inconclusive"
)

// RuntimeNode is the Node that ran the probe, and why that one.
type RuntimeNode struct {
	// Version is what the binary reports ("v20.20.2"); Path where it is.
	Version string `json:"version"`
	// Path is this machine's: never in a report (the JSON contract is
	// the same on every machine).
	Path string `json:"-"`
	// Wanted is the repository's Node ("20", "22.11") and WantedSource
	// where it was read; both empty when nothing names one.
	Wanted       string `json:"wanted,omitempty"`
	WantedSource string `json:"wantedSource,omitempty"`
	// Why says how this binary was chosen ("the repository's Node 20
	// (.nvmrc), installed by nvm", "the current Node: no local install of
	// Node 18 under nvm, volta, asdf or fnm").
	Why string `json:"why"`
}

// RuntimeResult is Signal C for one package: both copies probed on one
// Node, and the changes between them.
type RuntimeResult struct {
	Package   string          `json:"package"`
	Node      RuntimeNode     `json:"node"`
	Installed RuntimeCopy     `json:"installed"`
	Target    RuntimeCopy     `json:"target"`
	Status    RuntimeStatus   `json:"status"`
	Reason    string          `json:"reason,omitempty"`
	Changes   []RuntimeChange `json:"changes,omitempty"`
}

// Coverage says in one line what the probe covered: which Node ran and
// why that one, and what it found or why it could not decide.
func (r RuntimeResult) Coverage() string {
	node := "Node " + r.Node.Version
	if r.Node.Why != "" {
		node += " (" + r.Node.Why + ")"
	}
	if r.Status != RuntimeCompared {
		return "runtime: " + r.Package + " inconclusive on " + node + ": " + r.Reason
	}
	found := "the same shape"
	if n := len(r.Changes); n == 1 {
		found = "1 change"
	} else if n > 1 {
		found = strconv.Itoa(n) + " changes"
	}
	return "runtime: " + r.Package + " " + r.Installed.Version + " and " + r.Target.Version + " loaded on " + node + ": " + found
}

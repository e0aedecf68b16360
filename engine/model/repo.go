package model

// DepType is the manifest field a dependency is declared in.
type DepType string

// The manifest fields Uptide reads.
const (
	Prod     DepType = "dependencies"
	Dev      DepType = "devDependencies"
	Optional DepType = "optionalDependencies"
	Peer     DepType = "peerDependencies"
)

// SpecKind says what a dependency specifier, as written, points at.
type SpecKind string

// The specifier kinds. Only Range, Exact, Tag and Alias come from a registry.
const (
	SpecRange     SpecKind = "range"     // ^1.2.3, ~1, >=2 <3, 1.x, *
	SpecExact     SpecKind = "exact"     // 1.2.3
	SpecTag       SpecKind = "tag"       // latest, next, beta
	SpecAlias     SpecKind = "alias"     // npm:real-name@range
	SpecWorkspace SpecKind = "workspace" // workspace:*, workspace:^1.0.0
	SpecLink      SpecKind = "link"      // link:../x
	SpecFile      SpecKind = "file"      // file:../x, ./x, ../x
	SpecGit       SpecKind = "git"       // git+https://…, github:user/repo, user/repo
	SpecURL       SpecKind = "url"       // https://…/x.tgz
	SpecCatalog   SpecKind = "catalog"   // catalog: whose entry could not be resolved
)

// FromRegistry reports whether a specifier of this kind is resolved through a
// registry (and so has an installed version and an available one).
func (k SpecKind) FromRegistry() bool {
	switch k {
	case SpecRange, SpecExact, SpecTag, SpecAlias:
		return true
	}
	return false
}

// Declaration is one dependency as one workspace's package.json declares it.
type Declaration struct {
	// Name is the key in the manifest: the name the code imports.
	Name string `json:"name"`
	// Package is the registry package it resolves to: Name, or the real
	// name behind an npm: alias.
	Package string  `json:"package"`
	Type    DepType `json:"type"`
	// Spec is the specifier exactly as written (catalog:, npm:x@^1, ^1.2.3).
	Spec string   `json:"spec"`
	Kind SpecKind `json:"kind"`
	// Range is the effective version range or tag after catalog and alias
	// resolution ("^1.2.3" for "npm:x@^1.2.3" or a catalog entry).
	Range string `json:"range,omitempty"`
	// Catalog names the pnpm catalog the specifier came from ("default" for
	// a bare catalog:), empty when it did not come from one.
	Catalog string `json:"catalog,omitempty"`
}

// Workspace is one package of the repository; the root is a workspace too.
type Workspace struct {
	// Path is relative to the repository root, slash-separated; "." is the root.
	Path    string `json:"path"`
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
	Private bool   `json:"private,omitempty"`
	// Manifest is the absolute path of its package.json.
	Manifest     string        `json:"-"`
	Declarations []Declaration `json:"declarations"`
	// LinkedFrom is set on a package that no workspace glob names but a
	// package of the repository declares as a file: dependency (npm's
	// monorepo shape before workspaces): the path of the package that
	// links it. npm installs its dependencies, never its devDependencies.
	LinkedFrom string `json:"linkedFrom,omitempty"`
}

// Repository is a JavaScript repository as its package manager sees it.
type Repository struct {
	// Root is the absolute directory of the root package.json.
	Root string `json:"root"`
	// PackageManager is npm, pnpm, yarn or bun: from the packageManager field,
	// else the lockfile present, else npm.
	PackageManager string `json:"packageManager"`
	// PackageManagerField is the packageManager field as written, if any.
	PackageManagerField string      `json:"packageManagerField,omitempty"`
	Workspaces          []Workspace `json:"workspaces"`
	// Catalogs maps catalog name ("default" for catalog:) to package → range.
	Catalogs map[string]map[string]string `json:"catalogs,omitempty"`
	// Problems are workspace manifests that could not be read; the other
	// workspaces are still reported.
	Problems []Problem `json:"problems,omitempty"`
}

// Problem is a piece of input Uptide could not use, with where and what to do.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

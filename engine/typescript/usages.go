package typescript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// UsageRequest names a package and the workspace to find its usages in.
type UsageRequest struct {
	// RepoRoot is the repository root: usage files are relative to it.
	RepoRoot string
	// Workspace is the workspace's directory, relative to RepoRoot or
	// absolute; "" is RepoRoot. Usages record it repository-relative ("."
	// for the root).
	Workspace string
	// Package is the bare specifier ("zod", "@aws-sdk/client-s3").
	Package string
	// PackageDir is the installed copy to read; empty lets the driver
	// resolve Package from the workspace with its own module resolution,
	// following symlinks (pnpm's store).
	PackageDir string
	// TSConfig overrides the workspace's tsconfig.json. Empty: the
	// workspace's own (and its project references, one level down); without
	// one, the nearest tsconfig above inside the repository for options
	// only; without any, **/*.{ts,tsx} minus node_modules, dist and build.
	TSConfig string
	// Exclude lists directories whose files are not scanned: other
	// workspaces that declare the same dependency and report their own
	// usages.
	Exclude []string
	// Installed, when set, is the installed copy's surface, extracted by
	// ExtractSurface from InstalledDir: the driver builds its position map
	// from it instead of a program over the package, when the package
	// resolves to that directory with its own declarations. Without it, or
	// when the package resolves elsewhere, the driver extracts its own.
	Installed    *model.Surface
	InstalledDir string
}

// UsageResult is Signal A for one package in one workspace.
type UsageResult struct {
	// PackageDir is the real directory the declarations were read from.
	PackageDir string
	// TypesFrom names the package the declarations came from when it is
	// not the package itself (@types/express).
	TypesFrom string
	// Unresolved says why the package could not be found; Usages is then
	// empty but Importers and Unanalyzed still hold what the sources say.
	Unresolved string
	// NoTypes says why the installed copy has no declarations.
	NoTypes string
	// Config is the repository-relative tsconfig the workspace was read
	// with ("" for the built-in defaults); ConfigKind is own, above (the
	// nearest one up, for options only) or none, as for CompileResult.
	Config     string
	ConfigKind string
	// IncludesJS: the workspace's JavaScript was scanned (allowJs).
	IncludesJS bool
	// Files is the number of the workspace's files scanned: those whose
	// imports can reach the package, the ambient ones and those with a
	// computed load; every file when the package declares globals, a
	// declaration every file sees reaches it, or most files reach it. The
	// others are not read.
	Files int
	// Importers are the repository-relative files that load the package or
	// a barrel of it: the files Signal B type-checks.
	Importers []string
	// Barrels are the repository files that re-export the package.
	Barrels    []string
	Usages     []model.Usage
	Unanalyzed []model.Unanalyzed
	// Computed are the computed loads that cannot load the package.
	Computed []model.ComputedLoad
	// Unmapped counts references into the package whose declaration has no
	// surface path (a type the package does not export).
	Unmapped int
}

// FindUsages finds every reference to req.Package in one workspace, with
// the compiler this Adapter was created with: the repository's own when
// ResolveCompiler found one. Usage paths are the canonical paths of the
// installed copy's surface, extracted by the same walker.
func (a *Adapter) FindUsages(ctx context.Context, req UsageRequest) (*UsageResult, error) {
	if req.Package == "" {
		return nil, fmt.Errorf("find usages: no package named")
	}
	if req.RepoRoot == "" {
		return nil, fmt.Errorf("find usages of %s: no repository root given", req.Package)
	}
	root, err := filepath.Abs(req.RepoRoot)
	if err != nil {
		return nil, err
	}
	ws := req.Workspace
	if ws == "" {
		ws = root
	} else if !filepath.IsAbs(ws) {
		ws = filepath.Join(root, ws)
	}
	if st, err := os.Stat(ws); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("find usages of %s: workspace %s is not a directory", req.Package, ws)
	}
	workspace := relSlash(root, ws)
	params := map[string]any{
		"repoRoot":     root,
		"workspaceDir": ws,
		"name":         req.Package,
	}
	if req.PackageDir != "" {
		dir, err := filepath.Abs(req.PackageDir)
		if err != nil {
			return nil, err
		}
		params["pkgDir"] = dir
	}
	if req.TSConfig != "" {
		cfg := req.TSConfig
		if !filepath.IsAbs(cfg) {
			cfg = filepath.Join(ws, cfg)
		}
		params["tsconfig"] = cfg
	}
	exclude := []string{}
	for _, d := range req.Exclude {
		if !filepath.IsAbs(d) {
			d = filepath.Join(root, d)
		}
		exclude = append(exclude, d)
	}
	params["exclude"] = exclude
	if req.Installed != nil && req.InstalledDir != "" {
		dir, err := filepath.Abs(req.InstalledDir)
		if err != nil {
			return nil, err
		}
		params["installed"] = installedParam(dir, req.Installed)
	}
	if src := FindWorkspaceSources(root, ws); len(src.Paths) > 0 {
		params["sourcePaths"] = src.Paths
	}

	var out struct {
		PackageDir string               `json:"packageDir"`
		TypesFrom  string               `json:"typesFrom"`
		Unresolved string               `json:"unresolved"`
		NoTypes    string               `json:"noTypes"`
		Config     string               `json:"tsconfig"`
		ConfigKind string               `json:"configKind"`
		IncludesJS bool                 `json:"includesJs"`
		Files      int                  `json:"files"`
		Importers  []string             `json:"importers"`
		Barrels    []string             `json:"barrels"`
		Usages     []model.Usage        `json:"usages"`
		Unanalyzed []model.Unanalyzed   `json:"unanalyzed"`
		Computed   []model.ComputedLoad `json:"computedLoads"`
		Unmapped   int                  `json:"unmapped"`
	}
	subject := req.Package + " in " + ws
	if err := a.call(ctx, "usages", params, subject, &out); err != nil {
		return nil, err
	}
	res := &UsageResult{
		PackageDir: out.PackageDir,
		TypesFrom:  out.TypesFrom,
		Unresolved: out.Unresolved,
		NoTypes:    out.NoTypes,
		Config:     out.Config,
		ConfigKind: out.ConfigKind,
		IncludesJS: out.IncludesJS,
		Files:      out.Files,
		Importers:  nonNil(out.Importers),
		Barrels:    nonNil(out.Barrels),
		Usages:     out.Usages,
		Unanalyzed: out.Unanalyzed,
		Computed:   out.Computed,
		Unmapped:   out.Unmapped,
	}
	if res.Usages == nil {
		res.Usages = []model.Usage{}
	}
	if res.Unanalyzed == nil {
		res.Unanalyzed = []model.Unanalyzed{}
	}
	for i := range res.Usages {
		u := &res.Usages[i]
		u.Workspace = workspace
		if err := checkUsage(u); err != nil {
			return nil, &DriverError{Subject: subject, Method: "usages", Code: CodeMalformed, Message: err.Error()}
		}
	}
	for i := range res.Unanalyzed {
		res.Unanalyzed[i].Workspace = workspace
	}
	for i := range res.Computed {
		res.Computed[i].Workspace = workspace
	}
	slices.SortStableFunc(res.Usages, model.CompareUsages)
	return res, nil
}

var (
	knownAccess = map[model.Access]bool{
		model.AccessCall: true, model.AccessConstruct: true, model.AccessRead: true, model.AccessWrite: true,
		model.AccessImplement: true, model.AccessTypeRef: true, model.AccessImport: true,
	}
	knownVia = map[model.Via]bool{
		model.ViaDirect: true, model.ViaAlias: true, model.ViaReexport: true, model.ViaDestructure: true,
		model.ViaInferred: true, model.ViaRequire: true,
	}
)

// checkUsage rejects what no correct driver produces, so a bad answer is
// a driver error rather than a wrong finding downstream.
func checkUsage(u *model.Usage) error {
	switch {
	case u.File == "" || strings.HasPrefix(u.File, "../") || filepath.IsAbs(u.File):
		return fmt.Errorf("usage file %q is not inside the repository", u.File)
	case u.Line < 1 || u.Column < 1 || u.End < u.Start:
		return fmt.Errorf("%s: bad position %d:%d [%d,%d)", u.File, u.Line, u.Column, u.Start, u.End)
	case u.SymbolPath == "" || u.CanonicalPath == "":
		return fmt.Errorf("%s:%d: usage without a path", u.File, u.Line)
	case !knownAccess[u.Access]:
		return fmt.Errorf("%s:%d: unknown access %q", u.File, u.Line, u.Access)
	case !knownVia[u.Via]:
		return fmt.Errorf("%s:%d: unknown via %q", u.File, u.Line, u.Via)
	case u.Loader != model.LoaderImport && u.Loader != model.LoaderRequire:
		return fmt.Errorf("%s:%d: unknown loader %q", u.File, u.Line, u.Loader)
	}
	return nil
}

func relSlash(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// installedParam is the part of a surface the driver's position map reads,
// one array per symbol (path, kind, file, pos, exportedFrom, aliasOf): a
// large package's surface is most of the request.
func installedParam(dir string, s *model.Surface) map[string]any {
	syms := make([][]any, 0, len(s.Symbols))
	for i := range s.Symbols {
		y := &s.Symbols[i]
		from := y.ExportedFrom
		if from == nil {
			from = []string{}
		}
		syms = append(syms, []any{y.Path, y.Kind, y.File, y.Pos, from, y.AliasOf})
	}
	p := map[string]any{
		"dir":     dir,
		"key":     fmt.Sprintf("%s@%s/%d", s.Package, s.Version, s.SchemaVersion),
		"symbols": syms,
	}
	if len(s.ExportEqualsRoots) > 0 {
		p["exportEquals"] = s.ExportEqualsRoots
	}
	if s.UMD {
		p["umd"] = true
	}
	return p
}

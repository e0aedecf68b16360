package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/uptide/uptide/engine/groups"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/engine/typescript"
)

// typesLabel keeps the surface cache of a DefinitelyTyped release apart
// from the runtime package's own: the surface is extracted under the
// runtime's name (the paths Signal A resolves), at the types' version.
const typesLabel = "+types"

// typesMember analyzes a package whose declarations come from
// DefinitelyTyped against its @types releases: the baseline is the release
// typing the installed runtime's major, the target the release typing the
// target's (never below the baseline; the newest when that major has
// none). A package with no declarations at all keeps its load sites and
// manifests for the module-format check and says so.
func (c *checker) typesMember(ctx context.Context, run *memberRun, sa *typescript.Adapter, pkgDir, typesFrom, noTypes string) *memberRun {
	m := run.m
	if typesFrom == "" {
		run.notes = append(run.notes, fmt.Sprintf("%s@%s has no declarations (%s): only its manifests and require() sites are analyzed", m.name(), m.row.Installed, noTypes))
		return run.fail(model.StatusPartial, fmt.Sprintf("%s@%s has no declarations and no @types package is installed", m.name(), m.row.Installed))
	}
	installedTypes := manifestVersionAt(pkgDir)
	pk, err := c.client.Packument(ctx, typesFrom, false)
	if err != nil {
		return run.fail(model.StatusNotAnalyzed, fmt.Sprintf("%s is typed by %s, whose releases the registry did not give: %v", m.name(), typesFrom, err))
	}
	baseline := installedTypes
	if !sameMajor(installedTypes, m.row.Installed) {
		if v, _ := groups.TypesRelease(pk, m.row.Installed, "0.0.0-0"); v != "" {
			baseline = v
			run.warnings = append(run.warnings, fmt.Sprintf("%s %s is installed for %s %s; the baseline is %s %s, which types the installed major", typesFrom, installedTypes, m.name(), m.row.Installed, typesFrom, baseline))
		}
	}
	target, _ := groups.TypesRelease(pk, m.target, baseline)
	if target == "" {
		target = baseline
	}
	run.linkName = typesFrom
	run.rep.TypesVia = &model.TypesVia{Package: typesFrom, From: baseline, To: target}
	if baseline != installedTypes {
		run.rep.TypesVia.Installed = installedTypes
	}

	instDir := pkgDir
	if baseline != installedTypes {
		p, err := c.fetch(ctx, typesFrom, baseline)
		if err != nil {
			return run.fail(model.StatusNotAnalyzed, fmt.Sprintf("fetching %s@%s: %v", typesFrom, baseline, err))
		}
		instDir, run.baselineDir = p.Dir, p.Dir
	}
	if run.inst, err = sa.ExtractSurface(ctx, instDir, m.name(), baseline+typesLabel); err != nil {
		return run.fail(model.StatusNotAnalyzed, fmt.Sprintf("reading %s@%s: %v", typesFrom, baseline, err))
	}
	run.inst.Version, run.inst.TypesFrom = baseline, typesFrom
	if target == baseline {
		run.tgt = run.inst
		if shipsDeclarations(run.runtimeTgt) {
			// bcryptjs 3 types itself: its declarations replace the
			// @types release, and nothing here compiled them.
			run.compileGap = fmt.Sprintf("%s@%s ships its own declarations, which replace %s %s and were not compiled", m.name(), m.target, typesFrom, baseline)
		} else {
			run.noCompile = fmt.Sprintf("%s has no release for %s %s other than %s: the compiler has nothing to judge", typesFrom, m.name(), m.target, baseline)
			run.notes = append(run.notes, run.noCompile)
		}
		c.diffRun(ctx, run, sa, "", "")
		return run
	}
	p, err := c.fetch(ctx, typesFrom, target)
	if err != nil {
		return run.fail(model.StatusNotAnalyzed, fmt.Sprintf("fetching %s@%s: %v", typesFrom, target, err))
	}
	run.tgtDir = p.Dir
	if run.tgt, err = sa.ExtractSurface(ctx, p.Dir, m.name(), target+typesLabel); err != nil {
		return run.fail(model.StatusNotAnalyzed, fmt.Sprintf("reading %s@%s: %v", typesFrom, target, err))
	}
	run.tgt.Version, run.tgt.TypesFrom = target, typesFrom
	c.diffRun(ctx, run, sa, instDir, p.Dir)
	return run
}

// manifestVersionAt reads the version of the package in dir.
func manifestVersionAt(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return ""
	}
	var m struct {
		Version string `json:"version"`
	}
	_ = json.Unmarshal(b, &m)
	return m.Version
}

func sameMajor(a, b string) bool {
	va, errA := semver.Parse(a)
	vb, errB := semver.Parse(b)
	return errA == nil && errB == nil && va.Major() == vb.Major()
}

// shipsDeclarations: the package in dir declares its own types (a types
// or typings field, a types condition in its exports, an index.d.ts or a
// .d.ts beside its main), so no @types release speaks for it.
func shipsDeclarations(dir string) bool {
	if dir == "" {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return false
	}
	var m struct {
		Types   string          `json:"types"`
		Typings string          `json:"typings"`
		Main    string          `json:"main"`
		Exports json.RawMessage `json:"exports"`
	}
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	if m.Types != "" || m.Typings != "" || bytes.Contains(m.Exports, []byte(`"types"`)) {
		return true
	}
	candidates := []string{"index.d.ts"}
	if m.Main != "" {
		stem := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(m.Main, ".js"), ".cjs"), ".mjs")
		candidates = append(candidates, stem+".d.ts", path.Join(stem, "index.d.ts"))
	}
	for _, c := range candidates {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(path.Clean(c)))); err == nil {
			return true
		}
	}
	return false
}

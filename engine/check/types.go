package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

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
		return c.untypedMember(ctx, run, sa, noTypes)
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
	if own := c.ownTypes(ctx, run, sa, pk); own != nil {
		return c.ownTypesMember(ctx, run, sa, pkgDir, typesFrom, installedTypes, baseline, own)
	}
	target, _ := groups.TypesRelease(pk, m.target, baseline)
	if target == "" {
		target = baseline
	}
	run.linkName = typesFrom
	instDir, failed := c.typesBaseline(ctx, run, sa, pkgDir, typesFrom, installedTypes, baseline, target)
	if failed != nil {
		return failed
	}
	if instDir != pkgDir {
		run.baselineDir = instDir
	}
	if target == baseline {
		run.tgt = run.inst
		if run.compileGap == "" {
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

// ownTypes is the target's own surface when the target ships declarations
// (bcryptjs 3, config 5, pino 7 and later), nil when it ships none: its
// tarball, fetched for the module-format check anyway, says so; failing
// that, DefinitelyTyped's stub release does.
func (c *checker) ownTypes(ctx context.Context, run *memberRun, sa *typescript.Adapter, types *model.Packument) *model.Surface {
	m := run.m
	if run.runtimeTgt == "" {
		return nil
	}
	s, err := sa.ExtractSurface(ctx, run.runtimeTgt, m.name(), m.target)
	var nt *typescript.NoTypesError
	switch {
	case err == nil:
		return s
	case !errors.As(err, &nt):
		// The target types itself (its declarations would replace the
		// @types release), but they could not be read: nothing compiles
		// what the upgrade installs, so no verdict may claim safety.
		run.compileGap = fmt.Sprintf("%s@%s ships its own declarations, which could not be read: %v", m.name(), m.target, err)
		if groups.ShipsOwnTypes(types, m.target) {
			run.warnings = append(run.warnings, fmt.Sprintf("%s@%s ships its own types, which could not be read: %v", m.name(), m.target, err))
		}
	}
	return nil
}

// ownTypesMember analyzes a package typed by DefinitelyTyped whose target
// types itself: the baseline is the @types release, the target the
// package's own declarations, and the overlay links the target alone, so
// the compile runs against the declarations the upgrade installs, not the
// @types package the upgrade removes.
func (c *checker) ownTypesMember(ctx context.Context, run *memberRun, sa *typescript.Adapter, pkgDir, typesFrom, installedTypes, baseline string, own *model.Surface) *memberRun {
	m := run.m
	run.removesTypes = typesFrom
	instDir, failed := c.typesBaseline(ctx, run, sa, pkgDir, typesFrom, installedTypes, baseline, "")
	if failed != nil {
		return failed
	}
	run.tgt, run.tgtDir = own, run.runtimeTgt
	run.notes = append(run.notes, fmt.Sprintf("%s %s ships its own types: compiled against them; the upgrade removes %s %s", m.name(), m.target, typesFrom, installedTypes))
	c.diffRun(ctx, run, sa, instDir, run.runtimeTgt)
	return run
}

// typesBaseline reads the member's installed surface from the @types
// release baseline (the installed one in pkgDir, else fetched) and says so
// in its report, with the release the target is read from ("" for a
// target typing itself); instDir is where it was read, or the failed run.
func (c *checker) typesBaseline(ctx context.Context, run *memberRun, sa *typescript.Adapter, pkgDir, typesFrom, installedTypes, baseline, target string) (instDir string, failed *memberRun) {
	run.rep.TypesVia = &model.TypesVia{Package: typesFrom, From: baseline, To: target}
	instDir = pkgDir
	if baseline != installedTypes {
		run.rep.TypesVia.Installed = installedTypes
		p, err := c.fetch(ctx, typesFrom, baseline)
		if err != nil {
			return "", run.fail(model.StatusNotAnalyzed, fmt.Sprintf("fetching %s@%s: %v", typesFrom, baseline, err))
		}
		instDir = p.Dir
	}
	var err error
	if run.inst, err = sa.ExtractSurface(ctx, instDir, run.m.name(), baseline+typesLabel); err != nil {
		return "", run.fail(model.StatusNotAnalyzed, fmt.Sprintf("reading %s@%s: %v", typesFrom, baseline, err))
	}
	run.inst.Version, run.inst.TypesFrom = baseline, typesFrom
	return instDir, nil
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

// untypedMember: neither copy ships declarations and no @types package
// types the package (faker 5 → 6.6.6), so there is no surface to diff and
// nothing for the compiler to judge. The sites are still there (the
// loads, and the member chains read from them): the runtime probe, which
// loads both copies, is the arbiter of each (judgeUntyped). A target that
// types itself keeps the old answer: its types cannot be compared.
func (c *checker) untypedMember(ctx context.Context, run *memberRun, sa *typescript.Adapter, noTypes string) *memberRun {
	m := run.m
	fallback := func() *memberRun {
		run.notes = append(run.notes, fmt.Sprintf("%s@%s has no declarations (%s): only its manifests and require() sites are analyzed", m.name(), m.row.Installed, noTypes))
		return run.fail(model.StatusPartial, fmt.Sprintf("%s@%s has no declarations and no @types package is installed", m.name(), m.row.Installed))
	}
	// No file loads it: the probe would have nothing to judge.
	if run.runtimeTgt == "" || run.rep.Sites == 0 {
		return fallback()
	}
	var nt *typescript.NoTypesError
	if _, err := sa.ExtractSurface(ctx, run.runtimeTgt, m.name(), m.target); !errors.As(err, &nt) {
		return fallback()
	}
	run.untyped = fmt.Sprintf("%s ships no declarations (neither %s nor %s, and no @types package types it): the verdict rests on the runtime probe", m.name(), m.row.Installed, m.target)
	run.noCompile = run.untyped
	run.notes = append(run.notes, run.untyped)
	run.ok = true
	return run
}

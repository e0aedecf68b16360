package semver

import (
	"fmt"
	"strings"

	mm "github.com/Masterminds/semver/v3"
)

// maxSafeInteger is the largest version component npm accepts: node-semver
// keeps components as JavaScript numbers and rejects anything larger.
const maxSafeInteger = 1<<53 - 1

// Version is one parsed npm version.
type Version struct {
	v *mm.Version
}

// Parse reads a full version (major.minor.patch, optional -prerelease and
// +build). Like npm it tolerates surrounding spaces and a leading "v" or "=";
// a partial version such as "1.2" is not a version.
func Parse(s string) (*Version, error) {
	t := strings.TrimLeft(strings.TrimSpace(s), "v= \t")
	if t == "" {
		return nil, fmt.Errorf("invalid version %q: empty", s)
	}
	v, err := mm.StrictNewVersion(t)
	if err != nil {
		return nil, fmt.Errorf("invalid version %q: %w", s, err)
	}
	if v.Major() > maxSafeInteger || v.Minor() > maxSafeInteger || v.Patch() > maxSafeInteger {
		return nil, fmt.Errorf("invalid version %q: a component exceeds 2^53-1", s)
	}
	return &Version{v: v}, nil
}

// MustParse is Parse for versions known to be valid (tests, constants).
func MustParse(s string) *Version {
	v, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return v
}

// Major, Minor and Patch return the numeric components.
func (v *Version) Major() uint64 { return v.v.Major() }

// Minor returns the minor component.
func (v *Version) Minor() uint64 { return v.v.Minor() }

// Patch returns the patch component.
func (v *Version) Patch() uint64 { return v.v.Patch() }

// Prerelease returns the prerelease identifiers without the dash, "" for a release.
func (v *Version) Prerelease() string { return v.v.Prerelease() }

// Build returns the build metadata without the plus, which never orders versions.
func (v *Version) Build() string { return v.v.Metadata() }

// IsPrerelease reports whether the version has prerelease identifiers.
func (v *Version) IsPrerelease() bool { return v.v.Prerelease() != "" }

// String is the canonical form: no "v", build metadata kept.
func (v *Version) String() string { return v.v.String() }

// Compare orders two versions as npm does: build metadata is ignored, a
// prerelease sorts below its release, numeric identifiers numerically.
func (v *Version) Compare(o *Version) int { return v.v.Compare(o.v) }

// sameTuple reports whether both share major.minor.patch.
func (v *Version) sameTuple(o *Version) bool {
	return v.Major() == o.Major() && v.Minor() == o.Minor() && v.Patch() == o.Patch()
}

// Compare orders two version strings. Invalid versions sort below every
// valid one (so a sort puts them first and a max never picks them), and
// among themselves by plain string order, so sorting stays total.
func Compare(a, b string) int {
	va, errA := Parse(a)
	vb, errB := Parse(b)
	switch {
	case errA != nil && errB != nil:
		return strings.Compare(a, b)
	case errA != nil:
		return -1
	case errB != nil:
		return 1
	}
	return va.Compare(vb)
}

// IsExact reports whether a dependency specifier names exactly one version
// ("1.2.3", "=1.2.3", "v1.2.3-beta.1"), as opposed to a range or a tag.
func IsExact(spec string) bool {
	_, err := Parse(spec)
	return err == nil
}

// Exact returns the canonical version an exact specifier names, so that
// "=1.0.0" and "1.0.0" compare equal as pins.
func Exact(spec string) (string, bool) {
	v, err := Parse(spec)
	if err != nil {
		return "", false
	}
	return v.String(), true
}

// Newest returns the highest valid version, ignoring prereleases unless
// includePrerelease; "" when there is none. Equal versions that differ only
// in build metadata resolve to the smaller string, so map order never shows.
func Newest(versions []string, includePrerelease bool) string {
	var best *Version
	bestRaw := ""
	for _, s := range versions {
		v, err := Parse(s)
		if err != nil || (!includePrerelease && v.IsPrerelease()) {
			continue
		}
		if best == nil || better(v, s, best, bestRaw) {
			best, bestRaw = v, s
		}
	}
	return bestRaw
}

// better breaks ties between equal versions by string so results do not
// depend on the order of the input.
func better(v *Version, raw string, best *Version, bestRaw string) bool {
	if c := v.Compare(best); c != 0 {
		return c > 0
	}
	return raw < bestRaw
}

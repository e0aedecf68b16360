package groups

import (
	"fmt"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
)

// TypesRelease picks the release of a DefinitelyTyped package that types
// target: the newest at target's major.minor, else at its major, else the
// newest there is, never below installed. Deprecated releases and stubs
// (left when a package starts shipping its own types, see OwnTypesFrom) and
// prereleases are passed over. It returns "" when nothing is above installed; how says
// which rule chose ("newest at 19.0", "newest at 19", "newest release").
func TypesRelease(types *model.Packument, target, installed string) (version, how string) {
	return typesRelease(newCache(Packuments{"": types}).releases(""), target, installed)
}

func typesRelease(rs []relVersion, target, installed string) (string, string) {
	t, err := semver.Parse(target)
	if err != nil {
		return "", ""
	}
	tiers := []struct {
		match func(*semver.Version) bool
		how   string
	}{
		{func(v *semver.Version) bool { return v.Major() == t.Major() && v.Minor() == t.Minor() },
			fmt.Sprintf("newest at %d.%d", t.Major(), t.Minor())},
		{func(v *semver.Version) bool { return v.Major() == t.Major() }, fmt.Sprintf("newest at %d", t.Major())},
		{func(*semver.Version) bool { return true }, "newest release"},
	}
	for _, tier := range tiers {
		for _, r := range rs {
			if r.v.IsPrerelease() || r.rel.Deprecated != "" || isStub(*r.rel) || !tier.match(r.v) {
				continue
			}
			if semver.Compare(r.raw, installed) <= 0 {
				return "", ""
			}
			return r.raw, tier.how
		}
	}
	return "", ""
}

// OwnTypesFrom is the version from which pkg ships its own declarations,
// as DefinitelyTyped records it in types, pkg's @types package: the
// lowest stub release, which DefinitelyTyped publishes at the version of
// pkg that started shipping them (@types/bcryptjs 3.0.0, deprecated "This
// is a stub types definition. bcryptjs provides its own type
// definitions"; @types/pino 7.0.5 of the older kind, which depends on pino
// itself). "" when types has none. Only the registry's abbreviated
// documents are read: a target's own tarball, where check reads it, says
// the same without a stub.
func OwnTypesFrom(types *model.Packument) string {
	return ownTypesFrom(newCache(Packuments{"": types}).releases(""))
}

func ownTypesFrom(rs []relVersion) string {
	from := ""
	for _, r := range rs {
		if isStub(*r.rel) {
			from = r.raw // newest first: the last one seen is the lowest
		}
	}
	return from
}

// ShipsOwnTypes reports whether version of a package ships its own
// declarations by its @types package's stub: at or above the stub's
// major.minor (pino 7.0.0 ships them; the stub is 7.0.5).
func ShipsOwnTypes(types *model.Packument, version string) bool {
	return shipsOwnTypes(ownTypesFrom(newCache(Packuments{"": types}).releases("")), version)
}

func shipsOwnTypes(from, version string) bool {
	f, err1 := semver.Parse(from)
	v, err2 := semver.Parse(version)
	if err1 != nil || err2 != nil {
		return false
	}
	return v.Major() > f.Major() || v.Major() == f.Major() && v.Minor() >= f.Minor()
}

// isStub reports whether a release of an @types package is a stub: one
// deprecated because its package types itself, or one depending on the
// package it types (the older stubs).
func isStub(r model.Release) bool {
	d := strings.ToLower(r.Deprecated)
	if strings.Contains(d, "stub") || strings.Contains(d, "its own type") {
		return true
	}
	typed := TypedPackage(r.Name)
	_, dependsOnTyped := r.Dependencies[typed]
	return typed != "" && dependsOnTyped
}

package groups

import (
	"fmt"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
)

// TypesRelease picks the release of a DefinitelyTyped package that types
// target: the newest at target's major.minor, else at its major, else the
// newest there is, never below installed. Deprecated releases (the stubs
// left when a package starts shipping its own types) and prereleases are
// passed over. It returns "" when nothing is above installed; how says
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
			if r.v.IsPrerelease() || r.rel.Deprecated != "" || !tier.match(r.v) {
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

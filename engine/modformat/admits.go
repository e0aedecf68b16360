package modformat

import (
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine/semver"
)

// NodeAdmits reports whether an engines.node range admits the Node a
// repository runs (a NodeInfo.Version). A bare major or major.minor means
// the newest release of that line, as HasRequireESM reads it: ">=22.12.0"
// admits "22" and "22.12" but not "20" or "22.11". known is false when
// either side cannot be judged offline: an empty or unreadable range, an
// unknown Node, or "lts"/"latest", whose release moves with time.
func NodeAdmits(enginesNode, version string) (admits, known bool) {
	rng := strings.TrimSpace(enginesNode)
	if rng == "" || version == "" || version == versionLTS || version == versionLatest {
		return false, false
	}
	r, err := semver.ParseRange(rng)
	if err != nil {
		return false, false
	}
	major, minor, hasMinor, ok := splitVersion(version)
	if !ok {
		return false, false
	}
	// The newest release of the line stands for it; a full version is
	// itself.
	const newest = "999999"
	probe := strings.Join([]string{strconv.Itoa(major), newest, newest}, ".")
	if hasMinor {
		probe = strconv.Itoa(major) + "." + strconv.Itoa(minor) + "." + newest
		if strings.Count(version, ".") == 2 {
			probe = version
		}
	}
	return r.Satisfies(probe), true
}

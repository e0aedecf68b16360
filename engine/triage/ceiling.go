package triage

import (
	"sort"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
)

// Judge checks the package at one version: its verdict in the plan's
// words (safe, possible, breaking, partial, unknown), its breaking sites,
// and the check's reason when it did not decide.
type Judge func(version string) (verdict string, sites int, reason string, err error)

// Ceiling bisects the releases above installed for the newest one judged
// safe, assuming what breaks at one release breaks at the later ones (the
// steps list what was checked, so a reader can see it). A check that does
// not decide (partial, unknown) stops the bisection: the ceiling is then
// what is known, and Stopped says why.
func Ceiling(pkg, installed string, versions []string, judge Judge) (model.Ceiling, error) {
	c := model.Ceiling{Package: pkg, Installed: installed, Version: installed, Steps: []model.CeilingStep{}}
	from, err := semver.Parse(installed)
	if err != nil {
		c.Version, c.Stopped = "", "the installed version "+installed+" is not a version"
		return c, nil
	}
	var above []*semver.Version
	for _, v := range versions {
		sv, err := semver.Parse(v)
		if err == nil && !sv.IsPrerelease() && sv.Compare(from) > 0 {
			above = append(above, sv)
		}
	}
	sort.Slice(above, func(i, j int) bool { return above[i].Compare(above[j]) < 0 })
	if len(above) == 0 {
		c.Latest = installed
		return c, nil
	}
	c.Latest = above[len(above)-1].String()
	// Invariant: every release up to lo is safe (lo -1 is the installed
	// one), every release from hi on has impact.
	lo, hi := -1, len(above)
	for lo+1 < hi {
		// The newest candidate first: the common answer is "latest is fine".
		mid := (lo + hi + 1) / 2
		if len(c.Steps) == 0 {
			mid = hi - 1
		}
		v := above[mid].String()
		verdict, sites, reason, err := judge(v)
		if err != nil {
			return c, err
		}
		c.Steps = append(c.Steps, model.CeilingStep{Version: v, Verdict: verdict, Sites: sites, Reason: reason})
		switch verdict {
		case "safe":
			lo = mid
		case "breaking", "possible":
			hi = mid
		default:
			c.Stopped = v + " is " + verdict
			if reason != "" {
				c.Stopped += ": " + reason
			}
			if lo < 0 {
				c.Version = ""
			} else {
				c.Version = above[lo].String()
			}
			return c, nil
		}
	}
	if lo >= 0 {
		c.Version = above[lo].String()
	}
	return c, nil
}

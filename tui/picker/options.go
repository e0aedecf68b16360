package picker

import (
	"fmt"
	"sort"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/lists"
)

// Option is one version the picker offers, with why it is offered.
type Option struct {
	Version    string
	Labels     []string
	Published  time.Time
	Deprecated string
	Installed  bool
	Current    bool
}

// Options lists the versions worth picking: the newest of the installed
// line, the newest of every later line, every dist-tag, the installed
// version and the current target; newest first, each version once.
// A line is what a caret range keeps: the major, or for 0.x the first
// non-zero component, as npm's ^ reads it.
func Options(p *model.Packument, installed, current string) []Option {
	byVersion := map[string]*Option{}
	// rank orders a version's labels: latest first, then the other tags,
	// then its line's, installed last.
	rank := map[string]int{}
	add := func(v, label string, r int) {
		if _, ok := p.Versions[v]; !ok && v != installed {
			return
		}
		o := byVersion[v]
		if o == nil {
			o = &Option{Version: v}
			if r, ok := p.Versions[v]; ok {
				o.Deprecated = r.Deprecated
			}
			if t, err := time.Parse(time.RFC3339, p.Time[v]); err == nil {
				o.Published = t
			}
			byVersion[v] = o
		}
		if label != "" && !contains(o.Labels, label) {
			o.Labels = append(o.Labels, label)
			rank[label] = r
		}
	}

	instLine := ""
	if installed != "" {
		instLine = line(installed)
	}
	newest := map[string]string{}
	for v := range p.Versions {
		pv, err := semver.Parse(v)
		if err != nil || pv.IsPrerelease() {
			continue
		}
		l := line(v)
		if cur, ok := newest[l]; !ok || semver.Compare(v, cur) > 0 {
			newest[l] = v
		}
	}
	for l, v := range newest {
		if installed != "" && semver.Compare(v, installed) < 0 && l != instLine {
			continue // an older line is not an upgrade
		}
		label := "newest " + l
		if l == instLine {
			label += " (installed line)"
		}
		add(v, label, 2)
	}
	// Every other release above the installed one, unlabeled, so any
	// version can be picked; prereleases only through their dist-tags.
	for v := range p.Versions {
		if pv, err := semver.Parse(v); err == nil && !pv.IsPrerelease() && (installed == "" || semver.Compare(v, installed) > 0) {
			add(v, "", 0)
		}
	}
	tags := lists.SortedKeys(p.DistTags)
	for _, t := range tags {
		r := 1
		if t == "latest" {
			r = 0
		}
		add(p.DistTags[t], t, r)
	}
	if installed != "" {
		add(installed, "installed", 3)
		byVersion[installed].Installed = true
	}
	if o := byVersion[current]; o != nil {
		o.Current = true
	}
	out := make([]Option, 0, len(byVersion))
	for _, o := range byVersion {
		sort.SliceStable(o.Labels, func(i, j int) bool { return rank[o.Labels[i]] < rank[o.Labels[j]] })
		out = append(out, *o)
	}
	sort.Slice(out, func(i, j int) bool { return semver.Compare(out[i].Version, out[j].Version) > 0 })
	return out
}

// line names the caret line of a version: "19.x", "0.3.x", "0.0.4".
func line(v string) string {
	pv, err := semver.Parse(v)
	if err != nil {
		return v
	}
	switch {
	case pv.Major() > 0:
		return fmt.Sprintf("%d.x", pv.Major())
	case pv.Minor() > 0:
		return fmt.Sprintf("0.%d.x", pv.Minor())
	}
	return fmt.Sprintf("0.0.%d", pv.Patch())
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Age says how long ago t was, in the largest whole unit.
func Age(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return "just now"
	case d < time.Hour:
		return "within the hour"
	case d < 24*time.Hour:
		return ago(int(d/time.Hour), "hour")
	case d < 31*24*time.Hour:
		return ago(int(d/(24*time.Hour)), "day")
	case d < 365*24*time.Hour:
		return ago(int(d/(30*24*time.Hour)), "month")
	}
	return ago(int(d/(365*24*time.Hour)), "year")
}

func ago(n int, unit string) string {
	if n == 1 {
		return "1 " + unit + " ago"
	}
	return fmt.Sprintf("%d %ss ago", n, unit)
}

package picker

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
)

func packument(tags map[string]string, versions ...string) *model.Packument {
	p := &model.Packument{Name: "x", DistTags: tags, Versions: map[string]model.Release{}, Time: map[string]string{}}
	for _, v := range versions {
		dep := ""
		if strings.HasSuffix(v, "!") {
			v, dep = strings.TrimSuffix(v, "!"), "use 5"
		}
		p.Versions[v] = model.Release{Version: v, Deprecated: dep}
		p.Time[v] = "2025-01-01T00:00:00Z"
	}
	return p
}

func TestOptions(t *testing.T) {
	tests := []struct {
		name               string
		p                  *model.Packument
		installed, current string
		want               []string // "version labels…"
	}{
		{
			name:      "lines above the installed one, tags, the installed line's newest",
			p:         packument(map[string]string{"latest": "3.1.0", "next": "4.0.0-rc.1"}, "1.0.0", "1.2.0", "1.3.0", "2.0.0", "2.5.0", "3.0.0", "3.1.0", "4.0.0-rc.1"),
			installed: "1.2.0", current: "3.1.0",
			want: []string{
				"4.0.0-rc.1 next",
				"3.1.0 latest,newest 3.x *",
				"3.0.0",
				"2.5.0 newest 2.x",
				"2.0.0",
				"1.3.0 newest 1.x (installed line)",
				"1.2.0 installed",
			},
		},
		{
			name:      "0.x lines are caret lines",
			p:         packument(map[string]string{"latest": "0.3.1"}, "0.1.4", "0.1.9", "0.2.0", "0.3.0", "0.3.1"),
			installed: "0.1.4", current: "0.3.1",
			want: []string{
				"0.3.1 latest,newest 0.3.x *",
				"0.3.0",
				"0.2.0 newest 0.2.x",
				"0.1.9 newest 0.1.x (installed line)",
				"0.1.4 installed",
			},
		},
		{
			name:      "the installed version missing from the registry is still listed",
			p:         packument(map[string]string{"latest": "2.0.0"}, "2.0.0"),
			installed: "1.0.0", current: "2.0.0",
			want: []string{"2.0.0 latest,newest 2.x *", "1.0.0 installed"},
		},
		{
			name:      "unknown installed version: every line",
			p:         packument(map[string]string{"latest": "2.0.0"}, "1.0.0", "2.0.0"),
			installed: "", current: "2.0.0",
			want: []string{"2.0.0 latest,newest 2.x *", "1.0.0 newest 1.x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, o := range Options(tt.p, tt.installed, tt.current) {
				s := o.Version
				if len(o.Labels) > 0 {
					s += " " + strings.Join(o.Labels, ",")
				}
				if o.Current {
					s += " *"
				}
				got = append(got, s)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Fatalf("options (-want +got):\n%s", d)
			}
		})
	}
}

func TestOptionsMarkDeprecated(t *testing.T) {
	p := packument(map[string]string{"latest": "2.0.0"}, "1.0.0", "2.0.0!")
	for _, o := range Options(p, "1.0.0", "2.0.0") {
		if (o.Version == "2.0.0") != (o.Deprecated == "use 5") {
			t.Errorf("%s deprecated %q", o.Version, o.Deprecated)
		}
		if o.Published.IsZero() {
			t.Errorf("%s has no publish time", o.Version)
		}
	}
}

func TestAge(t *testing.T) {
	now := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		ago  time.Duration
		want string
	}{
		{-time.Hour, "just now"},
		{10 * time.Minute, "within the hour"},
		{2 * time.Hour, "2 hours ago"},
		{36 * time.Hour, "1 day ago"},
		{45 * 24 * time.Hour, "1 month ago"},
		{300 * 24 * time.Hour, "10 months ago"},
		{800 * 24 * time.Hour, "2 years ago"},
	}
	for _, tt := range tests {
		if got := Age(now.Add(-tt.ago), now); got != tt.want {
			t.Errorf("Age(now-%v) = %q, want %q", tt.ago, got, tt.want)
		}
	}
	if got := Age(time.Time{}, now); got != "" {
		t.Errorf("unknown publish time: %q", got)
	}
}

// FuzzOptions feeds registry-shaped but arbitrary version lists, tags and
// publish times: Options must list each version once, newest first, and
// never panic on what a registry sends.
func FuzzOptions(f *testing.F) {
	f.Add("1.0.0,1.2.0,2.0.0,3.0.0-rc.1", "latest=2.0.0;next=3.0.0-rc.1", "1.0.0", "2.0.0", "2025-01-01T00:00:00Z")
	f.Add("0.0.3,0.0.4,0.1.0,v1.0.0,=1.0.1", "latest=0.1.0", "0.0.3", "0.1.0", "not a time")
	f.Add("18.2.0,18.3.1,19.0.0,19.1.0", "latest=19.1.0;canary=19.2.0-canary", "", "", "")
	f.Fuzz(func(t *testing.T, versions, tags, installed, current, published string) {
		p := &model.Packument{DistTags: map[string]string{}, Versions: map[string]model.Release{}, Time: map[string]string{}}
		for _, v := range strings.Split(versions, ",") {
			p.Versions[v] = model.Release{Version: v}
			p.Time[v] = published
		}
		for _, kv := range strings.Split(tags, ";") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				p.DistTags[k] = v
			}
		}
		opts := Options(p, installed, current)
		seen := map[string]bool{}
		for i, o := range opts {
			if seen[o.Version] {
				t.Fatalf("%s listed twice", o.Version)
			}
			seen[o.Version] = true
			if _, ok := p.Versions[o.Version]; !ok && o.Version != installed {
				t.Fatalf("%s is neither published nor installed", o.Version)
			}
			if i > 0 && semver.Compare(opts[i-1].Version, o.Version) < 0 {
				t.Fatalf("%s listed before the newer %s", opts[i-1].Version, o.Version)
			}
		}
	})
}

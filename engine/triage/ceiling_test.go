package triage

import (
	"strings"
	"testing"
)

// The ceiling is found by bisection: latest first, then halving; what
// breaks at one release is taken to break at the later ones; an undecided
// check stops with what is known.
func TestCeiling(t *testing.T) {
	versions := []string{"3.22.4", "3.23.8", "3.25.76", "4.0.0", "4.0.17", "4.1.12", "4.2.0-beta.1"}
	breaksFrom := func(first string) (Judge, *[]string) {
		var asked []string
		return func(v string) (string, int, string, error) {
			asked = append(asked, v)
			if semverLess(v, first) {
				return "safe", 0, "", nil
			}
			return "breaking", 3, "", nil
		}, &asked
	}
	for _, c := range []struct {
		first, want, asked string
	}{
		{"4.0.0", "3.25.76", "4.1.12 4.0.0 3.25.76"},
		{"9.0.0", "4.1.12", "4.1.12"},
		{"3.23.8", "3.22.4", "4.1.12 4.0.0 3.25.76 3.23.8"},
	} {
		judge, asked := breaksFrom(c.first)
		got, err := Ceiling("zod", "3.22.4", versions, judge)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != c.want || got.Latest != "4.1.12" || strings.Join(*asked, " ") != c.asked || len(got.Steps) != len(*asked) {
			t.Errorf("breaking from %s: ceiling %q latest %q, asked %v; want %s after %s", c.first, got.Version, got.Latest, *asked, c.want, c.asked)
		}
	}
	got, _ := Ceiling("zod", "3.22.4", versions, func(v string) (string, int, string, error) {
		if v == "4.1.12" {
			return "breaking", 1, "", nil
		}
		return "unknown", 0, "no declarations", nil
	})
	if got.Version != "" || got.Stopped != "4.0.0 is unknown: no declarations" {
		t.Errorf("undecided: %+v", got)
	}
	if got, _ := Ceiling("zod", "4.1.12", versions, nil); got.Version != "4.1.12" || len(got.Steps) != 0 {
		t.Errorf("nothing above: %+v", got)
	}
}

func semverLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < 3; i++ {
		if len(pa[i]) != len(pb[i]) {
			return len(pa[i]) < len(pb[i])
		}
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return false
}

package view

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func TestPriorityMarks(t *testing.T) {
	adv := func(fixed string) model.Priority {
		return model.Priority{Kind: model.PriorityAdvisory, Package: "lodash", FixedIn: fixed}
	}
	unsupported := model.Priority{Kind: model.PriorityUnsupported, Package: "lodash"}
	behind := model.Priority{Kind: model.PriorityBehind, Package: "lodash", Count: 1}
	for _, c := range []struct {
		prs  []model.Priority
		want []string
	}{
		{nil, nil},
		{[]model.Priority{behind}, nil},
		{[]model.Priority{adv("4.17.21")}, []string{"! advisory (fixed in 4.17.21)"}},
		// The release that fixes them all: the highest of the fixes, not
		// the first listed.
		{[]model.Priority{adv("4.17.21"), adv("4.17.9"), unsupported, unsupported}, []string{"! 2 advisories (fixed in 4.17.21)", "! unsupported line"}},
		// One advisory no release fixes: no release fixes them all.
		{[]model.Priority{adv("4.17.21"), adv("")}, []string{"! 2 advisories"}},
	} {
		var got []string
		for _, s := range PriorityMarks(c.prs) {
			got = append(got, s.Text)
		}
		if len(got) != len(c.want) {
			t.Errorf("PriorityMarks(%v) = %q, want %q", c.prs, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("PriorityMarks(%v) = %q, want %q", c.prs, got, c.want)
			}
		}
	}
}

func TestStepVerdictIsPlansWords(t *testing.T) {
	v, effort := StepVerdict(model.PlanStep{Verdict: model.VerdictBreaking, Effort: model.Effort{Sites: 3, ByRule: 1, ByAgent: 2, Files: 2}})
	if v.Text != "✗ breaking" || v.Tone != Bad || effort != "3 sites: 1 by rule, 2 by agent, 0 manual · 2 files" {
		t.Errorf("breaking: %q %v %q", v.Text, v.Tone, effort)
	}
	if v, effort := StepVerdict(model.PlanStep{Verdict: model.VerdictPartial, Reason: "a workspace did not compile"}); v.Text != "partial: a workspace did not compile" || effort != "" {
		t.Errorf("partial: %q %q", v.Text, effort)
	}
	if v, _ := StepVerdict(model.PlanStep{Verdict: model.VerdictUnchecked}); v.Text != "unchecked" || v.Tone != Dim {
		t.Errorf("unchecked: %q", v.Text)
	}
}

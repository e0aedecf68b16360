package groups

import (
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/uptide/uptide/engine/model"
)

// noReason compares companions on what JSON shows of them; the reasons
// are checked apart (ruleReasons, memberReasons), on every case.
var noReason = cmpopts.IgnoreFields(model.Companion{}, "Reason")

// ruleReasons: a companion the rules move follows a mover, and a removal
// says it is one.
func ruleReasons(t *testing.T, cs []model.Companion) {
	t.Helper()
	for _, c := range cs {
		want := model.CompanionRule
		if c.Remove {
			want = model.CompanionRemoval
		}
		if c.Reason.Kind != want || c.Reason.Follows == "" {
			t.Errorf("%s: reason %+v, want %s following a mover", c.Name, c.Reason, want)
		}
	}
}

// memberReasons: every member of a group follows the group's lead.
func memberReasons(t *testing.T, cs []model.Companion, lead string) {
	t.Helper()
	for _, c := range cs {
		if want := (model.CompanionReason{Kind: model.CompanionGroupMember, Follows: lead}); c.Reason != want {
			t.Errorf("%s: reason %+v, want %+v", c.Name, c.Reason, want)
		}
	}
}

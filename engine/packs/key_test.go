package packs

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// TestKeyOn: each kind of key claims the findings check reports of that
// kind and nothing else; a key without an On claims nothing, not the
// findings whose change is empty.
func TestKeyOn(t *testing.T) {
	cases := []struct {
		on     On
		change string
		want   bool
	}{
		{Kind(model.ChangeRemoved), "removed", true},
		{Kind(model.ChangeRemoved), "deprecated", false},
		{Kind(model.ChangeDeprecated), "deprecated", true},
		{Code(2554), "TS2554", true},
		{Code(2554), "TS25540", false},
		{Code(2554), "removed", false},
		{Cause, model.ChangeCause, true},
		{Cause, "TS2503", false},
		{Use, model.ChangeUse, true},
		{Use, "removed", false},
		{On{}, "", false},
		{On{}, "removed", false},
	}
	for _, c := range cases {
		k := Key{On: c.on}
		if got := k.claims(model.Finding{Change: c.change, Path: "a"}, ""); got != c.want {
			t.Errorf("key on %q claims a %q finding: %v, want %v", c.on, c.change, got, c.want)
		}
	}
	if Code(2554).Code() != 2554 || Kind(model.ChangeType).Code() != 0 || Cause.Code() != 0 {
		t.Errorf("Code() reads the compiler code of Code keys only")
	}
}

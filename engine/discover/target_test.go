package discover

import (
	"errors"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func TestResolveTarget(t *testing.T) {
	p := &model.Packument{Name: "zod", DistTags: map[string]string{"latest": "4.1.12", "next": "4.2.0-beta.1"},
		Versions: map[string]model.Release{"3.25.76": {}, "4.0.0": {}, "4.1.12": {}, "4.2.0-beta.1": {}}}
	for _, tt := range []struct{ want, got string }{
		{"next", "4.2.0-beta.1"}, {"4.0.0", "4.0.0"}, {"=4.0.0", "4.0.0"}, {"3", "3.25.76"}, {"^4.0.0", "4.1.12"},
	} {
		if got, err := ResolveTarget(p, "zod", tt.want); err != nil || got != tt.got {
			t.Errorf("ResolveTarget(%q) = %q, %v; want %q", tt.want, got, err, tt.got)
		}
	}
	_, err := ResolveTarget(p, "zod", "99")
	var te *TargetError
	if !errors.As(err, &te) || te.Want != "99" || strings.Join(te.Newest, " ") != "4.1.12 4.0.0 3.25.76" || te.Latest != "4.1.12" {
		t.Fatalf("ResolveTarget(99) = %v (%+v), want a TargetError naming the three newest releases", err, te)
	}
	if msg := err.Error(); !strings.Contains(msg, "--target zod@99") || !strings.Contains(msg, "4.1.12, 4.0.0, 3.25.76 (latest 4.1.12)") {
		t.Errorf("message %q", msg)
	}
}

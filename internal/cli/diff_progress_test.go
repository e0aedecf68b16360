package cli

import (
	"testing"

	"github.com/uptide/uptide/engine"
)

// TestDiffProgressLine: the checker's comparison shows done/total like the
// other progress lines, with its first and last lines forced.
func TestDiffProgressLine(t *testing.T) {
	o := &DiffOptions{Name: "zod", From: "3.25.76", To: "4.1.12"}
	tests := []struct {
		name      string
		e         engine.Event
		line      string
		force, ok bool
	}{
		{"fetch", engine.Event{Phase: engine.PhaseFetch}, "fetching zod 3.25.76 and 4.1.12", true, true},
		{"surface", engine.Event{Phase: engine.PhaseSurface, Package: "zod@4.1.12", Done: 1, Total: 2}, "reading the declarations of zod@4.1.12", true, true},
		{"compare starts", engine.Event{Phase: engine.PhaseCompare, Package: "zod", Total: 3947}, "comparing types with the checker 0/3947", true, true},
		{"compare under way", engine.Event{Phase: engine.PhaseCompare, Package: "zod", Done: 1200, Total: 3947}, "comparing types with the checker 1200/3947", false, true},
		{"compare finished", engine.Event{Phase: engine.PhaseCompare, Package: "zod", Done: 3947, Total: 3947, Finished: true}, "comparing types with the checker 3947/3947", true, true},
		{"other phase", engine.Event{Phase: engine.PhaseUsages}, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, force, ok := diffProgressLine(o, tt.e)
			if line != tt.line || force != tt.force || ok != tt.ok {
				t.Errorf("got (%q, force %v, ok %v), want (%q, force %v, ok %v)", line, force, ok, tt.line, tt.force, tt.ok)
			}
		})
	}
}

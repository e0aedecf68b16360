package diff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func literals(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("'%s.%03d'", prefix, i)
	}
	return out
}

func TestTypeChangeText(t *testing.T) {
	big := literals("customer.event", 42)
	grown := append(append([]string(nil), big[1:]...), "'customer.zz.a'", "'customer.zz.b'")
	many := append(append([]string(nil), big...), literals("invoice.event", 20)...)
	tests := []struct {
		name, a, b, want string
	}{
		{"short types stay whole", "string", "string | Buffer", "string → string | Buffer"},
		{"unchanged text is named once", "Options", "Options", "Options (a type it refers to changed)"},
		{"long union lists what changed", strings.Join(big, " | "), strings.Join(grown, " | "),
			"union: +'customer.zz.a' +'customer.zz.b' −'customer.event.000' (42 → 43 members)"},
		{"many changes are cut", strings.Join(big, " | "), strings.Join(many, " | "),
			"union: +'invoice.event.000' +'invoice.event.001' +'invoice.event.002' +'invoice.event.003' +'invoice.event.004' +'invoice.event.005' +'invoice.event.006' +'invoice.event.007' … 12 more (42 → 62 members)"},
		{"long non-union is truncated", "{ " + strings.Repeat("a: string; ", 20) + "}", "{ " + strings.Repeat("b: number; ", 20) + "}",
			"{ a: string; a: string; a: string; a: string; a: string; a:… → { b: number; b: number; b: number; b: number; b: number; b:…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := typeChangeText(tt.a, tt.b); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestNoteSize: a change of a union of hundreds of members (stripe's
// Stripe.Event.Type) gets a note of a line, not the two unions.
func TestNoteSize(t *testing.T) {
	a := strings.Join(literals("event", 400), " | ")
	b := strings.Join(append(literals("event", 400)[1:], "'event.new'"), " | ")
	changes := Diff(
		surface("1", sym("Stripe.Event.Type", model.KindTypeAlias, "type = "+a)),
		surface("2", sym("Stripe.Event.Type", model.KindTypeAlias, "type = "+b)), nil)
	if len(changes) != 1 {
		t.Fatalf("changes: %+v", changes)
	}
	if n := len(changes[0].Note); n > 200 || !strings.Contains(changes[0].Note, "+'event.new'") {
		t.Errorf("note (%d bytes): %q", n, changes[0].Note)
	}
}

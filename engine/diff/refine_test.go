package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func TestNeedsTypes(t *testing.T) {
	a := surface("1",
		sym("parse", fn, "(input: string): Item"),
		sym("Options#mode", prop, "Mode"),
		sym("Options#timeout", prop, "number"),
		sym("Client", class, "class"),
		sym("Store", iface, "interface"),
		sym("gone", fn, "(): void"),
		sym("Mode", talias, "type = 'a'"),
	)
	b := surface("2",
		sym("parse", fn, "(input: Source): Item"),
		sym("Options#mode", prop, "ModeV2"),
		optional(sym("Options#timeout", prop, "number")),
		sym("Client", class, "abstract class"),
		sym("Store", talias, "type"),
		sym("Mode", talias, "type = 'a' | 'b'"),
	)
	changes := Classify(Raw(a, b))
	got := NeedsTypes(changes)
	want := []string{"Mode", "Options#mode", "parse"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	// Without answers nothing moves.
	if diff := cmp.Diff(changes, Refine(changes, nil)); diff != "" {
		t.Fatalf("Refine without relations changed things:\n%s", diff)
	}
	// Answers for paths that are not refinable are ignored.
	refined := Refine(changes, map[string]Relation{"Client": rel(true, true), "Options#timeout": rel(true, true)})
	if diff := cmp.Diff(changes, refined); diff != "" {
		t.Fatalf("Refine touched facts the checker cannot improve:\n%s", diff)
	}
}

func TestRefineKeepsStructuralFindings(t *testing.T) {
	a := surface("1", sym("parse", fn, "(input: Input): Item"))
	b := surface("2", sym("parse", fn, "(input: RawInput, strict: boolean): Item"))
	// The checker finds the parameter type equivalent, but the new required
	// parameter still breaks every call.
	got := Diff(a, b, map[string]Relation{"parse": sigRel(ptr(both), both)})
	if len(got) != 1 || got[0].Rule != "sig/param/added-required" || got[0].Severity != model.Breaking {
		t.Fatalf("got %+v", got)
	}
}

func TestRefineWholeCallable(t *testing.T) {
	a := surface("1", sym("on", fn, "(event: 'a', cb: () => void): void; (event: 'b', cb: () => void): void"))
	b := surface("2", sym("on", fn, "(event: 'a' | 'b', cb: () => void): void"))
	tests := []struct {
		name string
		rel  Relation
		rule string
	}{
		{"new assignable to old", rel(false, true), "direction/callable/compatible"},
		{"only old assignable to new", rel(true, false), "checker/incompatible"},
		{"neither", rel(false, false), "checker/incompatible"},
		// Signatures whose count does not match the overloads fall back to
		// the whole function types.
		{"mismatched signature answers", Relation{Assignability: bToA, Signatures: []SignatureRelation{{}}}, "direction/callable/compatible"},
	}
	for _, tt := range tests {
		got := Diff(a, b, map[string]Relation{"on": tt.rel})
		if len(got) != 1 || got[0].Rule != tt.rule {
			t.Errorf("%s: got %+v, want rule %s", tt.name, got, tt.rule)
		}
	}
	if got := Diff(a, b, map[string]Relation{"on": rel(true, true)}); len(got) != 0 {
		t.Errorf("equivalent both ways should leave nothing: %+v", got)
	}
}

func TestRefineCombinesParts(t *testing.T) {
	a := surface("1", sym("fetch", fn, "(url: string, init: Init): Response"))
	b := surface("2", sym("fetch", fn, "(url: string | URL, init: InitV2): Response | undefined"))
	got := Diff(a, b, map[string]Relation{"fetch": sigRel(ptr(aToB), aToB, bToA)})
	// Widened parameter (additive 0.8), narrowed parameter (breaking) and
	// widened return (breaking): breaking, decided by the first certain break.
	if len(got) != 1 {
		t.Fatalf("got %+v", got)
	}
	c := got[0]
	if c.Severity != model.Breaking || c.Kind != model.ChangeSignature || c.Role != "" || c.Rule != "direction/parameter/narrowed" {
		t.Fatalf("got %+v", c)
	}
}

// The checker relates generic signatures as whole function types, and it
// lets a parameter that became required relate; the parameter list's shape
// still decides. (React 19's useRef is exactly this.)
func TestRefineWholeCallableKeepsParameterShape(t *testing.T) {
	tests := []struct {
		name     string
		a, b     string
		rel      Relation
		rule     string
		severity model.Severity
	}{
		{"parameter made required", "<T>(initial?: T): { current: T | undefined; }", "<T>(initial: T): { current: T; }",
			rel(false, true), "sig/param/made-required", model.Breaking},
		{"parameter removed", "<T>(value: T, label: string): T", "<T>(value: T): T",
			rel(true, true), "sig/param/removed", model.Breaking},
		{"optional parameter added", "<T>(value: T): Box<T>", "<T, M = unknown>(value: T, meta?: M): Box<T, M>",
			rel(true, true), "sig/param/added-optional", model.Additive},
		{"type parameters renamed: left to the checker", "<T>(value: T): T", "<U>(value: U): U",
			rel(true, true), "", ""},
		{"checker finds it incompatible", "<T>(value: T): T", "<T>(value: T, strict: boolean): T",
			rel(false, false), "sig/param/added-required", model.Breaking},
	}
	for _, tt := range tests {
		a := surface("1", sym("useRef", fn, tt.a))
		b := surface("2", sym("useRef", fn, tt.b))
		got := Diff(a, b, map[string]Relation{"useRef": tt.rel})
		if tt.rule == "" {
			if len(got) != 0 {
				t.Errorf("%s: want no change, got %+v", tt.name, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Rule != tt.rule || got[0].Severity != tt.severity {
			t.Errorf("%s: got %+v, want rule %s (%s)", tt.name, got, tt.rule, tt.severity)
		}
	}
}

// The checker reads an optional parameter's type as T | undefined, so a
// parameter made optional looks widened to it; the optionality row says
// it already, at full confidence.
func TestRefineOptionalityIsNotAWidening(t *testing.T) {
	tests := []struct {
		name       string
		a, b       string
		rel        Relation
		rule       string
		confidence float64
	}{
		{"made optional", "(data: string, retries: number): void", "(data: string, retries?: number): void",
			sigRel(ptr(both), both, aToB), "sig/param/made-optional", 1},
		{"made required", "(data: string, retries?: number): void", "(data: string, retries: number): void",
			sigRel(ptr(both), both, bToA), "sig/param/made-required", 1},
		{"made optional and its type widened too", "(data: string, retries: number): void", "(data: string, retries?: number | string): void",
			sigRel(ptr(both), both, aToB), "direction/parameter/widened", 0.8},
	}
	for _, tt := range tests {
		got := Diff(surface("1", sym("send", fn, tt.a)), surface("2", sym("send", fn, tt.b)), map[string]Relation{"send": tt.rel})
		if len(got) != 1 || got[0].Rule != tt.rule || got[0].Confidence != tt.confidence {
			t.Errorf("%s: got %+v, want rule %s at %v", tt.name, got, tt.rule, tt.confidence)
		}
	}
}

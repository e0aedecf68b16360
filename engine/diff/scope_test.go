package diff

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// TestScopedCollisionDisappears: a path scoped by a collision in one
// version and bare in the other is one symbol to whoever imports it from
// that entry point (zod 3.25 "./v4":ZodString → zod 4 ZodString).
func TestScopedCollisionDisappears(t *testing.T) {
	tests := []struct {
		name string
		a, b *model.Surface
		// want: path → change kinds there; paths not listed have none.
		want map[string][]model.ChangeKind
	}{
		{
			name: "scoped in A, bare and exported from the scope in B",
			a: surface("1",
				sym("ZodString", model.KindClass, "class"),
				sym("ZodString#min", model.KindMethod, "(n: number): this"),
				from(sym(`"./v4":ZodString`, model.KindClass, "class"), "./v4"),
				from(sym(`"./v4":ZodString#min`, model.KindMethod, "(n: number): this"), "./v4"),
				from(sym(`"./v4":ZodString#max`, model.KindMethod, "(n: number): this"), "./v4"),
			),
			b: surface("2",
				from(sym("ZodString", model.KindClass, "class"), ".", "./v4"),
				from(sym("ZodString#min", model.KindMethod, "(n: number): this"), ".", "./v4"),
			),
			want: map[string][]model.ChangeKind{
				// the member that really went is still reported, under A's path
				`"./v4":ZodString#max`: {model.ChangeRemoved},
			},
		},
		{
			name: "a signature change is still reported under A's path",
			a: surface("1",
				sym("parse", model.KindFunction, "(x: string): number"),
				from(sym(`"./v4":parse`, model.KindFunction, "(x: string): string"), "./v4"),
			),
			b: surface("2",
				from(sym("parse", model.KindFunction, "(x: string): string; (x: number): string"), ".", "./v4"),
			),
			want: map[string][]model.ChangeKind{
				"parse":        {model.ChangeSignature},
				`"./v4":parse`: {model.ChangeSignature},
			},
		},
		{
			name: "scoped in A, scoped by another entry that now exports it too in B",
			a: surface("1",
				sym("any", model.KindFunction, "(): ZodAny"),
				from(sym(`"./v4-mini":any`, model.KindFunction, "(): ZodMiniAny"), "./v4-mini"),
			),
			b: surface("2",
				sym("any", model.KindFunction, "(): ZodAny"),
				from(sym(`"./mini":any`, model.KindFunction, "(): ZodMiniAny"), "./mini", "./v4-mini"),
			),
			want: map[string][]model.ChangeKind{},
		},
		{
			name: "bare in B but not exported from the scope: removed",
			a: surface("1",
				sym("X", model.KindInterface, "interface"),
				from(sym(`"./v4":X`, model.KindInterface, "interface"), "./v4"),
			),
			b: surface("2",
				sym("X", model.KindInterface, "interface"),
			),
			want: map[string][]model.ChangeKind{
				`"./v4":X`: {model.ChangeRemoved},
			},
		},
		{
			name: "augmentation scopes are not entry points",
			a:    surface("1", from(sym(`"express":Request#user`, model.KindProperty, "string"), ".")),
			b: surface("2",
				sym("Request", model.KindInterface, "interface"),
				sym("Request#user", model.KindProperty, "string"),
			),
			want: map[string][]model.ChangeKind{
				`"express":Request#user`: {model.ChangeRemoved},
				"Request":                {model.ChangeAdded},
				"Request#user":           {model.ChangeAdded},
			},
		},
		{
			name: "bare subpath export in A scoped by a new collision in B",
			a: surface("1",
				from(sym("Client", model.KindClass, "class"), "./server"),
				from(sym("Client#listen", model.KindMethod, "(): void"), "./server"),
			),
			b: surface("2",
				from(sym(`"./server":Client`, model.KindClass, "class"), "./server"),
				from(sym(`"./server":Client#listen`, model.KindMethod, "(): void"), "./server"),
				from(sym(`"./edge":Client`, model.KindClass, "class"), "./edge"),
			),
			want: map[string][]model.ChangeKind{
				`"./edge":Client`: {model.ChangeAdded},
			},
		},
		{
			// The seed: moved means the symbol's own entry point stopped
			// exporting it (zod 3.25's root ZodEffects, only "./v3" in 4).
			name: "a root export the root dropped, still exported by a subpath of A that B scopes, moved",
			a: surface("1",
				from(sym("Client", model.KindClass, "class"), ".", "./server"),
				from(sym("Client#listen", model.KindMethod, "(): void"), ".", "./server"),
			),
			b: surface("2",
				from(sym(`"./server":Client`, model.KindClass, "class"), "./server"),
				from(sym(`"./server":Client#listen`, model.KindMethod, "(): void"), "./server"),
				from(sym(`"./edge":Client`, model.KindClass, "class"), "./edge"),
			),
			want: map[string][]model.ChangeKind{
				"Client":          {model.ChangeMoved},
				"Client#listen":   {model.ChangeMoved},
				`"./edge":Client`: {model.ChangeAdded},
			},
		},
		{
			name: "a root export the root dropped, exported in B by a subpath A did not export it from, removed",
			a:    surface("1", from(sym("Client", model.KindClass, "class"), ".")),
			b: surface("2",
				from(sym(`"./server":Client`, model.KindClass, "class"), "./server"),
				from(sym(`"./edge":Client`, model.KindClass, "class"), "./edge"),
			),
			want: map[string][]model.ChangeKind{
				"Client":            {model.ChangeRemoved},
				`"./server":Client`: {model.ChangeAdded},
				`"./edge":Client`:   {model.ChangeAdded},
			},
		},
		{
			name: "a member gone from the root's declaration is removed even if a subpath's namesake keeps it",
			a: surface("1",
				from(sym("ZodString", model.KindClass, "class"), ".", "./v3"),
				from(sym("ZodString#ip", model.KindMethod, "(): ZodString"), ".", "./v3"),
			),
			b: surface("2",
				from(sym("ZodString", model.KindClass, "class"), "."),
				from(sym(`"./v3":ZodString`, model.KindClass, "class"), "./v3"),
				from(sym(`"./v3":ZodString#ip`, model.KindMethod, "(): ZodString"), "./v3"),
			),
			want: map[string][]model.ChangeKind{
				"ZodString#ip":        {model.ChangeRemoved},
				`"./v3":ZodString`:    {model.ChangeAdded},
				`"./v3":ZodString#ip`: {model.ChangeAdded},
			},
		},
		{
			name: "a bare root export left only to a subpath that already exported it, moved",
			a:    surface("1", from(sym("ZodEffects", model.KindClass, "class"), ".", "./v3")),
			b:    surface("2", from(sym("ZodEffects", model.KindClass, "class"), "./v3")),
			want: map[string][]model.ChangeKind{
				"ZodEffects": {model.ChangeMoved},
			},
		},
		{
			name: "a subpath-only export losing one of its subpaths is still reachable",
			a:    surface("1", from(sym("connect", model.KindFunction, "(): void"), "./client", "./server")),
			b:    surface("2", from(sym("connect", model.KindFunction, "(): void"), "./server")),
			want: map[string][]model.ChangeKind{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(tt.a, tt.b, nil)
			seen := map[string][]model.ChangeKind{}
			for _, c := range got {
				seen[c.Path] = append(seen[c.Path], c.Kind)
			}
			for p, kinds := range tt.want {
				if !equalKinds(seen[p], kinds) {
					t.Errorf("%s: got %v, want %v", p, seen[p], kinds)
				}
			}
			for p, kinds := range seen {
				if _, ok := tt.want[p]; !ok {
					t.Errorf("%s: unexpected %v", p, kinds)
				}
			}
		})
	}
}

func equalKinds(a, b []model.ChangeKind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

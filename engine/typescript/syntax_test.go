package typescript

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// The constructs zod 4 and mongoose 9 ship that TypeScript 4.4 cannot
// parse, each named with its release and where it first appears.
func TestSyntaxNeeds(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.d.ts")
	b := filepath.Join(dir, "b.d.ts")
	write := func(p, text string) {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(a, `import { type Core } from "./core.js";
export interface $ZodType<out O = unknown, in I = unknown> { o: O; i: (x: I) => void }
export declare function union<const T extends readonly unknown[]>(options: T): T;
export declare function union2<const U>(u: U): U;
type First<T> = T extends [infer H extends string, ...unknown[]] ? H : never;
export type * from "./types.js";
export declare function pick<T>(x: NoInfer<T>): T;
`)
	write(b, `export declare class Model { accessor name: string; static { } }
type Key = `+"`on${string}`"+`;
type Awaited<T> = T;
export type Own = Awaited<number>;
`)
	got, err := sharedAdapter(t).SyntaxNeeds(context.Background(), []string{a, b, filepath.Join(dir, "missing.d.ts")})
	if err != nil {
		t.Fatal(err)
	}
	if got.ParseErrors != 0 || got.TypeScript != PinnedVersion {
		t.Errorf("parse errors %d with %s", got.ParseErrors, got.TypeScript)
	}
	var lines []string
	for _, n := range got.Needs {
		lines = append(lines, n.String()+" "+filepath.Base(n.File)+":"+strconv.Itoa(n.Line)+":"+strconv.Itoa(n.Column)+" ×"+strconv.Itoa(n.Count))
	}
	want := []string{
		"the `NoInfer` type (TypeScript 5.4) a.d.ts:7:36 ×1",
		"`const` type parameters (TypeScript 5.0) a.d.ts:3:31 ×2",
		"`export type *` (TypeScript 5.0) a.d.ts:6:1 ×1",
		"`accessor` fields (TypeScript 4.9) b.d.ts:1:30 ×1",
		"`in`/`out` variance annotations (TypeScript 4.7) a.d.ts:2:27 ×2",
		"`infer … extends` constraints (TypeScript 4.7) a.d.ts:5:28 ×1",
		"`type` modifiers on import and export names (TypeScript 4.5) a.d.ts:1:10 ×1",
		"`static` blocks (TypeScript 4.4) b.d.ts:1:53 ×1",
		"template literal types (TypeScript 4.1) b.d.ts:2:12 ×1",
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("needs\n%q\nwant\n%q", lines, want)
	}
	// A lib type the file declares itself (Awaited above) needs nothing.
	if n := got.Needs[0]; !n.Type || got.Needs[1].Type {
		t.Errorf("only NoInfer is a lib type: %+v", got.Needs[:2])
	}
	if newer := got.Newer("4.7.4"); len(newer) != 4 || newer[3].Since != "4.9" {
		t.Errorf("newer than 4.7.4: %+v", newer)
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"5.0", "4.4.4", 1}, {"4.5", "4.5.5", -1}, {"5.10", "5.9.3", 1}, {"4.7", "4.7", 0}, {"5.0.0-beta", "5.0.0", 0},
	} {
		if got := CompareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareVersions(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

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

// Constructs an older compiler parses but its checker rejects (or, for
// accessors in interfaces, cannot parse): @types/express-serve-static-core
// 5's union index signature is TS1337 under TypeScript 4.1, allowed from
// 4.4. Checker rules count only where declarations are type-checked, and a
// literal key, an error in every release, needs nothing.
func TestSyntaxNeedsCheckerRules(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "index.d.ts")
	if err := os.WriteFile(a, []byte(`export interface ParamsDictionary {
    [key: string]: string | string[];
    [key: number]: string;
}
export interface ParamsFlatDictionary {
    [key: string | number]: string;
}
export interface Keyed { [k: symbol]: number; [k: `+"`data-${string}`"+`]: string }
export interface Bad { [k: "a"]: number }
export type Args = [...string[], number];
export type Tail = [string, ...number[]];
export interface Sized { get size(): number; set size(v: number | string) }
`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := sharedAdapter(t).SyntaxNeeds(context.Background(), []string{a})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, n := range got.Needs {
		lines = append(lines, n.String()+" index.d.ts:"+strconv.Itoa(n.Line)+":"+strconv.Itoa(n.Column)+" ×"+strconv.Itoa(n.Count)+" type="+strconv.FormatBool(n.Type))
	}
	want := []string{
		"index signatures keyed by a union, `symbol` or a template literal (TypeScript 4.4) index.d.ts:6:5 ×3 type=true",
		"`get`/`set` accessors in interfaces and object types (TypeScript 4.3) index.d.ts:12:26 ×2 type=false",
		"rest elements before the end of a tuple (TypeScript 4.2) index.d.ts:10:21 ×1 type=true",
		"template literal types (TypeScript 4.1) index.d.ts:8:51 ×1 type=false",
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("needs\n%q\nwant\n%q", lines, want)
	}
	if newer := got.Newer("4.1.3"); len(newer) != 3 || newer[0].Since != "4.4" {
		t.Errorf("newer than 4.1.3: %+v", newer)
	}
}

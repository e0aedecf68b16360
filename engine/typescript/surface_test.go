package typescript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writePackage writes files (path → content) into a fresh directory.
func writePackage(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A package that augments its own modules by a relative specifier (the
// shape of @types/react 18's canary.d.ts) adds names to itself: they are
// found where consumers import them, never as a foreign module scoped ".".
func TestSurfaceOwnModuleAugmentation(t *testing.T) {
	a := sharedAdapter(t)
	tests := []struct {
		name    string
		files   map[string]string
		present []string
	}{
		{
			name: "export = namespace",
			files: map[string]string{
				"package.json": `{"name":"own-aug","version":"1.0.0","exports":{".":{"types":"./index.d.ts"},"./canary":{"types":"./canary.d.ts"}}}`,
				"index.d.ts":   "export = Lib;\nexport as namespace Lib;\ndeclare namespace Lib {\n  function stable(): void;\n  interface Options { a: string }\n}\n",
				"canary.d.ts":  "import Lib = require(\".\");\nexport {};\ndeclare module \".\" {\n  function use<T>(value: Promise<T>): T;\n  interface Options { b?: number }\n}\n",
			},
			present: []string{"Lib.stable", "Lib.use", "Lib.Options#a", "Lib.Options#b"},
		},
		{
			name: "named exports",
			files: map[string]string{
				"package.json": `{"name":"own-aug-named","version":"1.0.0","exports":{".":{"types":"./index.d.ts"},"./extra":{"types":"./extra.d.ts"}}}`,
				"index.d.ts":   "export declare function stable(): void;\nexport interface Options { a: string }\n",
				"extra.d.ts":   "export {};\ndeclare module \"./index\" {\n  function added(): number;\n  interface Options { b?: number }\n}\n",
			},
			present: []string{"stable", "added", "Options#a", "Options#b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writePackage(t, tt.files)
			s, err := a.ExtractSurface(context.Background(), dir, "own-aug", "1.0.0")
			if err != nil {
				t.Fatal(err)
			}
			paths := map[string]bool{}
			for _, sym := range s.Symbols {
				paths[sym.Path] = true
				if strings.HasPrefix(sym.Path, `"`) {
					t.Errorf("%s: an own module's names scoped as a foreign module", sym.Path)
				}
			}
			for _, p := range tt.present {
				if !paths[p] {
					t.Errorf("%s missing from %v", p, keys(paths))
				}
			}
		})
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The replacement a @deprecated text names: a bare name or member, never
// the first word of a code span that holds more than a name.
func TestSurfaceDeprecationReplacement(t *testing.T) {
	tests := []struct {
		doc, want string
	}{
		{"use parse instead", "parse"},
		{"- Use `typeof React.Children` instead.", "React.Children"},
		{"Use `safeParse()` instead", "safeParse"},
		{"use `z.string().email()` instead", ""},
		{"Use `PropTypes.*` where `PropTypes` comes from 'prop-types'", ""},
		{"use the `new` keyword", ""},
		{"Replaced by {@link Client.connect}.", "Client.connect"},
	}
	var src strings.Builder
	for i, tt := range tests {
		fmt.Fprintf(&src, "/** @deprecated %s */\nexport declare function f%d(): void;\n", tt.doc, i)
	}
	dir := writePackage(t, map[string]string{
		"package.json": `{"name":"deprecations","version":"1.0.0","types":"index.d.ts"}`,
		"index.d.ts":   src.String(),
	})
	s, err := sharedAdapter(t).ExtractSurface(context.Background(), dir, "deprecations", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, sym := range s.Symbols {
		if sym.Deprecated != nil {
			got[sym.Path] = sym.Deprecated.Replacement
		}
	}
	for i, tt := range tests {
		p := fmt.Sprintf("f%d", i)
		if r, ok := got[p]; !ok || r != tt.want {
			t.Errorf("%q: replacement %q (deprecated %v), want %q", tt.doc, r, ok, tt.want)
		}
	}
}

// A type alias that only names one of the package's interfaces or classes
// (stripe 18+: export type StripeConfig = import('./lib.js').StripeConfig)
// carries that type's members, as an interface or an object literal alias
// does; an alias of anything else stays a leaf.
func TestSurfaceAliasOfOwnInterface(t *testing.T) {
	dir := writePackage(t, map[string]string{
		"package.json": `{"name":"alias-members","version":"1.0.0","types":"index.d.ts"}`,
		"lib.d.ts":     "export interface Config { apiVersion?: string; timeout: number }\nexport declare class Resource { list(): void }\n",
		"index.d.ts": "export declare namespace Api {\n" +
			"  export type Config = import('./lib').Config;\n" +
			"  export type Resource = import('./lib').Resource;\n" +
			"  export type Partly = Partial<import('./lib').Config>;\n" +
			"  export type Either = import('./lib').Config | string;\n" +
			"  export type Foreign = Date;\n" +
			"}\n",
	})
	s, err := sharedAdapter(t).ExtractSurface(context.Background(), dir, "alias-members", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	for _, sym := range s.Symbols {
		paths[sym.Path] = true
	}
	for _, p := range []string{"Api.Config#apiVersion", "Api.Config#timeout", "Api.Resource#list"} {
		if !paths[p] {
			t.Errorf("%s missing", p)
		}
	}
	for p := range paths {
		for _, leaf := range []string{"Api.Partly#", "Api.Either#", "Api.Foreign#"} {
			if strings.HasPrefix(p, leaf) {
				t.Errorf("%s: only an alias naming an own interface or class is expanded", p)
			}
		}
	}
}

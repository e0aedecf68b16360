package check

import (
	"github.com/uptide/uptide/engine/repo"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDependents(t *testing.T) {
	files := map[string]string{
		"src/schema.ts":          `import { z } from "zod";` + "\nexport const User = z.object({});\n",
		"src/server.ts":          `import { User } from "./schema";` + "\n",
		"src/esm.ts":             `import { User } from './schema.js';` + "\n",
		"src/index.ts":           "export {\n  User,\n} from './schema';\n",
		"src/app.ts":             `import { User } from "./index";` + "\n",
		"src/viaDir.ts":          `import { User } from ".";` + "\n",
		"src/deep/a.ts":          `const s = require("../schema");` + "\n",
		"src/deep/lazy.ts":       `export const m = () => import("../server");` + "\n",
		"src/deep/b.ts":          `import { m } from "./lazy";` + "\n",
		"src/other.ts":           `import { z } from "zod"; import "./unrelated";` + "\n",
		"src/comment.ts":         `const s = "from ./schema";` + "\n",
		"src/legacy.js":          `const { User } = require("./schema");` + "\n",
		"node_modules/x/i.ts":    `import "../../src/schema";` + "\n",
		"packages/web/src/a.ts":  `import "../../../src/schema";` + "\n",
		"src/schemaExtra.ts":     `import "./schema2";` + "\n",
		"src/re/wrap.ts":         `import { User } from "../schema";` + "\nexport const w = User;\n",
		"src/re/user-of-wrap.ts": `import { w } from "./wrap";` + "\n",
	}
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		scope []string
		js    bool
		want  []string
	}{
		{
			name:  "one level, through re-exports, TS only",
			scope: []string{"src/schema.ts"},
			// app.ts and viaDir.ts reach schema.ts through the index
			// barrel; user-of-wrap.ts is two levels away without one.
			want: []string{"src/app.ts", "src/deep/a.ts", "src/esm.ts", "src/index.ts", "src/re/wrap.ts", "src/server.ts", "src/viaDir.ts"},
		},
		{
			name:  "JavaScript importers with allowJs",
			scope: []string{"src/schema.ts"},
			js:    true,
			want:  []string{"src/app.ts", "src/deep/a.ts", "src/esm.ts", "src/index.ts", "src/legacy.js", "src/re/wrap.ts", "src/server.ts", "src/viaDir.ts"},
		},
		{
			name:  "dynamic import",
			scope: []string{"src/server.ts"},
			want:  []string{"src/deep/lazy.ts"},
		},
		{
			name:  "nothing imports it",
			scope: []string{"src/other.ts"},
		},
		{
			name: "empty scope",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := scanImportGraph(root, ".", []string{"packages/web"}, tc.js, scopeAliases{}).dependents(tc.scope)
			if !slices.Equal(got, tc.want) {
				t.Errorf("dependents of %v:\n got %v\nwant %v", tc.scope, got, tc.want)
			}
		})
	}
}

func TestScanLoads(t *testing.T) {
	type load struct {
		spec     string
		reexport bool
	}
	for _, tc := range []struct {
		src  string
		want []load
	}{
		{`import a from "./a"`, []load{{"./a", false}}},
		{"export * from './a'", []load{{"./a", true}}},
		{"export {\n x as y,\n} from \"./a\"", []load{{"./a", true}}},
		{"export const v = 1;\nimport { b } from './b'", []load{{"./b", false}}},
		{`import "./side"`, []load{{"./side", false}}},
		{`x.require("./no"); const y = require( './yes' )`, []load{{"./yes", false}}},
		{`await import("./dyn")`, []load{{"./dyn", false}}},
		{`const s = "./not" + 'a load'`, nil},
		{`import x from "./unterminated`, nil},
		{`const imported = from; s = "./x"`, nil},
	} {
		var got []load
		repo.ScanLoads([]byte(tc.src), func(spec string, re bool) { got = append(got, load{spec, re}) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %v, want %v", tc.src, got, tc.want)
		}
	}
}

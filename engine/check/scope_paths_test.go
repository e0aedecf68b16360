package check

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDependentsThroughAliases(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config string
		files  map[string]string
		want   []string
	}{
		{
			name:   "paths with baseUrl, inherited through extends, JSONC",
			config: "app/tsconfig.json",
			files: map[string]string{
				"tsconfig.base.json":   "{\n  // shared\n  \"compilerOptions\": {\n    \"baseUrl\": \"./app\",\n    \"paths\": { \"@/*\": [\"src/*\"], \"~lib\": [\"src/lib/index.ts\"], },\n  },\n}\n",
				"app/tsconfig.json":    `{ "extends": "../tsconfig.base", /* own options */ "compilerOptions": { "strict": true } }`,
				"app/src/schema.ts":    `import { z } from "zod";`,
				"app/src/page.ts":      `import { User } from "@/schema";`,
				"app/src/bare.ts":      `import { User } from "src/schema";`,
				"app/src/lib/index.ts": `export * from "../schema";`,
				"app/src/menu.ts":      `import { User } from "~lib";`,
				"app/src/other.ts":     `import { z } from "zod"; import "@/nothing";`,
			},
			want: []string{"app/src/bare.ts", "app/src/lib/index.ts", "app/src/menu.ts", "app/src/page.ts"},
		},
		{
			name:   "paths relative to the config without baseUrl",
			config: "app/tsconfig.json",
			files: map[string]string{
				"app/tsconfig.json": `{ "compilerOptions": { "paths": { "#app/*": ["./src/*"] } } }`,
				"app/src/schema.ts": `import { z } from "zod";`,
				"app/src/page.ts":   `import { User } from "#app/schema.js";`,
				"app/src/bare.ts":   `import { User } from "src/schema";`,
			},
			want: []string{"app/src/page.ts"},
		},
		{
			name:   "an unreadable config maps nothing",
			config: "app/tsconfig.json",
			files: map[string]string{
				"app/tsconfig.json": `{ "compilerOptions": `,
				"app/src/schema.ts": `import { z } from "zod";`,
				"app/src/page.ts":   `import { User } from "@/schema";`,
				"app/src/rel.ts":    `import { User } from "./schema";`,
			},
			want: []string{"app/src/rel.ts"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tc.files)
			got := scanImportGraph(root, "app", nil, false, loadAliases(root, tc.config)).dependents([]string{"app/src/schema.ts"})
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v\nwant %v", got, tc.want)
			}
		})
	}
}

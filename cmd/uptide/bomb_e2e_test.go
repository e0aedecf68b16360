package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A declaration-file bomb: a target whose index.d.ts inflates far beyond
// what any package ships, though its tarball is small and the whole stays
// inside the extraction limit. The compiler must never see it (it would
// take the driver's heap for minutes and die with a V8 stack dump): check
// refuses the tarball and says so in one line naming the package and the
// limit, exit 2.
func TestCheckRefusesADeclarationBomb(t *testing.T) {
	reg := startRegistry(t)
	const small = "export declare function boom(s: string): string;\n"
	line := "export declare const filler: string;\n"
	bomb := small + strings.Repeat(line, (33<<20)/len(line))
	for v, index := range map[string]string{"1.0.0": small, "2.0.0": bomb} {
		manifest := map[string]any{"name": "bombkit", "version": v, "types": "index.d.ts", "main": "index.js"}
		if err := reg.Add(manifest, map[string]string{"index.d.ts": index, "index.js": "exports.boom = (s) => s;\n"}); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t, reg)
	if err := os.Symlink(sharedCompilers(t), filepath.Join(e.cache, "compilers")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "bomb-app")
	for name, body := range map[string]string{
		"package.json":  `{"name": "bomb-app", "version": "1.0.0", "private": true, "dependencies": {"bombkit": "1.0.0"}}`,
		"tsconfig.json": `{"compilerOptions": {"strict": true, "module": "commonjs", "noEmit": true}, "include": ["src"]}`,
		"src/index.ts":  "import { boom } from \"bombkit\";\n\nexport const x: string = boom(\"a\");\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	npmInstall(t, e, dir)
	r := run(t, e, dir, "check", "bombkit", "--target", "bombkit@2.0.0", "--ci")
	out := r.stdout + r.stderr
	if r.code != 2 || !strings.Contains(out, "bombkit@2.0.0") || !strings.Contains(out, "index.d.ts is 33 MB of TypeScript, more than the 32 MB a file may have") {
		t.Fatalf("exit %d, want 2 naming bombkit@2.0.0 and the limit\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, dump := range []string{"FATAL ERROR", "Last few GCs", "JavaScript heap", "stderr:"} {
		if strings.Contains(out, dump) {
			t.Errorf("the output holds a crash dump (%q):\n%s", dump, out)
		}
	}
}

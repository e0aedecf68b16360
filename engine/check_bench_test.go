package engine

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// benchImporters files use zod, about eleven sites each (220 sites); the
// rest of the workspace is plain TypeScript that never loads it.
const benchImporters = 20

// checkRepo writes a TypeScript workspace of n files, benchImporters of
// which use zod 3.25.76, installed into node_modules from the fixture.
func checkRepo(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("package.json", `{"name":"bench-check","version":"1.0.0","private":true,"dependencies":{"zod":"3.25.76"}}`)
	write("tsconfig.json", `{"compilerOptions":{"strict":true,"module":"commonjs","target":"es2020","noEmit":true},"include":["src"]}`)
	src := "../fixtures/registry/zod/3.25.76"
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		write("node_modules/zod/"+filepath.ToSlash(rel), string(data))
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < benchImporters; i++ {
		write(fmt.Sprintf("src/schemas/s%02d.ts", i), fmt.Sprintf(`import { z, ZodError } from "zod";

export const S%[1]d = z.object({ a: z.string().min(1), b: z.number().int() });
export type T%[1]d = z.infer<typeof S%[1]d>;

export function check%[1]d(x: unknown): string[] {
  const r = S%[1]d.safeParse(x);
  return r.success ? [] : r.error.issues.map((e) => e.message);
}

export function flat%[1]d(e: ZodError) {
  return e.flatten().fieldErrors;
}
`, i))
	}
	for i := 0; i < n-benchImporters; i++ {
		var body strings.Builder
		if i > 0 {
			fmt.Fprintf(&body, "import { f%d } from \"./m%04d\";\n", i-1, i-1)
		}
		fmt.Fprintf(&body, "export interface R%d { id: number; name: string; tags: string[] }\n", i)
		fmt.Fprintf(&body, "export function f%d(n: number): number {\n  const r: R%d = { id: n, name: \"m%d\", tags: [] };\n", i, i, i)
		if i > 0 {
			fmt.Fprintf(&body, "  return f%d(r.id) + r.name.length;\n}\n", i-1)
		} else {
			body.WriteString("  return r.id + r.name.length;\n}\n")
		}
		write(fmt.Sprintf("src/m%04d.ts", i), body.String())
	}
	return root
}

// benchCheck measures `check zod --target zod@4.1.12` on a generated
// workspace of n files, next to the two compiler runs it needs (baseline
// and overlay over the same files, with a driver of their own), and the Go
// process's memory.
func benchCheck(b *testing.B, n int) {
	pinned := pinnedCompiler(b)
	cacheDir := b.TempDir()
	if err := os.Symlink(filepath.Dir(pinned.Dir), filepath.Join(cacheDir, "compilers")); err != nil {
		b.Fatal(err)
	}
	b.Setenv("UPTIDE_CACHE_DIR", cacheDir)
	dir := checkRepo(b, n)
	reg, err := testregistry.New(os.DirFS("../fixtures/registry"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := reg.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(reg.Close)
	env := []string{"npm_config_registry=" + reg.URL(), "HOME=" + b.TempDir()}
	cfg, err := registry.LoadConfig(dir, env)
	if err != nil {
		b.Fatal(err)
	}
	client := registry.New(registry.Options{Config: cfg})
	ctx := context.Background()

	// The two compiler runs alone.
	target, err := client.Fetch(ctx, "zod", "4.1.12")
	if err != nil {
		b.Fatal(err)
	}
	defer target.Remove()
	var files []string
	for i := 0; i < benchImporters; i++ {
		files = append(files, fmt.Sprintf("src/schemas/s%02d.ts", i))
	}
	// The two compiles alone, twice: the faster run is the reference, the
	// first one may meet a cold file cache.
	var compileAlone, compileCPU time.Duration
	for i := 0; i < 2; i++ {
		start, cpu0 := time.Now(), cpuTime()
		ad := typescript.New(pinned, typescript.Options{})
		ov, err := typescript.BuildOverlay(ctx, typescript.OverlayRequest{Workspace: dir, Targets: []typescript.LinkedPackage{{Name: "zod", Dir: target.Dir}}})
		if err != nil {
			b.Fatal(err)
		}
		res, err := ad.Compile(ctx, typescript.CompileRequest{RepoRoot: dir, Files: files, Overlay: ov})
		if err != nil {
			b.Fatal(err)
		}
		ov.Cleanup()
		ad.Close()
		wall, cpu := time.Since(start), cpuTime()-cpu0
		if i == 0 || wall < compileAlone {
			compileAlone = wall
		}
		if i == 0 || cpu < compileCPU {
			compileCPU = cpu
		}
		if len(res.New) == 0 {
			b.Fatal("the target compiles cleanly: the fixture lost its breaking sites")
		}
	}

	var usages time.Duration
	var sites int
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		timing := map[Phase]time.Duration{}
		rep, err := Check(ctx, CheckOptions{
			Cwd: dir, Env: env, Client: registry.New(registry.Options{Config: cfg}),
			Packages: []string{"zod"}, Targets: map[string]string{"zod": "4.1.12"}, Compile: true, Timing: timing,
		})
		if err != nil {
			b.Fatal(err)
		}
		p := rep.Packages[0]
		if p.Verdict != "breaking" || p.Compile.Compiled != benchImporters {
			b.Fatalf("verdict %q, compile %+v", p.Verdict, p.Compile)
		}
		usages += timing[PhaseUsages]
		sites = p.Counts.Sites
	}
	b.StopTimer()
	cpuPerOp := (cpuTime() - cpu0) / time.Duration(b.N)
	perOp := b.Elapsed() / time.Duration(b.N)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(perOp)/float64(compileAlone), "x-compile")
	b.ReportMetric(float64(compileAlone.Milliseconds()), "compile-ms")
	if compileCPU > 0 {
		b.ReportMetric(float64(cpuPerOp)/float64(compileCPU), "x-compile-cpu")
	}
	b.ReportMetric(float64((usages / time.Duration(b.N)).Milliseconds()), "usages-ms")
	b.ReportMetric(float64(sites), "sites")
	b.ReportMetric(float64(ms.Sys)/(1<<20), "go-sys-MB")
}

// BenchmarkCheck300: 300 files, 20 of them using zod at about 220 sites.
func BenchmarkCheck300(b *testing.B) { benchCheck(b, 300) }

// BenchmarkCheck3000: the same package use in a workspace ten times larger;
// the usage scan follows the files that import the package, not the
// repository.
func BenchmarkCheck3000(b *testing.B) { benchCheck(b, 3000) }

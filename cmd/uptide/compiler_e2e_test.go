package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
)

// compilerRegistry is the test registry with real TypeScript releases added
// (fetched once from the npm registry into the shared cache, as pinned
// tools): 5.8.3, 7.0.2 and 7.0.2's native build for this machine.
func compilerRegistry(t *testing.T) env {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the native TypeScript 7 build is fetched for linux and darwin only here")
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if arch == "" {
		t.Skipf("no native TypeScript 7 build for %s", runtime.GOARCH)
	}
	native := "@typescript/typescript-" + runtime.GOOS + "-" + arch
	reg := startRegistry(t)
	for _, p := range [][2]string{{"typescript", "5.8.3"}, {"typescript", "7.0.2"}, {native, "7.0.2"}} {
		if err := reg.AddDir(pinnedTool(t, p[0], p[1])); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t, reg)
	if err := os.Symlink(sharedCompilers(t), filepath.Join(e.cache, "compilers")); err != nil {
		t.Fatal(err)
	}
	return e
}

// Upgrading TypeScript itself (5.8 → 7.0): no source names the package, so
// the projects are compiled whole by both compilers. tsc 7 removed
// moduleResolution node10 and baseUrl; those are the findings, nothing is
// written into the checkout (composite is on, which would emit build info),
// and the real upgrade's tsc says the same. With the options modernised the
// same upgrade is clean.
func TestCheckTypeScriptUpgrade(t *testing.T) {
	e := compilerRegistry(t)
	dir := copyFixture(t, "ts-upgrade")
	npmInstall(t, e, dir)
	before := treeDigest(t, dir)

	r := run(t, e, dir, "check", "typescript", "--target", "typescript@7.0.2", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (breaking)\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	p := packageReport(t, rep, "typescript")
	var codes []int
	for _, f := range p.Findings {
		if f.Severity == model.Breaking {
			for _, d := range f.Evidence {
				codes = append(codes, d.Code)
				if d.File != "tsconfig.json" {
					t.Errorf("%s:%d TS%d, want every new error in tsconfig.json", d.File, d.Line, d.Code)
				}
			}
			if !strings.HasPrefix(f.Reason, "TypeScript 7.0.2 reports it and 5.8.3 does not: ") {
				t.Errorf("reason %q does not say which compiler reports it", f.Reason)
			}
		}
	}
	sort.Ints(codes)
	if len(codes) != 2 || codes[0] != 5102 || codes[1] != 5108 {
		t.Errorf("breaking codes %v, want [5102 5108] (baseUrl, moduleResolution=node10 removed)", codes)
	}
	if p.Compile.PreExisting != 1 || len(p.Compile.PreExistingErrors) != 1 || p.Compile.PreExistingErrors[0].File != "src/greet.ts" {
		t.Errorf("pre-existing %d %+v, want src/greet.ts's own error", p.Compile.PreExisting, p.Compile.PreExistingErrors)
	}
	if p.Compile.Compiled != 2 || !strings.Contains(p.Compile.Line, "TypeScript 5.8.3 → 7.0.2") {
		t.Errorf("compile %+v, want the 2 source files compiled by both", p.Compile)
	}
	var titles []string
	for _, rule := range p.Plan.Rules {
		titles = append(titles, rule.Title)
	}
	if strings.Join(titles, "|") != "tsconfig option removed (TS5102)|tsconfig option value removed (TS5108)" {
		t.Errorf("plan %q", titles)
	}
	if after := treeDigest(t, dir); after != before {
		t.Errorf("check wrote into the checkout:\n%s", diffLines(before, after))
	}

	// The real upgrade, and its own tsc.
	up := installedCopy(t, dir)
	npmManager().upgrade(t, e, up, true, "typescript@7.0.2")
	truth := tscNew(t, dir, up)
	var said []string
	for _, f := range p.Findings {
		for _, d := range f.Evidence {
			said = append(said, errorKey(d.File, d.Line, d.Code))
		}
	}
	sort.Strings(said)
	if strings.Join(said, " ") != strings.Join(truth, " ") {
		t.Errorf("check says %q, tsc 7 after the upgrade says %q", said, truth)
	}

	// Options tsc 7 accepts: the same upgrade is clean.
	modern := strings.NewReplacer(`"moduleResolution": "node",`, `"moduleResolution": "bundler",`, `"module": "commonjs",`, `"module": "esnext",`,
		`"baseUrl": ".",`, "")
	config := filepath.Join(dir, "tsconfig.json")
	b, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte(modern.Replace(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, e, dir, "check", "typescript", "--target", "typescript@7.0.2")
	if r.code != 0 || !strings.Contains(r.stdout, "✓ no new errors in 2 files (1 project)") {
		t.Errorf("exit %d, want 0 and no new errors:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

var tscLine = regexp.MustCompile(`^(.+?)\((\d+),\d+\): error TS(\d+):`)

// tscNew runs each copy's own node_modules/.bin/tsc on its tsconfig and
// returns the errors after has and before lacks, as "file:line TScode".
func tscNew(t *testing.T, before, after string) []string {
	t.Helper()
	count := map[string]int{}
	for _, k := range tscErrors(t, before) {
		count[k]++
	}
	var out []string
	for _, k := range tscErrors(t, after) {
		if count[k] > 0 {
			count[k]--
			continue
		}
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func tscErrors(t *testing.T, dir string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(dir, "node_modules", ".bin", "tsc"), "-p", ".", "--pretty", "false", "--noEmit",
		"--incremental", "false", "--composite", "false")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("tsc in %s: %v", dir, err)
	}
	var errs []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := tscLine.FindStringSubmatch(sc.Text()); m != nil {
			errs = append(errs, m[1]+":"+m[2]+" TS"+m[3])
		}
	}
	return errs
}

func errorKey(file string, line, code int) string {
	return file + ":" + strconv.Itoa(line) + " TS" + strconv.Itoa(code)
}

// treeDigest lists every file below dir (node_modules included) with the
// hash of its content, one per line, sorted.
func treeDigest(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			lines = append(lines, rel+" -> "+target)
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%s %x", rel, sha256.Sum256(b)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// diffLines is the lines only one of two digests has.
func diffLines(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out []string
	for l := range ma {
		if !mb[l] {
			out = append(out, "- "+l)
		}
	}
	for l := range mb {
		if !ma[l] {
			out = append(out, "+ "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

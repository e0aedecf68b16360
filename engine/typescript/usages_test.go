package typescript

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/uptide/uptide/engine/model"
)

var usagesDir = filepath.Join("testdata", "usages")

// usageRepo copies testdata/usages/repos/<name> into a temporary directory
// and installs every package of testdata/usages/packages in its
// node_modules: copied in place (npm's hoisted layout), or into pnpm's
// store with a symlink where the package's name resolves.
func usageRepo(t testing.TB, name string, pnpm bool) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	copyUsageTree(t, filepath.Join(usagesDir, "repos", name), dst)
	pkgs := filepath.Join(usagesDir, "packages")
	manifests, err := filepath.Glob(filepath.Join(pkgs, "*", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	scoped, _ := filepath.Glob(filepath.Join(pkgs, "@*", "*", "package.json"))
	for _, m := range append(manifests, scoped...) {
		dir := filepath.Dir(m)
		pkgName := filepath.ToSlash(strings.TrimPrefix(dir, pkgs+string(filepath.Separator)))
		link := filepath.Join(dst, "node_modules", filepath.FromSlash(pkgName))
		if !pnpm {
			copyUsageTree(t, dir, link)
			continue
		}
		var manifest struct{ Version string }
		b, err := os.ReadFile(m)
		if err == nil {
			err = json.Unmarshal(b, &manifest)
		}
		if err != nil {
			t.Fatal(err)
		}
		storeRel := filepath.Join(".pnpm", strings.ReplaceAll(pkgName, "/", "+")+"@"+manifest.Version, "node_modules", filepath.FromSlash(pkgName))
		copyUsageTree(t, dir, filepath.Join(dst, "node_modules", storeRel))
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		target, err := filepath.Rel(filepath.Dir(link), filepath.Join(dst, "node_modules", storeRel))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func copyUsageTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// usageLines renders usages one per line with the text of their span:
// "file:line:col [span] symbolPath canonicalPath access via loader",
// then " unchecked" and " @subpath" when they apply.
func usageLines(t *testing.T, repo string, us []model.Usage) []string {
	t.Helper()
	out := []string{}
	for _, u := range us {
		src, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(u.File)))
		if err != nil {
			t.Fatalf("usage in %s: %v", u.File, err)
		}
		if u.Start < 0 || u.End > len(src) || u.Start > u.End {
			t.Fatalf("usage span [%d,%d) outside %s", u.Start, u.End, u.File)
		}
		s := fmt.Sprintf("%s:%d:%d [%s] %s %s %s %s %s", u.File, u.Line, u.Column, src[u.Start:u.End], u.SymbolPath, u.CanonicalPath, u.Access, u.Via, u.Loader)
		if !u.Checked {
			s += " unchecked"
		}
		if u.Subpath != "" {
			s += " @" + u.Subpath
		}
		out = append(out, s)
	}
	return out
}

func unanalyzedLines(us []model.Unanalyzed) []string {
	out := []string{}
	for _, u := range us {
		out = append(out, fmt.Sprintf("%s:%d %s: %s", u.File, u.Line, u.Kind, u.Reason))
	}
	return out
}

func diffLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	gotSet := map[string]bool{}
	for _, g := range got {
		gotSet[g] = true
	}
	wantSet := map[string]bool{}
	for _, w := range want {
		wantSet[w] = true
		if !gotSet[w] {
			t.Errorf("%s: missing %s", what, w)
		}
	}
	for _, g := range got {
		if !wantSet[g] {
			t.Errorf("%s: unexpected %s", what, g)
		}
	}
	if !t.Failed() {
		t.Errorf("%s: order differs:\n%s", what, strings.Join(got, "\n"))
	}
}

// usageCase is one Signal A case: a fixture repository, the package looked
// for, and what the scan must report.
type usageCase struct {
	name string
	repo string
	// pkg is the package looked for, fakelib unless set.
	pkg string
	// workspace is the workspace directory relative to the repository.
	workspace string
	exclude   []string
	want      []string
	importers []string
	barrels   []string
	// unanalyzed lists computed and escaping loads.
	unanalyzed []string
	tsconfig   string
	includesJS bool
	// typesFrom is the @types package the declarations come from.
	typesFrom string
}

func TestFindUsages(t *testing.T) {
	a := sharedAdapter(t)
	for _, tt := range usageCases() {
		t.Run(tt.name, func(t *testing.T) { runUsageCase(t, a, tt, nil) })
	}
}

// usageCases are TestFindUsages' table, shared with the runs on every
// supported compiler (compat_test.go).
func usageCases() []usageCase {
	return []usageCase{
		{
			name: "typescript imports, members, types and literals",
			repo: "basic",
			want: []string{
				// Named imports keep the export name written; the alias
				// import resolves to its canonical target.
				"src/a.ts:1:10 [createClient] createClient createClient import direct import @.",
				"src/a.ts:1:24 [makeClient] makeClient createClient import alias import @.",
				"src/a.ts:1:42 [Client] Client Client import direct import @.",
				"src/a.ts:1:50 [Base] Base Base import direct import @.",
				"src/a.ts:1:56 [Derived] Derived Derived import direct import @.",
				"src/a.ts:1:70 [Plugin] Plugin Plugin import direct import @.",
				"src/a.ts:1:78 [z] z z import direct import @.",
				// Object literal keys through the contextual type: a
				// function value implements, anything else writes.
				"src/a.ts:3:11 [createClient] createClient createClient call direct import @.",
				"src/a.ts:3:26 [url] ClientOptions#url ClientOptions#url write direct import @.",
				"src/a.ts:3:36 [onError] ClientOptions#onError ClientOptions#onError implement direct import @.",
				"src/a.ts:4:3 [get] Client#get Client#get call direct import @.",
				"src/a.ts:5:3 [timeout] Client#timeout Client#timeout write direct import @.",
				"src/a.ts:6:11 [mk] makeClient createClient call alias import @.",
				// new X() is X.new(); Client in Client.create() is a
				// qualifier, not a usage.
				"src/a.ts:7:15 [Client] Client.new() Client.new() construct direct import @.",
				"src/a.ts:7:24 [url] ClientOptions#url ClientOptions#url write direct import @.",
				"src/a.ts:8:18 [create] Client.create Client.create call direct import @.",
				"src/a.ts:9:20 [Base] Base Base implement direct import @.",
				"src/a.ts:9:36 [Plugin] Plugin Plugin implement direct import @.",
				// The namespace chain: z is a qualifier, string() returns a
				// ZString whose min and max are its members.
				"src/a.ts:12:13 [string] z.string string call direct import @.",
				"src/a.ts:12:22 [min] ZString#min ZString#min call direct import @.",
				"src/a.ts:12:29 [max] ZString#max ZString#max call direct import @.",
				// The checker says TypeOf; the consumer wrote infer.
				"src/a.ts:13:12 [infer] z.infer infer typeRef direct import @.",
				"src/a.ts:14:9 [get] Client#get Client#get read destructure import @.",
				"src/a.ts:15:1 [get] Client#get Client#get call destructure import @.",
				// An inherited member is reported under the receiver's class.
				"src/a.ts:16:5 [Derived] Derived.new() Derived.new() construct direct import @.",
				"src/a.ts:16:15 [run] Derived#run Derived#run call direct import @.",
				"src/b.ts:2:10 [helper] helper helper import direct import @./extra",
				"src/b.ts:4:1 [helper] helper helper call direct import @./extra",
				"src/b.ts:5:11 [ClientOptions] ClientOptions ClientOptions typeRef direct import @.",
				"src/b.ts:5:29 [url] ClientOptions#url ClientOptions#url write direct import",
				"src/b.ts:5:39 [retries] ClientOptions#retries ClientOptions#retries write direct import",
				"src/b.ts:6:4 [createClient] createClient createClient call direct import @.",
				"src/b.ts:7:13 [TypeOf] TypeOf TypeOf typeRef direct import @.",
			},
			importers: []string{"src/a.ts", "src/b.ts"},
			tsconfig:  "tsconfig.json",
		},
		{
			name: "javascript and require",
			repo: "js",
			want: []string{
				// require() returns any in a TypeScript file: members are
				// matched by name against the surface.
				"src/any.ts:2:5 [createClient] createClient createClient call require require @.",
				"src/any.ts:2:20 [get] Client#get Client#get call inferred require @.",
				"src/any.ts:3:9 [makeClient] makeClient createClient import require require @.",
				"src/any.ts:4:1 [makeClient] makeClient createClient call require require @.",
				"src/any.ts:5:9 [Client] Client.new() Client.new() construct require require @.",
				// @ts-check makes a JavaScript file checked.
				"src/checked.js:2:9 [Client] Client Client import destructure require @.",
				"src/checked.js:4:5 [Client] Client.new() Client.new() construct destructure require @.",
				"src/checked.js:4:14 [url] ClientOptions#url ClientOptions#url write direct require @.",
				"src/eq.ts:3:4 [createClient] createClient createClient call direct require @.",
				// JavaScript under allowJs without checkJs: typed by the
				// checker, not checked by the repository.
				"src/lib.js:1:9 [createClient] createClient createClient import destructure require unchecked @.",
				"src/lib.js:4:11 [createClient] createClient createClient call destructure require unchecked @.",
				"src/lib.js:4:26 [url] ClientOptions#url ClientOptions#url write direct require unchecked @.",
				"src/lib.js:5:3 [get] Client#get Client#get call direct require unchecked @.",
				"src/lib.js:6:5 [makeClient] makeClient createClient call direct require unchecked @.",
				"src/nocheck.ts:2:10 [version] version version import direct import unchecked @.",
				"src/nocheck.ts:4:13 [version] version version read direct import unchecked @.",
			},
			importers: []string{"src/any.ts", "src/checked.js", "src/eq.ts", "src/lib.js", "src/nocheck.ts"},
			unanalyzed: []string{
				// computed.ts neither loads nor names fakelib: its import(name)
				// is in Computed, not against the package.
				"src/lib.js:8 require: the module specifier is computed, in a file that loads fakelib",
				"src/lib.js:9 require: the loaded module is passed on, not bound to a name",
			},
			tsconfig:   "tsconfig.json",
			includesJS: true,
		},
		{
			name: "a barrel re-exporting the package",
			repo: "barrel",
			want: []string{
				"src/app.ts:1:10 [mc] createClient createClient import reexport import @.",
				"src/app.ts:1:14 [Client] Client Client import reexport import @.",
				"src/app.ts:1:22 [version] version version import reexport import",
				"src/app.ts:3:1 [mc] createClient createClient call reexport import @.",
				"src/app.ts:3:6 [get] Client#get Client#get call reexport import @.",
				"src/app.ts:4:5 [Client] Client.new() Client.new() construct reexport import @.",
				"src/app.ts:4:14 [url] ClientOptions#url ClientOptions#url write direct import",
				"src/app.ts:5:13 [version] version version read reexport import",
				"src/lib/index.ts:1:10 [createClient] createClient createClient import direct import @.",
				"src/lib/index.ts:1:30 [Client] Client Client import direct import @.",
			},
			importers: []string{"src/app.ts", "src/lib/index.ts"},
			barrels:   []string{"src/lib/index.ts"},
			tsconfig:  "tsconfig.json",
		},
		{
			name: "a file that only receives a package value",
			repo: "tier2",
			want: []string{
				"src/client.ts:1:10 [createClient] createClient createClient import direct import @.",
				"src/client.ts:3:23 [createClient] createClient createClient call direct import @.",
				// Members rooted at an import binding, and a literal passed
				// to a package method; loose and local are not the package's.
				"src/use.ts:3:8 [get] Client#get Client#get call direct import",
				"src/use.ts:4:8 [timeout] Client#timeout Client#timeout write direct import",
				"src/use.ts:5:8 [configure] Client#configure Client#configure call direct import",
				"src/use.ts:5:20 [retries] ClientOptions#retries ClientOptions#retries write direct import",
				"src/use.ts:12:19 [name] Client#name Client#name read direct import",
			},
			importers: []string{"src/client.ts"},
			tsconfig:  "tsconfig.json",
		},
		{
			name:      "the root workspace without the workspaces that declare the package",
			repo:      "workspaces",
			workspace: ".",
			exclude:   []string{"packages/a", "packages/b"},
			want: []string{
				"src/root.ts:1:10 [createClient] createClient createClient import direct import @.",
				"src/root.ts:3:1 [createClient] createClient createClient call direct import @.",
			},
			importers:  []string{"src/root.ts"},
			tsconfig:   "tsconfig.json",
			includesJS: true,
		},
		{
			name:      "a solution tsconfig's referenced project",
			repo:      "workspaces",
			workspace: "packages/a",
			want: []string{
				"packages/a/src/a.ts:1:10 [Client] Client Client import direct import @.",
				"packages/a/src/a.ts:3:22 [Client] Client.new() Client.new() construct direct import @.",
				"packages/a/src/a.ts:3:31 [url] ClientOptions#url ClientOptions#url write direct import @.",
			},
			importers: []string{"packages/a/src/a.ts"},
			tsconfig:  "packages/a/tsconfig.json",
		},
		{
			name:      "options from the tsconfig above, files from the workspace",
			repo:      "workspaces",
			workspace: "packages/b",
			want: []string{
				"packages/b/src/b.js:1:10 [version] version version import direct import unchecked @.",
				"packages/b/src/b.js:3:13 [version] version version read direct import unchecked @.",
			},
			importers:  []string{"packages/b/src/b.js"},
			tsconfig:   "tsconfig.json",
			includesJS: true,
		},
		{
			name: "JSX props through the component's contextual type",
			repo: "jsx",
			want: []string{
				"src/ui.tsx:1:10 [Button] Button Button import direct import @.",
				"src/ui.tsx:3:20 [Button] Button Button call direct import @.",
				"src/ui.tsx:3:27 [label] ButtonProps#label ButtonProps#label write direct import @.",
				"src/ui.tsx:3:37 [onPress] ButtonProps#onPress ButtonProps#onPress implement direct import @.",
			},
			importers: []string{"src/ui.tsx"},
			tsconfig:  "tsconfig.json",
		},
		{
			name: "export = through import =, a default import and an untyped require",
			repo: "exportequals",
			pkg:  "eqlib",
			want: []string{
				"src/eq.ts:1:8 [eqlib] eqlib eqlib import direct require @.",
				"src/eq.ts:2:8 [def] eqlib eqlib import direct import @.",
				"src/eq.ts:4:16 [Result] eqlib.Result eqlib.Result typeRef direct require @.",
				"src/eq.ts:4:25 [eqlib] eqlib eqlib call direct require @.",
				"src/eq.ts:5:3 [value] eqlib.Result#value eqlib.Result#value read direct import @.",
				"src/eq.ts:6:7 [parse] eqlib.parse eqlib.parse call direct require @.",
				"src/eq.ts:6:18 [ok] eqlib.Result#ok eqlib.Result#ok read direct require @.",
				"src/eq.ts:7:5 [version] eqlib.version eqlib.version read direct import @.",
				// The untyped require's root is the export = target.
				"src/eq.ts:8:7 [lib] eqlib eqlib import require require @.",
				"src/eq.ts:9:1 [lib] eqlib eqlib call require require @.",
				"src/eq.ts:10:5 [parse] eqlib.parse eqlib.parse call require require @.",
			},
			importers: []string{"src/eq.ts"},
			tsconfig:  "tsconfig.json",
		},
		{
			name:      "globals an @types package declares, used without an import",
			repo:      "exportequals",
			pkg:       "globlib",
			typesFrom: "@types/globlib",
			want: []string{
				`src/glob.ts:1:1 [describeIt] "global":describeIt "global":describeIt call direct import`,
				`src/glob.ts:2:9 [go] "global":globlib.go "global":globlib.go call direct import`,
			},
			importers: []string{},
			tsconfig:  "tsconfig.json",
		},
		{
			name: "an @types package checked itself: code loads the module it types",
			repo: "typesonly",
			pkg:  "@types/typedlib",
			want: []string{
				"src/use.ts:1:10 [make] make make import direct import @.",
				"src/use.ts:1:21 [Options] Options Options import direct import @.",
				"src/use.ts:3:16 [Options] Options Options typeRef direct import @.",
				"src/use.ts:3:28 [depth] Options#depth Options#depth write direct import @.",
				"src/use.ts:4:21 [make] make make call direct import @.",
			},
			importers: []string{"src/use.ts"},
			tsconfig:  "tsconfig.json",
		},
		{
			name: "no tsconfig: sources minus build and dist",
			repo: "notsconfig",
			want: []string{
				"src/x.ts:1:10 [version] version version import direct import @.",
				"src/x.ts:3:13 [version] version version read direct import @.",
			},
			importers: []string{"src/x.ts"},
			// Without a tsconfig the default program reads JavaScript too
			// (issue 27: a JavaScript app without one is scanned).
			includesJS: true,
		},
	}
}

// runUsageCase scans tt with a and checks every field; edit, when set,
// changes the copied repository first (an older compiler's tsconfig).
func runUsageCase(t *testing.T, a *Adapter, tt usageCase, edit func(t *testing.T, repo string)) {
	ctx := context.Background()
	repo := usageRepo(t, tt.repo, false)
	if edit != nil {
		edit(t, repo)
	}
	pkg := tt.pkg
	if pkg == "" {
		pkg = "fakelib"
	}
	res, err := a.FindUsages(ctx, UsageRequest{RepoRoot: repo, Workspace: tt.workspace, Package: pkg, Exclude: tt.exclude})
	if err != nil {
		t.Fatal(err)
	}
	diffLines(t, "usages", usageLines(t, repo, res.Usages), tt.want)
	diffLines(t, "unanalyzed", unanalyzedLines(res.Unanalyzed), nonNil(tt.unanalyzed))
	if !reflect.DeepEqual(res.Importers, tt.importers) {
		t.Errorf("importers %q, want %q", res.Importers, tt.importers)
	}
	if !reflect.DeepEqual(res.Barrels, nonNil(tt.barrels)) {
		t.Errorf("barrels %q, want %q", res.Barrels, tt.barrels)
	}
	kind := "none"
	if tt.tsconfig != "" {
		kind = "own"
		if dir := path.Dir(tt.tsconfig); dir != tt.workspace && !(dir == "." && tt.workspace == "") {
			kind = "above"
		}
	}
	if res.Config != tt.tsconfig || res.ConfigKind != kind || res.IncludesJS != tt.includesJS {
		t.Errorf("config %q (%s) includesJs %v, want %q (%s) %v", res.Config, res.ConfigKind, res.IncludesJS, tt.tsconfig, kind, tt.includesJS)
	}
	ws := tt.workspace
	if ws == "" {
		ws = "."
	}
	for _, u := range res.Usages {
		if u.Workspace != ws {
			t.Errorf("%s:%d: workspace %q, want %q", u.File, u.Line, u.Workspace, ws)
		}
	}
	if res.Unmapped != 0 || res.Unresolved != "" || res.NoTypes != "" {
		t.Errorf("unmapped %d, unresolved %q, noTypes %q", res.Unmapped, res.Unresolved, res.NoTypes)
	}
	installed := pkg
	if tt.typesFrom != "" {
		installed = tt.typesFrom
	}
	if want, _ := filepath.EvalSymlinks(filepath.Join(repo, "node_modules", filepath.FromSlash(installed))); res.PackageDir != want {
		t.Errorf("package dir %s, want %s", res.PackageDir, want)
	}
	if res.TypesFrom != tt.typesFrom {
		t.Errorf("types from %q, want %q", res.TypesFrom, tt.typesFrom)
	}
	// The position map built from the surface check extracts
	// anyway reads the same usages as the driver's own.
	if tt.typesFrom == "" {
		s, err := a.ExtractSurface(ctx, res.PackageDir, pkg, "1.0.0")
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.FindUsages(ctx, UsageRequest{RepoRoot: repo, Workspace: tt.workspace, Package: pkg, Exclude: tt.exclude, Installed: s, InstalledDir: res.PackageDir})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, res) {
			diffLines(t, "usages from the surface", usageLines(t, repo, got.Usages), usageLines(t, repo, res.Usages))
			t.Errorf("from the surface:\n%+v\nwant\n%+v", got, res)
		}
	}
}

// The driver reads the paths of the surface it is given, and only when the
// package resolves to the directory the surface was extracted from.
func TestFindUsagesInstalledSurface(t *testing.T) {
	a := sharedAdapter(t)
	ctx := context.Background()
	repo := usageRepo(t, "basic", false)
	own, err := a.FindUsages(ctx, UsageRequest{RepoRoot: repo, Package: "fakelib"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.ExtractSurface(ctx, own.PackageDir, "fakelib", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	// A surface whose createClient is spelled makeThing: the usages follow
	// the surface, so the driver built its map from it.
	renamed := *s
	renamed.Symbols = nil
	for _, y := range s.Symbols {
		if y.Path == "createClient" || strings.HasPrefix(y.Path, "createClient.") || strings.HasPrefix(y.Path, "createClient(") {
			y.Path = "makeThing" + strings.TrimPrefix(y.Path, "createClient")
		}
		if y.AliasOf == "createClient" {
			y.AliasOf = "makeThing"
		}
		renamed.Symbols = append(renamed.Symbols, y)
	}
	paths := func(r *UsageResult) map[string]bool {
		m := map[string]bool{}
		for _, u := range r.Usages {
			m[u.CanonicalPath] = true
		}
		return m
	}
	if !paths(own)["createClient"] {
		t.Fatalf("the driver's own map has no createClient usage: %v", paths(own))
	}
	for _, tt := range []struct {
		name      string
		dir       string
		wantOwn   bool // the usages are the driver's own map's
		wantPaths []string
	}{
		{"surface of the resolved directory", own.PackageDir, false, []string{"makeThing"}},
		{"surface of another directory", t.TempDir(), true, []string{"createClient"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := a.FindUsages(ctx, UsageRequest{RepoRoot: repo, Package: "fakelib", Installed: &renamed, InstalledDir: tt.dir})
			if err != nil {
				t.Fatal(err)
			}
			if same := reflect.DeepEqual(got, own); same != tt.wantOwn {
				t.Errorf("usages equal to the driver's own: %v, want %v", same, tt.wantOwn)
			}
			for _, p := range tt.wantPaths {
				if !paths(got)[p] {
					t.Errorf("no usage at %s: %v", p, paths(got))
				}
			}
		})
	}
}

// pnpm's store layout, and a package directory the caller names, read the
// same declarations as the hoisted copy: the usages are identical.
func TestFindUsagesLayouts(t *testing.T) {
	a := sharedAdapter(t)
	ctx := context.Background()
	hoisted := usageRepo(t, "basic", false)
	want, err := a.FindUsages(ctx, UsageRequest{RepoRoot: hoisted, Package: "fakelib"})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Usages) == 0 {
		t.Fatal("no usages in the hoisted layout")
	}
	pnpm := usageRepo(t, "basic", true)
	for _, tt := range []struct {
		name string
		req  UsageRequest
	}{
		{"pnpm store", UsageRequest{RepoRoot: pnpm, Package: "fakelib"}},
		{"named package dir", UsageRequest{RepoRoot: pnpm, Package: "fakelib", PackageDir: filepath.Join(pnpm, "node_modules", "fakelib")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := a.FindUsages(ctx, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(filepath.ToSlash(got.PackageDir), "node_modules/.pnpm/fakelib@1.0.0/node_modules/fakelib") {
				t.Errorf("package dir %s is not the store's", got.PackageDir)
			}
			if !reflect.DeepEqual(got.Usages, want.Usages) {
				diffLines(t, "usages", usageLines(t, pnpm, got.Usages), usageLines(t, hoisted, want.Usages))
			}
		})
	}
}

// Signal A runs with the compiler the Adapter was created with: here the
// one ResolveCompiler finds in the repository's node_modules.
func TestFindUsagesRepoCompiler(t *testing.T) {
	pinned := pinnedCompiler(t)
	repo := usageRepo(t, "notsconfig", false)
	if err := os.Symlink(pinned.Dir, filepath.Join(repo, "node_modules", "typescript")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := ResolveCompiler(ctx, repo, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !c.FromRepo || c.Dir != pinned.Dir {
		t.Fatalf("compiler %+v, want the repository's", c)
	}
	a := New(c, Options{NoSurfaceCache: true})
	defer a.Close()
	res, err := a.FindUsages(ctx, UsageRequest{RepoRoot: repo, Package: "fakelib"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Usages) != 2 {
		t.Errorf("%d usages, want 2: %v", len(res.Usages), usageLines(t, repo, res.Usages))
	}
	if v, _ := a.CompilerVersion(ctx); v != PinnedVersion {
		t.Errorf("compiler version %q", v)
	}
}

func TestFindUsagesUnresolvedAndBadInput(t *testing.T) {
	a := sharedAdapter(t)
	ctx := context.Background()
	repo := usageRepo(t, "js", false)

	// A package nobody installed: no usages, but the computed loads are
	// still listed, never dropped (neither file loads or names it, so both
	// are in Computed).
	res, err := a.FindUsages(ctx, UsageRequest{RepoRoot: repo, Package: "not-installed"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unresolved == "" || res.PackageDir != "" || len(res.Usages) != 0 {
		t.Errorf("unresolved %q, dir %q, %d usages", res.Unresolved, res.PackageDir, len(res.Usages))
	}
	if len(res.Unanalyzed) != 0 || len(res.Computed) != 2 {
		t.Errorf("unanalyzed %v, computed %+v: want the two computed loads listed apart", unanalyzedLines(res.Unanalyzed), res.Computed)
	}

	tests := []struct {
		name string
		req  UsageRequest
		want string
	}{
		{"no package", UsageRequest{RepoRoot: repo}, "no package named"},
		{"no root", UsageRequest{Package: "fakelib"}, "no repository root"},
		{"missing workspace", UsageRequest{RepoRoot: repo, Workspace: "packages/nope", Package: "fakelib"}, filepath.Join(repo, "packages", "nope") + " is not a directory"},
		{"missing tsconfig", UsageRequest{RepoRoot: repo, Package: "fakelib", TSConfig: "tsconfig.build.json"}, filepath.Join(repo, "tsconfig.build.json") + " does not exist"},
		{"missing package dir", UsageRequest{RepoRoot: repo, Package: "fakelib", PackageDir: filepath.Join(repo, "gone")}, "gone does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := a.FindUsages(ctx, tt.req)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}

	// A driver answer no correct driver gives is an error, not a usage.
	bad := model.Usage{File: "../outside.ts", Line: 1, Column: 1, SymbolPath: "x", CanonicalPath: "x", Access: model.AccessRead, Via: model.ViaDirect, Loader: model.LoaderImport}
	if err := checkUsage(&bad); err == nil {
		t.Error("a usage outside the repository passed")
	}
	var de *DriverError
	_, err = a.FindUsages(ctx, UsageRequest{RepoRoot: repo, Package: "fakelib", TSConfig: "nope.json"})
	if !errors.As(err, &de) || de.Code != "BAD_REQUEST" {
		t.Errorf("missing tsconfig: %v, want a BAD_REQUEST driver error", err)
	}
}

// benchWorkspace is the basic fixture grown to 300 files: half load the
// package and chain through it, half only receive its values.
func benchWorkspace(b *testing.B) string {
	b.Helper()
	repo := usageRepo(b, "basic", false)
	for i := 0; i < 300; i++ {
		var src string
		if i%2 == 0 {
			src = fmt.Sprintf(`import { createClient, z, type ClientOptions } from 'fakelib';
const opts: ClientOptions = { url: 'u%[1]d', retries: %[1]d };
export const c%[1]d = createClient(opts);
export const s%[1]d = z.string().min(%[1]d).max(%[1]d);
export function get%[1]d(k: string) { return c%[1]d.get(k) + c%[1]d.name; }
`, i)
		} else {
			src = fmt.Sprintf(`import { c%[1]d, get%[1]d } from './gen%[1]d';
const m = new Map<string, string>();
export function use%[2]d(k: string) {
  c%[1]d.timeout = 3;
  m.set(k, get%[1]d(k));
  return [m.get(k), c%[1]d.get(k), k.trim().toLowerCase()];
}
`, i-1, i)
		}
		if err := os.WriteFile(filepath.Join(repo, "src", fmt.Sprintf("gen%d.ts", i)), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return repo
}

// Cold: a workspace the driver has not read, so each iteration builds its
// program and the installed surface's position map, then scans.
func BenchmarkFindUsagesCold(b *testing.B) {
	a := New(pinnedCompiler(b), Options{NoSurfaceCache: true})
	defer a.Close()
	ctx := context.Background()
	repos := make([]string, b.N)
	for i := range repos {
		repos[i] = benchWorkspace(b)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := a.FindUsages(ctx, UsageRequest{RepoRoot: repos[i], Package: "fakelib"})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Importers) < 150 {
			b.Fatalf("%d importers", len(res.Importers))
		}
	}
}

// Warm: the program and the position map are kept from the previous
// request (another package of the same workspace costs this much).
func BenchmarkFindUsagesWarm(b *testing.B) {
	a := New(pinnedCompiler(b), Options{NoSurfaceCache: true})
	defer a.Close()
	ctx := context.Background()
	repo := benchWorkspace(b)
	req := UsageRequest{RepoRoot: repo, Package: "fakelib"}
	if _, err := a.FindUsages(ctx, req); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := a.FindUsages(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// A repository's sources are outside input: whatever a file holds, the scan
// answers (never a driver error) and every usage it reports is a span of
// that file on the line and column it claims.
func FuzzFindUsagesSource(f *testing.F) {
	for _, seed := range []string{"basic/src/a.ts", "basic/src/b.ts", "js/src/any.ts", "barrel/src/app.ts", "tier2/src/use.ts", "exportequals/src/eq.ts"} {
		b, err := os.ReadFile(filepath.Join(usagesDir, "repos", filepath.FromSlash(seed)))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("import { z } from 'fakelib'; z.")
	f.Add("const x = require('fakelib')[`createClient`](); new (require('fakelib').Client)({ url: '' }")
	a := New(pinnedCompiler(f), Options{NoSurfaceCache: true})
	f.Cleanup(func() { a.Close() })
	repo := usageRepo(f, "basic", false)
	for _, name := range []string{"a.ts", "b.ts", "plain.ts"} {
		if err := os.Remove(filepath.Join(repo, "src", name)); err != nil {
			f.Fatal(err)
		}
	}
	ctx := context.Background()
	n := 0
	f.Fuzz(func(t *testing.T, src string) {
		// A new name each time: a rewrite within one mtime tick must not
		// be mistaken for the file the driver already parsed.
		n++
		file := filepath.Join(repo, "src", fmt.Sprintf("f%d.ts", n))
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(file)
		res, err := a.FindUsages(ctx, UsageRequest{RepoRoot: repo, Package: "fakelib"})
		if err != nil {
			t.Fatalf("%v\nsource:\n%s", err, src)
		}
		if !utf8.ValidString(src) || strings.HasPrefix(src, "\uFEFF") {
			return // node decodes and strips these differently; offsets would not compare
		}
		utf16 := utf16Offsets(src)
		for _, u := range res.Usages {
			if u.File != fmt.Sprintf("src/f%d.ts", n) {
				t.Fatalf("usage in %s", u.File)
			}
			if u.Start < 0 || u.End > len(utf16)-1 || u.Start > u.End {
				t.Fatalf("span [%d,%d) outside the file", u.Start, u.End)
			}
			if line := lineAt(src[:utf16[u.Start]]); u.Line != line {
				t.Fatalf("usage %s at line %d, its offset is on line %d", u.SymbolPath, u.Line, line)
			}
		}
	})
}

// lineAt is the 1-based line the end of prefix is on, with the compiler's
// line terminators: LF, CR, CRLF, U+2028 and U+2029.
func lineAt(prefix string) int {
	line := 1
	for i, r := range prefix {
		switch r {
		case '\n':
			if i == 0 || prefix[i-1] != '\r' {
				line++
			}
		case '\r', '\u2028', '\u2029':
			line++
		}
	}
	return line
}

// utf16Offsets maps a UTF-16 offset (the compiler's) to a byte offset of
// src; the extra last entry is the end of the text.
func utf16Offsets(src string) []int {
	out := make([]int, 0, len(src)+1)
	for i, r := range src {
		out = append(out, i)
		if r >= 0x10000 {
			out = append(out, i)
		}
	}
	return append(out, len(src))
}

// TestFindUsagesWithoutDeclarations: a package that ships no declarations
// has no surface to resolve symbols against, but its sites are still read
// from the syntax, for the runtime probe to judge (issue 27, faker 6.6.6):
// each load ('.' with access import), and each member chain read from what
// a load binds, a call or a construct kept only at the levels the probe
// reads.
func TestFindUsagesWithoutDeclarations(t *testing.T) {
	a := sharedAdapter(t)
	repo := usageRepo(t, "bare", false)
	res, err := a.FindUsages(context.Background(), UsageRequest{RepoRoot: repo, Package: "barelib"})
	if err != nil {
		t.Fatal(err)
	}
	if res.NoTypes == "" {
		t.Fatalf("noTypes empty: barelib ships no declarations")
	}
	diffLines(t, "usages", usageLines(t, repo, res.Usages), []string{
		"src/a.js:1:14 [require('barelib')] . . import direct require unchecked",
		"src/a.js:2:30 [require('barelib')] . . import direct require unchecked",
		"src/a.js:3:1 [require('barelib')] . . import direct require unchecked",
		"src/a.js:5:1 [fake.email] email email call direct require unchecked",
		"src/a.js:6:1 [fake.name.first] name.first name.first read direct require unchecked",
		"src/a.js:7:1 [email] email email call direct require unchecked",
		"src/a.js:8:1 [who.first] name.first name.first read direct require unchecked",
		"src/a.js:9:5 [fake.Thing] Thing Thing construct direct require unchecked",
		"src/a.js:10:13 [fake] . . read direct require unchecked",
		"src/a.js:10:19 [require('barelib')] . . import direct require unchecked",
		"src/a.js:10:19 [require('barelib').email] email email call direct require unchecked",
		"src/b.mjs:1:1 [import lib, { email } from 'barelib';] . . import direct import unchecked",
		"src/b.mjs:2:1 [import * as ns from 'barelib';] . . import direct import unchecked",
		"src/b.mjs:4:1 [lib.email] default.email default.email call direct import unchecked",
		"src/b.mjs:5:1 [email] email email call direct import unchecked",
		"src/b.mjs:6:1 [ns.default.name.first] default.name.first default.name.first read direct import unchecked",
	})
}

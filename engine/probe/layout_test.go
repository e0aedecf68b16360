package probe

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/modformat"
)

// pnpm links a package's dependencies beside it inside .pnpm, reachable
// only through symlinks: the installed copy loads from its real directory,
// so is-number and its peer kleur resolve there; the target's is-number ^7
// is the consumer's copy, found in pnpm's hoisted virtual store
// (node_modules/.pnpm/node_modules), kleur at the top.
func TestPnpmInstalledCopyLoadsFromItsRealDirectory(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, pnpmInstall(t), "clockkit@2.0.0", "kleur@4.1.5")
	if _, err := os.Stat(filepath.Join(repo, "node_modules", ".pnpm")); err != nil {
		t.Fatalf("pnpm made no .pnpm store: %v", err)
	}
	if _, err := os.Stat(filepath.Join(repo, "node_modules", "is-number")); err == nil {
		t.Fatal("pnpm hoisted is-number to the top: the test needs the strict layout")
	}
	res, err := Run(context.Background(), e.request(t, repo, "clockkit", "2.0.0", "2.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	in := res.Installed
	if in.Inconclusive != "" || !in.Require.Got() || !in.Require.Value.Callable {
		t.Fatalf("the installed copy did not load through pnpm's links: %+v", in)
	}
	if !strings.Contains(in.Placement, "node_modules/.pnpm/clockkit@2.0.0") {
		t.Errorf("placement %q, want the real .pnpm directory", in.Placement)
	}
	if want := "with 2 dependencies (2 from your install)"; !strings.Contains(res.Target.Placement, want) {
		t.Errorf("target placement %q, want %q", res.Target.Placement, want)
	}
	if res.Status != model.RuntimeCompared || len(res.Changes) != 0 {
		t.Errorf("status %s (%s), changes %v; want the same version compared equal", res.Status, res.Reason, res.Changes)
	}
}

// The repository's Node picks the binary: the current one when it is of
// that line, else a version manager's install of it, else the current one
// with the reason. The managers' installs here are links to this
// machine's Node under each manager's directory layout.
func TestWhichNode(t *testing.T) {
	current, err := inspectNode(context.Background(), mustLookNode(t))
	if err != nil {
		t.Fatal(err)
	}
	major := strings.SplitN(strings.TrimPrefix(current.version, "v"), ".", 2)[0]
	layouts := map[string]string{
		"nvm":   ".nvm/versions/node/" + current.version + "/bin/node",
		"volta": ".volta/tools/image/node/" + strings.TrimPrefix(current.version, "v") + "/bin/node",
		"asdf":  ".asdf/installs/nodejs/" + strings.TrimPrefix(current.version, "v") + "/bin/node",
		"fnm":   ".local/share/fnm/node-versions/" + current.version + "/installation/bin/node",
	}
	for manager, rel := range layouts {
		t.Run(manager, func(t *testing.T) {
			home := t.TempDir()
			bin := filepath.Join(home, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(current.path, bin); err != nil {
				t.Fatal(err)
			}
			// No node on PATH: only the manager's install can answer.
			env := map[string]string{"HOME": home, "PATH": t.TempDir()}
			b, info, err := chooseNode(context.Background(), modformat.NodeInfo{Version: major, Source: ".nvmrc"}, env)
			if err != nil {
				t.Fatal(err)
			}
			if b.path != bin || !strings.Contains(info.Why, "installed by "+manager) || info.Wanted != major || info.WantedSource != ".nvmrc" {
				t.Errorf("chose %s (%+v), want %s installed by %s", b.path, info, bin, manager)
			}
		})
	}
	env := map[string]string{"HOME": t.TempDir(), "PATH": filepath.Dir(current.path)}
	_, info, err := chooseNode(context.Background(), modformat.NodeInfo{Version: "18", Source: ".nvmrc"}, env)
	if err != nil {
		t.Fatal(err)
	}
	if info.Path != current.path || !strings.Contains(info.Why, "the current Node: the repository runs Node 18 (.nvmrc) and no install of Node 18 was found under nvm, volta, asdf or fnm") {
		t.Errorf("without an install of 18: %+v", info)
	}
	_, info, err = chooseNode(context.Background(), modformat.NodeInfo{Version: major, Source: "Dockerfile FROM node:" + major}, env)
	if err != nil || info.Path != current.path || !strings.Contains(info.Why, "the current Node is of that line") {
		t.Errorf("with the current Node of the repository's line: %+v, %v", info, err)
	}
	_, info, err = chooseNode(context.Background(), modformat.NodeInfo{}, env)
	if err != nil || info.Why != "the current Node: nothing in the repository names its Node" {
		t.Errorf("with no Node named: %+v, %v", info, err)
	}
}

// Run reads the repository's Node itself when the caller passes none.
func TestRunReadsTheRepositorysNode(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "tintkit@4.1.2")
	if err := os.WriteFile(filepath.Join(repo, ".nvmrc"), []byte("16\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	req := e.request(t, repo, "tintkit", "4.1.2", "5.3.0")
	req.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	res, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Node.Wanted != "16" || res.Node.WantedSource != ".nvmrc" || !strings.Contains(res.Node.Why, "no install of Node 16 was found") {
		t.Errorf("node %+v, want the .nvmrc's 16 and the current Node in its stead", res.Node)
	}
}

// A Node without the permission model never runs a package.
func TestNoPermissionModelNoProbe(t *testing.T) {
	for _, v := range []struct {
		node nodeBinary
		flag string
	}{
		{nodeBinary{version: "v18.20.4", major: 18, minor: 20}, ""},
		{nodeBinary{version: "v20.20.2", major: 20, minor: 20}, "--experimental-permission"},
		{nodeBinary{version: "v22.12.0", major: 22, minor: 12}, "--experimental-permission"},
		{nodeBinary{version: "v22.13.0", major: 22, minor: 13}, "--permission"},
		{nodeBinary{version: "v23.4.0", major: 23, minor: 4}, "--experimental-permission"},
		{nodeBinary{version: "v23.5.0", major: 23, minor: 5}, "--permission"},
		{nodeBinary{version: "v24.1.0", major: 24, minor: 1}, "--permission"},
		{nodeBinary{version: "v25.0.0", major: 25, minor: 0}, "--permission"},
	} {
		flag, ok := v.node.permissionFlag()
		if flag != v.flag || ok != (v.flag != "") {
			t.Errorf("%s: %q %v, want %q", v.node.version, flag, ok, v.flag)
		}
	}
	_, err := sandbox{node: nodeBinary{path: "/usr/bin/node", version: "v18.20.4", major: 18}}.argv()
	if err == nil || !strings.Contains(err.Error(), "Node v18.20.4 has no permission model") {
		t.Errorf("argv on Node 18: %v", err)
	}
}

func mustLookNode(t *testing.T) string {
	t.Helper()
	p, err := lookPathIn("node", os.Getenv("PATH"))
	if err != nil {
		t.Fatal("node is needed on PATH")
	}
	return p
}

// The reads a load is allowed reach a workspace package linked into
// node_modules (a peer the installed copy loads), not the rest of the
// repository.
func TestReadRootsFollowLinksOutOfNodeModules(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"node_modules/x", "node_modules/@acme", "packages/lib", "src"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join("..", "..", "packages", "lib"), filepath.Join(root, "node_modules", "@acme", "lib")); err != nil {
		t.Fatal(err)
	}
	got := readRoots(filepath.Join(root, "node_modules", "x"))
	want := []string{filepath.Join(root, "node_modules"), filepath.Join(root, "packages", "lib")}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("reads %v lack %s", got, w)
		}
	}
	for _, g := range got {
		if g == root || g == filepath.Join(root, "src") {
			t.Errorf("reads %v open %s", got, g)
		}
	}
}

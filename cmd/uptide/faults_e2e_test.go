package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// A registry failure for one package leaves the others reported, lists the
// package as not checked with its host, and exits 2.
func TestListRegistryFailureIsPartial(t *testing.T) {
	reg := startRegistry(t)
	reg.Fail("zod", 500)
	dir := copyRepo(t, "npm-v3")
	r := run(t, newEnv(t, reg), dir, "list", "--json")
	var rep model.DiscoverReport
	env := decode(t, r, &rep)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2", r.code)
	}
	if len(rep.NotChecked) != 1 || rep.NotChecked[0].Name != "zod" || rep.NotChecked[0].Host == "" {
		t.Fatalf("notChecked = %+v, want zod with its host", rep.NotChecked)
	}
	if got := rep.NotChecked[0].Workspaces; !slices.Equal(got, []string{"packages/api", "packages/web"}) {
		t.Errorf("zod not checked in %v, want both workspaces", got)
	}
	if row := findRow(rep.Rows, "react", "packages/web"); row == nil || row.Latest != "19.1.0" {
		t.Errorf("react row lost or wrong after zod failed: %+v", row)
	}
	if len(env.Warnings) == 0 || !strings.Contains(env.Warnings[0], "not checked") {
		t.Errorf("warnings %v should say what was not checked", env.Warnings)
	}
	text := run(t, newEnv(t, reg), dir, "list")
	if text.code != 2 || !strings.Contains(text.stdout, "Not checked (1)") || !strings.Contains(text.stdout, "zod") {
		t.Errorf("text output exit %d:\n%s", text.code, text.stdout)
	}
}

// A registry that answers a few bytes a second is given up on like one that
// hangs: the package is listed as not checked with the limit it broke, the
// others are reported, and the exit code is 2. (This test takes the real
// 20 s of two attempts; the limits themselves are tested on an injected
// clock in engine/registry.)
func TestListDrippingRegistryIsNotChecked(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: waits out the registry limit's real 20 s")
	}
	reg := startRegistry(t)
	reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.Drip, Chunk: 4, Interval: time.Second})
	dir := copyRepo(t, "npm-v3")
	r := run(t, newEnv(t, reg), dir, "list")
	if r.code != 2 || !strings.Contains(r.stdout, "Not checked (1)") {
		t.Fatalf("exit %d, want 2 with zod not checked:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	_, notChecked, _ := strings.Cut(r.stdout, "Not checked (1)")
	if !strings.Contains(notChecked, "zod") || !strings.Contains(notChecked, "no complete answer within 10s") {
		t.Errorf("the not-checked section should name zod and the limit:\n%s", notChecked)
	}
	if !strings.Contains(r.stdout, "react") {
		t.Errorf("react lost while zod dripped:\n%s", r.stdout)
	}
}

// A registry that wants a token refuses every package; the token from the
// project's .npmrc gets through, and is never printed.
func TestListRegistryAuth(t *testing.T) {
	const token = "s3cr3t-token-value"
	reg := startRegistry(t)
	reg.RequireToken(token)
	dir := copyRepo(t, "npm-v1")

	r := run(t, newEnv(t, reg), dir, "list", "--json")
	var rep model.DiscoverReport
	decode(t, r, &rep)
	if r.code != 2 || len(rep.NotChecked) == 0 {
		t.Fatalf("without a token: exit %d, notChecked %+v", r.code, rep.NotChecked)
	}
	for _, nc := range rep.NotChecked {
		if !strings.Contains(nc.Reason, "401") {
			t.Errorf("%s: reason %q does not say 401", nc.Name, nc.Reason)
		}
	}
	// A refusal is not retried: at most one request per package (those in
	// flight before the first refusal arrived; the rest are never sent).
	if n := reg.Requests(); n > len(rep.NotChecked) {
		t.Errorf("%d requests for %d packages: a 401 must not be retried", n, len(rep.NotChecked))
	}

	host := strings.TrimPrefix(strings.TrimSuffix(reg.URL(), "/"), "http:")
	npmrc := fmt.Sprintf("%s/:_authToken=%s\n", host, token)
	if err := os.WriteFile(filepath.Join(dir, ".npmrc"), []byte(npmrc), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, newEnv(t, reg), dir, "list", "--json")
	rep = model.DiscoverReport{}
	decode(t, r, &rep)
	if r.code != 0 || len(rep.NotChecked) != 0 {
		t.Fatalf("with the token: exit %d, notChecked %+v\n%s", r.code, rep.NotChecked, r.stderr)
	}
	for _, out := range []string{r.stdout, r.stderr} {
		if strings.Contains(out, token) {
			t.Fatal("the token appears in the output")
		}
	}
}

// Equal inputs give identical bytes.
func TestListJSONIsDeterministic(t *testing.T) {
	reg := startRegistry(t)
	dir := copyRepo(t, "pnpm-v9")
	e := newEnv(t, reg)
	a := run(t, e, dir, "list", "--json")
	b := run(t, newEnv(t, reg), dir, "list", "--json")
	if a.stdout != b.stdout {
		t.Fatal("two runs of list --json differ")
	}
	if strings.Contains(a.stdout, "timing") {
		t.Error("timings in --json without --verbose")
	}
}

// Without a lockfile, exact manifest pins are used and everything else is
// stated as unknown, never guessed.
func TestListWithoutLockfile(t *testing.T) {
	reg := startRegistry(t)
	dir := copyRepo(t, "npm-v3")
	if err := os.Remove(filepath.Join(dir, "package-lock.json")); err != nil {
		t.Fatal(err)
	}
	r := run(t, newEnv(t, reg), dir, "list", "--json")
	var rep model.DiscoverReport
	decode(t, r, &rep)
	if len(rep.Notes) == 0 || !strings.Contains(rep.Notes[0], "no lockfile") {
		t.Errorf("notes %v should say there is no lockfile", rep.Notes)
	}
	exact := findRow(rep.Rows, "zod", "packages/api") // declared "3.22.4"
	if exact == nil || exact.Installed != "3.22.4" || exact.InstalledSource != model.FromManifest {
		t.Errorf("exact pin: %+v", exact)
	}
	ranged := findRow(rep.Rows, "zod", "packages/web") // declared "^3.25.0"
	if ranged == nil || ranged.Installed != "" || ranged.InstalledSource != model.Unknown || ranged.Reason == "" {
		t.Errorf("range without lockfile must be unknown with a reason: %+v", ranged)
	}
	if ranged != nil && ranged.Latest != "4.1.12" {
		t.Errorf("latest still known without a lockfile: %+v", ranged)
	}
}

// A truncated lockfile is a problem naming the file; the rows are still
// listed with what the registry knows, and the exit code is 2.
func TestListBrokenLockfile(t *testing.T) {
	reg := startRegistry(t)
	dir := copyRepo(t, "pnpm-v9")
	lock := filepath.Join(dir, "pnpm-lock.yaml")
	data, err := os.ReadFile(lock)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lock, append(data[:len(data)/2:len(data)/2], "\n  bad: [unclosed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, newEnv(t, reg), dir, "list", "--json")
	var rep model.DiscoverReport
	decode(t, r, &rep)
	if r.code != 2 {
		t.Errorf("exit %d, want 2", r.code)
	}
	if len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].File, "pnpm-lock.yaml") {
		t.Fatalf("problems %+v should name pnpm-lock.yaml", rep.Problems)
	}
	if len(rep.Rows) == 0 || rep.Rows[0].Latest == "" {
		t.Errorf("rows should still be listed with their latest versions: %+v", rep.Rows)
	}
}

// A broken workspace manifest is reported with its line; the other
// workspaces are still listed.
func TestListBrokenWorkspaceManifest(t *testing.T) {
	reg := startRegistry(t)
	dir := copyRepo(t, "npm-v3")
	if err := os.WriteFile(filepath.Join(dir, "packages/web/package.json"), []byte("{\n  \"name\": \"@acme/web\",\n  \"dependencies\": {\n    \"react\": \"^18\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, newEnv(t, reg), dir, "list", "--json")
	var rep model.DiscoverReport
	decode(t, r, &rep)
	if r.code != 2 {
		t.Errorf("exit %d, want 2", r.code)
	}
	if len(rep.Problems) != 1 || rep.Problems[0].File != "packages/web/package.json" || rep.Problems[0].Line == 0 {
		t.Fatalf("problems %+v should name packages/web/package.json with a line", rep.Problems)
	}
	if findRow(rep.Rows, "express", "packages/api") == nil {
		t.Error("packages/api's rows are gone because packages/web is broken")
	}
}

// Outside any JavaScript project: a clear error and exit 2.
func TestListOutsideProject(t *testing.T) {
	reg := startRegistry(t)
	r := run(t, newEnv(t, reg), t.TempDir(), "list")
	if r.code != 2 || !strings.Contains(r.stderr, "no package.json") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// diff's tarball downloads keep the client's limits: a tarball cut at its
// declared length fails verification, and the error names the package.
func TestDiffTarballLongerThanDeclared(t *testing.T) {
	reg := startRegistry(t)
	reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.TarballLonger})
	r := run(t, newEnv(t, reg), t.TempDir(), "diff", "zod", "4.0.0", "4.1.12")
	out := r.stdout + r.stderr
	if r.code != 2 || !strings.Contains(out, "integrity check failed") || !strings.Contains(out, "zod@4.") {
		t.Fatalf("exit %d, want 2 naming the failed verification:\n%s", r.code, out)
	}
}

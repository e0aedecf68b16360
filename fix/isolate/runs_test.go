package isolate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 12, 2, 17, 45, 12, 0, time.UTC)

// makeRun is a run directory as New leaves it, created at created.
func makeRun(t *testing.T, root, id string, created time.Time) string {
	t.Helper()
	dir := filepath.Join(root, "run-"+id)
	if err := os.MkdirAll(filepath.Join(dir, "repo/node_modules/x"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "repo/node_modules/x/index.js"), "x", 0o644)
	m := Marker{ID: id, Checkout: "/src/app", Branch: "uptide/zod-4.1.12", Created: created.Format(time.RFC3339)}
	if err := writeMarker(dir, m); err != nil {
		t.Fatal(err)
	}
	return dir
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func TestClean(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "uptide-runs")
	os.Mkdir(root, 0o700)
	old := makeRun(t, root, "20261120-101010-aaaaaa", now.Add(-8*24*time.Hour))
	young := makeRun(t, root, "20261201-101010-bbbbbb", now.Add(-24*time.Hour))

	// What must never go: an unmarked run-named dir, a wrongly named dir
	// with a valid marker, a symlink named like a run pointing at a real
	// run elsewhere, a marker that is a directory, a marker for another id,
	// a marker that does not parse.
	unmarked := filepath.Join(root, "run-20261101-101010-cccccc")
	os.MkdirAll(unmarked, 0o755)
	wrongName := filepath.Join(root, "keep-me")
	os.MkdirAll(wrongName, 0o755)
	writeMarker(wrongName, Marker{ID: "20261101-101010-dddddd", Checkout: "/a", Branch: "b", Created: "2026-11-01T10:10:10Z"})
	elsewhere := t.TempDir()
	outside := makeRun(t, elsewhere, "20261101-101010-eeeeee", now.Add(-30*24*time.Hour))
	link := filepath.Join(root, "run-20261101-101010-eeeeee")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	dirMarker := filepath.Join(root, "run-20261101-101010-ffffff")
	os.MkdirAll(filepath.Join(dirMarker, MarkerName), 0o755)
	otherID := filepath.Join(root, "run-20261101-101010-abcdef")
	os.MkdirAll(otherID, 0o755)
	writeMarker(otherID, Marker{ID: "20261101-101010-000000", Checkout: "/a", Branch: "b", Created: "2026-11-01T10:10:10Z"})
	garbled := filepath.Join(root, "run-20261101-101010-123456")
	os.MkdirAll(garbled, 0o755)
	write(t, filepath.Join(garbled, MarkerName), "{not json", 0o644)
	untouchable := []string{unmarked, wrongName, link, outside, dirMarker, otherID, garbled}

	kept, err := List(root)
	if err != nil || len(kept) != 2 || kept[0].Dir != old || kept[1].Dir != young || kept[0].Branch != "uptide/zod-4.1.12" || !kept[0].Created.Equal(now.Add(-8*24*time.Hour)) {
		t.Fatalf("List %+v %v", kept, err)
	}

	removed, err := Clean(root, now, false)
	if err != nil || len(removed) != 1 || removed[0].Dir != old {
		t.Fatalf("Clean removed %+v %v", removed, err)
	}
	if exists(old) || !exists(young) {
		t.Errorf("old there %v, young there %v", exists(old), exists(young))
	}
	removed, err = Clean(root, now, true)
	if err != nil || len(removed) != 1 || removed[0].Dir != young || exists(young) {
		t.Fatalf("Clean --all removed %+v %v", removed, err)
	}
	for _, p := range untouchable {
		if !exists(p) {
			t.Errorf("Clean deleted %s", p)
		}
	}
	if !exists(filepath.Join(outside, "repo/node_modules/x/index.js")) {
		t.Error("Clean deleted through a symlink")
	}

	// RemoveRun refuses each of them by name too.
	for _, p := range append(untouchable, filepath.Join(root, "sub", "run-20261101-101010-aaaaaa"), root, filepath.Join(root, "..", filepath.Base(elsewhere))) {
		if err := RemoveRun(root, p); !errors.Is(err, ErrNotRun) {
			t.Errorf("RemoveRun(%s) = %v, want ErrNotRun", p, err)
		}
	}
	if err := RemoveRun(elsewhere, link); err == nil {
		t.Error("RemoveRun through a symlink from another root")
	}
	if err := RemoveRun(root, outside); !errors.Is(err, ErrNotRun) {
		t.Errorf("RemoveRun of a run outside the root: %v", err)
	}
	for _, p := range untouchable {
		if !exists(p) {
			t.Errorf("RemoveRun deleted %s", p)
		}
	}
	if err := RemoveRun(elsewhere, outside); err != nil || exists(outside) {
		t.Errorf("RemoveRun in its own root: %v", err)
	}
}

// A root reached through a symlink (as a temp dir often is) still cleans.
func TestCleanThroughLinkedRoot(t *testing.T) {
	real := t.TempDir()
	linked := filepath.Join(t.TempDir(), "tmp")
	if err := os.Symlink(real, linked); err != nil {
		t.Fatal(err)
	}
	dir := makeRun(t, real, "20261120-101010-aaaaaa", now.Add(-8*24*time.Hour))
	removed, err := Clean(linked, now, false)
	if err != nil || len(removed) != 1 || exists(dir) {
		t.Fatalf("removed %+v %v, still there %v", removed, err, exists(dir))
	}
	if !exists(linked) || !exists(real) {
		t.Error("the root itself went")
	}
}

func TestListMissingRoot(t *testing.T) {
	kept, err := List(filepath.Join(t.TempDir(), "none"))
	if err != nil || len(kept) != 0 {
		t.Fatalf("%v %v", kept, err)
	}
	if _, err := Clean(filepath.Join(t.TempDir(), "none"), now, true); err != nil {
		t.Fatal(err)
	}
}

func TestParseMarker(t *testing.T) {
	good := `{"id":"20261202-174512-a1b2c3","checkout":"/src/app","branch":"uptide/zod-4.1.12","created":"2026-12-02T17:45:12Z"}`
	m, created, err := ParseMarker([]byte(good))
	if err != nil || m.ID != "20261202-174512-a1b2c3" || m.Checkout != "/src/app" || m.Branch != "uptide/zod-4.1.12" || !created.Equal(now) {
		t.Fatalf("%+v %v %v", m, created, err)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"empty", ``, "not the JSON"},
		{"array", `[]`, "not the JSON"},
		{"trailing", good + `{}`, "data after"},
		{"unknown field", `{"id":"20261202-174512-a1b2c3","checkout":"/a","branch":"b","created":"2026-12-02T17:45:12Z","x":1}`, "not the JSON"},
		{"bad id", `{"id":"../../etc","checkout":"/a","branch":"b","created":"2026-12-02T17:45:12Z"}`, "not a run id"},
		{"relative checkout", `{"id":"20261202-174512-a1b2c3","checkout":"a","branch":"b","created":"2026-12-02T17:45:12Z"}`, "absolute"},
		{"no branch", `{"id":"20261202-174512-a1b2c3","checkout":"/a","branch":"","created":"2026-12-02T17:45:12Z"}`, "no branch"},
		{"bad time", `{"id":"20261202-174512-a1b2c3","checkout":"/a","branch":"b","created":"yesterday"}`, "RFC 3339"},
		{"id as number", `{"id":20261202,"checkout":"/a","branch":"b","created":"2026-12-02T17:45:12Z"}`, "not the JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := ParseMarker([]byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// Whatever a marker holds, parsing never panics, and what it accepts
// writes back to itself.
func FuzzParseMarker(f *testing.F) {
	f.Add([]byte(`{"id":"20261202-174512-a1b2c3","checkout":"/src/app","branch":"uptide/zod-4.1.12","created":"2026-12-02T17:45:12Z"}`))
	f.Add([]byte(`{"id":"20261202-174512-a1b2c3","checkout":"/src/app","branch":"b","created":"2026-12-02T17:45:12+01:00"}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, created, err := ParseMarker(data)
		if err != nil {
			return
		}
		if !idPattern.MatchString(m.ID) || !filepath.IsAbs(m.Checkout) || m.Branch == "" || created.IsZero() {
			t.Fatalf("accepted %+v from %q", m, data)
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if m2, _, err := ParseMarker(again); err != nil || m2 != m {
			t.Fatalf("round trip %+v -> %+v %v", m, m2, err)
		}
	})
}

// A failed git that explains itself on stdout alone ("nothing to commit")
// is reported in those words, not as "no output".
func TestGitErrorSaysWhatStdoutSays(t *testing.T) {
	f := newFixture(t)
	hooks, done, err := emptyDir()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	_, err = git(context.Background(), quietEnv(os.Environ(), hooks), f.checkout, "commit", "-m", "empty")
	if err == nil || !strings.Contains(err.Error(), "nothing to commit") {
		t.Errorf("committing nothing: %v, want git's own 'nothing to commit'", err)
	}
}

// What a discarded run left (its deletion cut short) is Clean's, whatever
// its age, through the same guard: an unmarked or mislabelled directory
// named like one, and a symlink named like one, stay.
func TestCleanDeletesWhatADiscardLeft(t *testing.T) {
	root := t.TempDir()
	young := makeRun(t, root, "20261201-101010-bbbbbb", now.Add(-time.Hour))
	left := filepath.Join(root, discardedPrefix+"20261201-101010-bbbbbb")
	if err := os.Rename(young, left); err != nil {
		t.Fatal(err)
	}
	unmarked := filepath.Join(root, discardedPrefix+"20261101-101010-cccccc")
	os.MkdirAll(unmarked, 0o755)
	otherID := filepath.Join(root, discardedPrefix+"20261101-101010-abcdef")
	os.MkdirAll(otherID, 0o755)
	writeMarker(otherID, Marker{ID: "20261101-101010-000000", Checkout: "/a", Branch: "b", Created: "2026-11-01T10:10:10Z"})
	outside := makeRun(t, t.TempDir(), "20261101-101010-eeeeee", now.Add(-time.Hour))
	link := filepath.Join(root, discardedPrefix+"20261101-101010-eeeeee")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if kept, err := List(root); err != nil || len(kept) != 0 {
		t.Fatalf("List %+v %v: a discarded run is no kept one", kept, err)
	}
	removed, err := Clean(root, now, false)
	if err != nil || len(removed) != 0 {
		t.Fatalf("Clean removed %+v %v, want no kept run", removed, err)
	}
	if exists(left) {
		t.Errorf("Clean left %s", left)
	}
	for _, p := range []string{unmarked, otherID, link, filepath.Join(outside, "repo/node_modules/x/index.js")} {
		if !exists(p) {
			t.Errorf("Clean deleted %s", p)
		}
	}
}

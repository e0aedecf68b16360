package review

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/assist"
)

// fakeSource validates a replaced diff when told to, like the queue does
// in the background.
type fakeSource struct {
	mu       sync.Mutex
	items    []Item
	replaced map[string]string
	changed  chan struct{}
}

func newFake(ids ...string) *fakeSource {
	f := &fakeSource{replaced: map[string]string{}, changed: make(chan struct{}, 1)}
	for _, id := range ids {
		f.items = append(f.items, Item{Site: assist.Site{ID: id, File: "src/" + id + ".ts", Line: 3, RuleTitle: "rule " + id},
			Status: Valid, Diff: "--- a/src/" + id + ".ts\n+++ b/src/" + id + ".ts\n@@ -1 +1 @@\n-a\n+" + id + "\n", Explanation: "why " + id})
	}
	return f
}

func (f *fakeSource) set(id string, st Status) {
	f.mu.Lock()
	for i := range f.items {
		if f.items[i].Site.ID == id {
			f.items[i].Status = st
		}
	}
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

// validate finishes the replace of id: Valid with the replaced diff.
func (f *fakeSource) validate(id string) {
	f.mu.Lock()
	for i := range f.items {
		if f.items[i].Site.ID == id {
			f.items[i].Diff = f.replaced[id]
		}
	}
	f.mu.Unlock()
	f.set(id, Valid)
}

func (f *fakeSource) Items() []Item {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Item(nil), f.items...)
}
func (f *fakeSource) Provider() string         { return "fake" }
func (f *fakeSource) Spent() float64           { return 0 }
func (f *fakeSource) Budget() float64          { return 1 }
func (f *fakeSource) Focus(string)             {}
func (f *fakeSource) Accept(id string)         { f.set(id, Accepted) }
func (f *fakeSource) Reject(id string)         { f.set(id, Rejected) }
func (f *fakeSource) Skip(id string)           { f.set(id, Skipped) }
func (f *fakeSource) Retry(id, hint string)    { f.set(id, Proposing) }
func (f *fakeSource) AcceptRule(string) int    { return 0 }
func (f *fakeSource) Changed() <-chan struct{} { return f.changed }
func (f *fakeSource) Files(string) (string, string, error) {
	return "", "", nil
}
func (f *fakeSource) Replace(id, diff string) {
	f.mu.Lock()
	f.replaced[id] = diff
	f.mu.Unlock()
	f.set(id, Proposing)
}

func statusOfItem(src Source, id string) Status {
	for _, it := range src.Items() {
		if it.Site.ID == id {
			return it.Status
		}
	}
	return -1
}

// waitStatus waits for the source's next changes until id has st.
func waitStatus(t *testing.T, src Source, id string, st Status) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for statusOfItem(src, id) != st {
		select {
		case <-src.Changed():
		case <-deadline:
			t.Fatalf("%s is %v, want %v", id, statusOfItem(src, id), st)
		}
	}
}

// Every decision rewrites the accepted set as a --patches file; the next
// review of the same upgrade validates the saved patches again and
// accepts them once they validate, without the user.
func TestSavedKeepsAndResumesTheAcceptedSet(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	file := filepath.Join(t.TempDir(), "react@19.0.0.patches.json")

	first := newFake("a", "b", "c")
	src, n, err := Saved(ctx, first, file, "react", "19.0.0")
	if err != nil || n != 0 {
		t.Fatalf("a first review resumes nothing: %d, %v", n, err)
	}
	src.Accept("a")
	src.Accept("b")
	src.Reject("b") // taken back
	src.Reject("c")
	pf, err := fix.ReadPatches(file)
	if err != nil {
		t.Fatalf("the saved set is not a --patches file: %v", err)
	}
	if pf.Package != "react" || pf.Target != "19.0.0" || len(pf.Patches) != 1 || pf.Patches[0].Finding != "a" ||
		pf.Patches[0].Rule != "rule a" || !strings.Contains(pf.Patches[0].Diff, "+a") || pf.Patches[0].Explanation != "why a" {
		t.Fatalf("saved %+v, want only a's patch", pf)
	}
	if got := src.(interface{ PatchesFile() string }).PatchesFile(); got != file {
		t.Errorf("PatchesFile %q, want %q", got, file)
	}

	// The next review: a's saved diff is validated again, then accepted.
	second := newFake("a", "b", "c")
	src2, n, err := Saved(ctx, second, file, "react", "19.0.0")
	if err != nil || n != 1 {
		t.Fatalf("the next review should take up 1 patch: %d, %v", n, err)
	}
	if d := second.replaced["a"]; !strings.Contains(d, "+a") {
		t.Fatalf("a's saved diff was not handed to the queue for validation: %q", d)
	}
	if statusOfItem(src2, "a") == Accepted {
		t.Fatal("a was accepted before its diff validated again")
	}
	second.validate("a")
	waitStatus(t, src2, "a", Accepted)
	pf, err = fix.ReadPatches(file)
	if err != nil || len(pf.Patches) != 1 {
		t.Fatalf("after the take-up the file holds %+v, %v", pf, err)
	}

	// Another target's review does not take it up.
	other := newFake("a")
	if _, n, err := Saved(ctx, other, file, "react", "19.1.0"); err != nil || n != 0 || len(other.replaced) != 0 {
		t.Errorf("another target took up %d patches (%v)", n, err)
	}
}

// A saved patch the queue no longer validates is left to the user.
func TestSavedDropsAPatchThatNoLongerValidates(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	file := filepath.Join(t.TempDir(), "p.json")
	src, _, _ := Saved(ctx, newFake("a"), file, "zod", "4.0.0")
	src.Accept("a")
	next := newFake("a")
	src2, n, err := Saved(ctx, next, file, "zod", "4.0.0")
	if err != nil || n != 1 {
		t.Fatal(n, err)
	}
	next.set("a", Invalid)
	saved := src2.(*savedSource)
	pending := func() int {
		saved.mu.Lock()
		defer saved.mu.Unlock()
		return len(saved.pending)
	}
	deadline := time.After(30 * time.Second)
	for pending() > 0 {
		select {
		case <-src2.Changed():
		case <-deadline:
			t.Fatal("the invalid patch is still waiting to be taken up")
		}
	}
	next.set("a", Valid) // a later proposal of its own: the user's call
	select {
	case <-src2.Changed():
	case <-deadline:
		t.Fatal("the change was not passed on")
	}
	if st := statusOfItem(src2, "a"); st != Valid {
		t.Errorf("a is %v: a patch that did not validate again must not be accepted later", st)
	}
}

// A file that is not a patch file is an error naming it, never an empty
// resume.
func TestSavedRefusesABrokenFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(file, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := Saved(context.Background(), newFake("a"), file, "zod", "4.0.0")
	if err == nil || !strings.Contains(err.Error(), file) {
		t.Fatalf("error %v, want one naming %s", err, file)
	}
}

type closingFake struct {
	*fakeSource
	closed bool
}

func (c *closingFake) Close() { c.closed = true }

// The planner closes the queue at the hand-off through the saved source.
func TestSavedClosesTheQueue(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inner := &closingFake{fakeSource: newFake("a")}
	src, _, err := Saved(ctx, inner, filepath.Join(t.TempDir(), "p.json"), "zod", "4.0.0")
	if err != nil {
		t.Fatal(err)
	}
	c, ok := src.(interface{ Close() })
	if !ok {
		t.Fatal("the saved source has no Close")
	}
	c.Close()
	if !inner.closed {
		t.Error("Close did not reach the queue")
	}
}

package typescript

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// budgetPair writes two versions of a package with identical text, read
// from different files, so every question is a structural comparison:
//
//   - S1…S6 reference one another with ever-wrapped type arguments: no two
//     nested pairs are alike, so relating S1<string> across the versions
//     explores exponentially many pairs (minutes, gigabytes);
//   - C1…C3 inherit grow: S1<this> from Base: three questions from the same
//     two declarations, the same fate;
//   - L0 → L1 → … → L120 is a chain deeper than the checker relates (100):
//     it stops and says "not related", a guess;
//   - Fast and Base#name are answered in milliseconds.
func budgetPair(t *testing.T) (string, string) {
	t.Helper()
	var b strings.Builder
	wraps := []string{"[T]", "{ x: T }", "T[]", "Promise<T>", "() => T", "Map<string, T>"}
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&b, "export interface S%d<T> {\n", i)
		for j, w := range wraps {
			fmt.Fprintf(&b, "  m%d: S%d<%s>;\n", j, (i+j)%6+1, w)
		}
		b.WriteString("}\n")
	}
	b.WriteString("export declare const slow: S1<string>;\n")
	b.WriteString("export interface Fast { a: string; b: number }\n")
	b.WriteString("export interface Base { grow: S1<this>; name: string }\n")
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&b, "export interface C%d extends Base { c%d: %d }\n", i, i, i)
	}
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&b, "export interface L%d { next: L%d; v%d: string }\n", i, i+1, i)
	}
	b.WriteString("export interface L120 { end: true }\n")
	root := t.TempDir()
	var dirs [2]string
	for i, side := range []string{"a", "b"} {
		dirs[i] = filepath.Join(root, side)
		if err := os.MkdirAll(dirs[i], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dirs[i], "index.d.ts"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dirs[i], "package.json"), []byte(`{"name":"pair-budget","version":"1.0.0","types":"index.d.ts"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dirs[0], dirs[1]
}

// A question that runs over its budget, out of its worker's heap, or into
// the checker's own limits is skipped with its reason, never answered, and
// the questions around it are answered as usual. The slow questions take
// minutes and the fast ones milliseconds, so the budgets decide nothing
// here that the machine's speed could change.
func TestCompareBudgets(t *testing.T) {
	a := sharedAdapter(t)
	dirA, dirB := budgetPair(t)
	same := Relation{AToB: true, BToA: true}
	tests := []struct {
		name    string
		paths   []string
		budgets CompareBudgets
		related map[string]Relation
		skipped map[string]SkipReason
	}{
		{
			name:    "time",
			paths:   []string{"C1#grow", "C2#grow", "C3#grow", "C1#name", "C2#name", "Fast"},
			budgets: CompareBudgets{PerQuestion: time.Second, Total: 2 * time.Minute},
			related: map[string]Relation{"C1#name": same, "C2#name": same, "Fast": same},
			skipped: map[string]SkipReason{"C1#grow": SkipBudget, "C2#grow": SkipBudgetFamily, "C3#grow": SkipBudgetFamily},
		},
		{
			name:    "memory",
			paths:   []string{"Fast", "slow"},
			budgets: CompareBudgets{PerQuestion: 2 * time.Minute, Total: 3 * time.Minute, WorkerHeapMB: 160},
			related: map[string]Relation{"Fast": same},
			skipped: map[string]SkipReason{"slow": SkipMemory},
		},
		{
			name:    "checker limit",
			paths:   []string{"L0", "L100", "Fast"},
			related: map[string]Relation{"L100": same, "Fast": same},
			skipped: map[string]SkipReason{"L0": SkipLimit},
		},
		{
			// Questions are asked in path order (Fast, S1, slow): S1 holds
			// the only worker until the deadline, slow never gets its turn.
			name:    "deadline",
			paths:   []string{"slow", "zz-not-a-path", "S1", "Fast"},
			budgets: CompareBudgets{PerQuestion: 2 * time.Minute, Total: 3 * time.Second, Workers: 1},
			related: map[string]Relation{"Fast": same},
			skipped: map[string]SkipReason{"S1": SkipDeadline, "slow": SkipDeadline},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var last CompareProgress
			c, err := a.Compare(context.Background(), CompareRequest{
				PkgA: dirA, PkgB: dirB, Paths: tt.paths, Budgets: tt.budgets,
				Progress: func(p CompareProgress) { last = p },
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Skipped, tt.skipped) {
				t.Errorf("skipped %v, want %v", c.Skipped, tt.skipped)
			}
			if len(c.Relations) != len(tt.related) {
				t.Errorf("answered %v, want %v", c.Relations, tt.related)
			}
			for p, w := range tt.related {
				if g, ok := c.Relations[p]; !ok || g.AToB != w.AToB || g.BToA != w.BToA {
					t.Errorf("%s: %+v (answered %v), want %+v", p, g, ok, w)
				}
			}
			if n := len(c.Relations) + len(c.Skipped); last.Total != n || last.Done != n || last.Skipped != len(c.Skipped) {
				t.Errorf("last progress %+v, want all %d typed paths done, %d skipped", last, n, len(c.Skipped))
			}
		})
	}
	// The driver is still usable after its workers were stopped.
	c, err := a.Compare(context.Background(), CompareRequest{PkgA: dirA, PkgB: dirB, Paths: []string{"Fast"}})
	if err != nil || len(c.Relations) != 1 {
		t.Fatalf("after the budgets: %v, %v", c, err)
	}
}

// Paths of one pair of types are one question; the budgets a caller leaves
// zero are the defaults.
func TestCompareQuestions(t *testing.T) {
	a := sharedAdapter(t)
	dirA, dirB := budgetPair(t)
	c, err := a.Compare(context.Background(), CompareRequest{PkgA: dirA, PkgB: dirB, Paths: []string{"C1#name", "C2#name", "C3#name", "Fast"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Questions != 2 || len(c.Relations) != 4 {
		t.Errorf("%d questions for %d answers, want 2 for 4", c.Questions, len(c.Relations))
	}
	if c.Budgets.PerQuestion != DefaultPerQuestion || c.Budgets.Total != DefaultCompareTotal || c.Budgets.Workers < 1 {
		t.Errorf("budgets %+v, want the defaults", c.Budgets)
	}
}

// A package directory that does not exist is the driver's error, not a
// comparison with nothing in it.
func TestCompareBadPackage(t *testing.T) {
	a := sharedAdapter(t)
	_, err := a.Compare(context.Background(), CompareRequest{PkgA: filepath.Join(t.TempDir(), "missing"), PkgB: t.TempDir(), Paths: []string{"x"}})
	var de *DriverError
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("got %v, want an error saying the directory does not exist", err)
	}
	if !errors.As(err, &de) || de.Code != "BAD_REQUEST" {
		t.Errorf("code %v, want BAD_REQUEST", err)
	}
}

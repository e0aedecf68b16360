package check

import (
	"context"
	"fmt"
	"github.com/uptide/uptide/engine/event"
	"sort"
	"time"

	"github.com/uptide/uptide/engine/diff"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
	"github.com/uptide/uptide/engine/typescript"
)

// refine asks the checker about the type changes the text comparison could
// not decide, bounded three ways: only when some site is not the
// compiler's to judge (--no-compile, or a file the repository does not
// type-check), since where the compiler judges, an unconfirmed change is
// silent whatever its direction; only the paths the repository uses (a used
// path, its ancestors and its members: Signal A runs first, so the diff is
// usage-first); and within time budgets. The text verdict stands for
// whatever is not answered, so a failure costs precision, never a finding.
func (c *checker) refine(ctx context.Context, run *memberRun, sa *typescript.Adapter, instDir, tgtDir string) {
	if c.opts.Compile && allChecked(run.usages) {
		return
	}
	asked := usedPaths(diff.NeedsTypes(run.changes), run.usages)
	if len(asked) == 0 || instDir == "" || tgtDir == "" {
		return
	}
	c.opts.Events.Emit(event.Event{Phase: event.PhaseCompare, Package: run.m.name(), Total: len(asked)})
	res, err := sa.Compare(ctx, typescript.CompareRequest{PkgA: instDir, PkgB: tgtDir, Paths: asked, Budgets: checkBudgets})
	if err != nil {
		if ctx.Err() == nil {
			run.notes = append(run.notes, fmt.Sprintf("the checker did not compare %d changed types of %s (%v); their classification comes from the declarations' text", len(asked), run.m.name(), err))
		}
		return
	}
	if len(res.Skipped) > 0 {
		run.notes = append(run.notes, fmt.Sprintf("the checker compared %d of %d changed types of %s within its budgets; the rest keep the verdict their declarations' text gives", len(asked)-len(res.Skipped), len(asked), run.m.name()))
	}
	run.changes = diff.Diff(run.inst, run.tgt, relations(res.Relations))
}

func allChecked(usages map[string][]model.Usage) bool {
	for _, us := range usages {
		for _, u := range us {
			if !u.Checked {
				return false
			}
		}
	}
	return true
}

// usedPaths keeps the changed paths a usage can reach: the paths written
// or resolved at a site, their ancestors and their members.
func usedPaths(changed []string, usages map[string][]model.Usage) []string {
	used := map[string]bool{}
	for _, us := range usages {
		for _, u := range us {
			used[u.SymbolPath] = true
			used[u.CanonicalPath] = true
		}
	}
	var out []string
	for _, p := range changed {
		keep := used[p]
		for u := range used {
			if keep {
				break
			}
			keep = u != "" && (path.IsAncestor(p, u) || path.IsAncestor(u, p))
		}
		if keep {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// checkBudgets bound the refinement tighter than diff's: check asks only
// about used paths, and the compiler judges every site whatever the
// checker answers.
var checkBudgets = typescript.CompareBudgets{PerQuestion: 2 * time.Second, Total: 8 * time.Second}

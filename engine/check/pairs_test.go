package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/diff"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/typescript"
)

// pairsRoot holds the synthetic package pairs: fixtures/pairs/<case>/{a,b}
// with expected.json beside them.
var pairsRoot = filepath.Join("..", "..", "fixtures", "pairs")

// minPairCases is the floor the contract diff's issue sets for the corpus.
const minPairCases = 40

// pairExpectation is a case's expected.json: what a TypeScript developer
// reading the two versions' declarations expects the diff to say.
type pairExpectation struct {
	Description string `json:"description"`
	// NoTypes: side a or b has no declarations at all; the diff cannot run
	// and extraction must say so rather than produce an empty surface.
	NoTypes string `json:"noTypes,omitempty"`
	// Changes must each be present (matched by path and kind).
	Changes []expectedChange `json:"changes"`
	// Absent paths must carry no change at all.
	Absent []string `json:"absent"`
	// NotBreaking paths may change, but not in a breaking way: for changes
	// a developer would call harmless whether or not the diff mentions them.
	NotBreaking []string `json:"notBreaking,omitempty"`
	// Exhaustive: no change beyond Changes may appear.
	Exhaustive bool `json:"exhaustive"`
	// NoChangeRules names the rows whose outcome is "nothing" (a move while
	// still reachable, types equivalent for the checker) that this case
	// exercises; their evidence is the Absent list.
	NoChangeRules []string `json:"noChangeRules,omitempty"`
	// KnownGap says why the diff does not (yet) produce what the case
	// expects. Such a case must still mismatch: when it starts passing, the
	// gap is closed and the marker has to go.
	KnownGap string `json:"knownGap,omitempty"`
}

// expectedChange is one change a case requires. Optional fields are
// pointers: absent means "not asserted", present means "exactly this"
// (an empty replacement asserts there is none).
type expectedChange struct {
	Path        string           `json:"path"`
	Kind        model.ChangeKind `json:"kind"`
	Severity    model.Severity   `json:"severity"`
	Rule        string           `json:"rule"`
	Confidence  *float64         `json:"confidence,omitempty"`
	Replacement *string          `json:"replacement,omitempty"`
	Role        *string          `json:"role,omitempty"`
	FoldedInto  *string          `json:"foldedInto,omitempty"`
	AliasOf     *string          `json:"aliasOf,omitempty"`
	// Public asserts whether the change is genuinely public (shown by
	// default): breaking, no visibility marker, confident, not folded.
	Public *bool `json:"public,omitempty"`
}

type pairCase struct {
	name string
	dir  string
	exp  pairExpectation
}

// loadPairCases reads every case directory's expected.json, strictly: an
// unknown field is a typo that would silently assert nothing.
func loadPairCases(t *testing.T) []pairCase {
	t.Helper()
	entries, err := os.ReadDir(pairsRoot)
	if err != nil {
		t.Fatalf("reading the pair cases: %v", err)
	}
	var cases []pairCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(pairsRoot, e.Name())
		file := filepath.Join(dir, "expected.json")
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("%s: every pair case needs an expected.json: %v", dir, err)
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var exp pairExpectation
		if err := dec.Decode(&exp); err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		cases = append(cases, pairCase{name: e.Name(), dir: dir, exp: exp})
	}
	return cases
}

// unreachableRows are the rows no package can reach through the driver,
// with the reason. They stay in the table as a safety net and keep their
// unit test in engine/diff; the moment a fixture reaches one, the
// exemption must go.
var unreachableRows = map[string]string{
	"sig/unparsed": "the parser reads every signature form the pinned compiler's printer emits",
}

// TestPairsRuleRegistry: every classification row is exercised by a pair
// case whose expected.json names it, and every rule id a case names is a
// row, with the row's severity (and confidence, when the case states one).
func TestPairsRuleRegistry(t *testing.T) {
	cases := loadPairCases(t)
	if len(cases) < minPairCases {
		t.Errorf("%d pair cases in %s, want at least %d", len(cases), pairsRoot, minPairCases)
	}
	covered := map[string][]string{}
	for _, c := range cases {
		file := filepath.Join(c.dir, "expected.json")
		if c.exp.Description == "" {
			t.Errorf("%s: no description: say what the case is about", file)
		}
		named := 0
		for _, ch := range c.exp.Changes {
			r, ok := diff.RuleByID(ch.Rule)
			if !ok {
				t.Errorf("%s: %s names unknown rule %q", file, ch.Path, ch.Rule)
				continue
			}
			named++
			if r.Kind == "" {
				t.Errorf("%s: %s: rule %q produces no change; name it under noChangeRules", file, ch.Path, ch.Rule)
			}
			if ch.Severity != r.Severity {
				t.Errorf("%s: %s: severity %q contradicts rule %q (%q)", file, ch.Path, ch.Severity, r.ID, r.Severity)
			}
			if ch.Confidence != nil && *ch.Confidence != r.Confidence {
				t.Errorf("%s: %s: confidence %v contradicts rule %q (%v)", file, ch.Path, *ch.Confidence, r.ID, r.Confidence)
			}
			covered[r.ID] = append(covered[r.ID], caseLabel(c))
		}
		for _, id := range c.exp.NoChangeRules {
			r, ok := diff.RuleByID(id)
			if !ok {
				t.Errorf("%s: noChangeRules names unknown rule %q", file, id)
				continue
			}
			named++
			if r.Kind != "" {
				t.Errorf("%s: rule %q produces a change; name it in changes", file, id)
			}
			if len(c.exp.Absent) == 0 {
				t.Errorf("%s: noChangeRules %q needs the absent paths it applies to", file, id)
			}
			covered[r.ID] = append(covered[r.ID], caseLabel(c))
		}
		// A case where nothing may change names no row; it asserts that
		// with an empty, exhaustive list.
		nothing := c.exp.Exhaustive && len(c.exp.Changes) == 0
		if named == 0 && c.exp.NoTypes == "" && !nothing {
			t.Errorf("%s: names no classification row", file)
		}
	}
	for id := range unreachableRows {
		if _, ok := diff.RuleByID(id); !ok {
			t.Errorf("unreachableRows names unknown rule %q", id)
		}
	}
	for _, r := range diff.Rules() {
		if why, ok := unreachableRows[r.ID]; ok {
			if len(covered[r.ID]) > 0 {
				t.Errorf("rule %q is exempt as unreachable (%s) but %s reach it: drop the exemption", r.ID, why, strings.Join(covered[r.ID], ", "))
			}
			continue
		}
		if len(covered[r.ID]) == 0 {
			t.Errorf("rule %q (%s: %s) has no pair case naming it", r.ID, r.Table, r.Title)
			continue
		}
		t.Logf("%-40s %s", r.ID, strings.Join(dedupeSorted(covered[r.ID]), ", "))
	}
}

// caseLabel marks the cases that name a row the diff does not reach yet,
// so the coverage log says which rows only a known gap exercises.
func caseLabel(c pairCase) string {
	if c.exp.KnownGap != "" {
		return c.name + " (known gap)"
	}
	return c.name
}

func dedupeSorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	n := 0
	for i, v := range out {
		if i == 0 || v != out[n-1] {
			out[n] = v
			n++
		}
	}
	return out[:n]
}

// TestPairsDiff runs every case through the real pipeline Diff uses: both
// surfaces extracted by the driver on the pinned compiler, the checker
// asked about the type changes, then classified; and compares with the
// case's expected.json. One driver serves every case.
func TestPairsDiff(t *testing.T) {
	cases := loadPairCases(t)
	ctx := context.Background()
	ad := pairsAdapter(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := diffPair(ctx, ad, c)
			if c.exp.NoTypes != "" {
				var nt *typescript.NoTypesError
				if !errors.As(err, &nt) {
					t.Fatalf("side %s has no declarations: want a NoTypesError, got %v", c.exp.NoTypes, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			problems := comparePair(c.exp, got)
			switch {
			case c.exp.KnownGap != "" && len(problems) == 0:
				t.Errorf("known gap %q no longer shows: the diff now matches, remove knownGap from %s/expected.json", c.exp.KnownGap, c.dir)
			case c.exp.KnownGap != "":
				t.Logf("known gap: %s", c.exp.KnownGap)
				for _, p := range problems {
					t.Logf("  %s", p)
				}
			case len(problems) > 0:
				for _, p := range problems {
					t.Errorf("%s", p)
				}
				t.Logf("the diff produced:\n%s", formatChanges(got))
			}
		})
	}
}

// diffPair is engine.Diff without the registry: extract, classify, ask the
// checker about the changes it can refine, classify again with its answers.
func diffPair(ctx context.Context, ad *typescript.Adapter, c pairCase) ([]model.Change, error) {
	dirA, dirB := filepath.Join(c.dir, "a"), filepath.Join(c.dir, "b")
	sa, err := ad.ExtractSurface(ctx, dirA, "pair-"+c.name, "1.0.0")
	if err != nil {
		return nil, err
	}
	sb, err := ad.ExtractSurface(ctx, dirB, "pair-"+c.name, "2.0.0")
	if err != nil {
		return nil, err
	}
	changes := diff.Diff(sa, sb, nil)
	if paths := diff.NeedsTypes(changes); len(paths) > 0 {
		rel, err := ad.CompareTypes(ctx, dirA, dirB, paths)
		if err != nil {
			return nil, fmt.Errorf("compareTypes %v: %w", paths, err)
		}
		changes = diff.Diff(sa, sb, relations(rel))
	}
	return changes, nil
}

// comparePair lists every way got falls short of exp.
func comparePair(exp pairExpectation, got []model.Change) []string {
	var problems []string
	byKey := map[string]model.Change{}
	for _, c := range got {
		byKey[c.Path+"\x00"+string(c.Kind)] = c
	}
	expected := map[string]bool{}
	for _, e := range exp.Changes {
		key := e.Path + "\x00" + string(e.Kind)
		expected[key] = true
		c, ok := byKey[key]
		if !ok {
			var same []string
			for _, g := range got {
				if g.Path == e.Path {
					same = append(same, fmt.Sprintf("%s/%s (%s)", g.Kind, g.Severity, g.Rule))
				}
			}
			what := "nothing there"
			if len(same) > 0 {
				what = "got " + strings.Join(same, ", ")
			}
			problems = append(problems, fmt.Sprintf("%s: want a %s change (%s, %s): %s", e.Path, e.Kind, e.Severity, e.Rule, what))
			continue
		}
		mismatch := func(field string, gotV, wantV any) {
			problems = append(problems, fmt.Sprintf("%s %s: %s is %v, want %v", e.Path, e.Kind, field, gotV, wantV))
		}
		if c.Severity != e.Severity {
			mismatch("severity", c.Severity, e.Severity)
		}
		if c.Rule != e.Rule {
			mismatch("rule", c.Rule, e.Rule)
		}
		if e.Confidence != nil && c.Confidence != *e.Confidence {
			mismatch("confidence", c.Confidence, *e.Confidence)
		}
		if e.Replacement != nil && c.Replacement != *e.Replacement {
			mismatch("replacement", quoteOrNone(c.Replacement), quoteOrNone(*e.Replacement))
		}
		if e.Role != nil && c.Role != *e.Role {
			mismatch("role", quoteOrNone(c.Role), quoteOrNone(*e.Role))
		}
		if e.FoldedInto != nil && c.FoldedInto != *e.FoldedInto {
			mismatch("foldedInto", quoteOrNone(c.FoldedInto), quoteOrNone(*e.FoldedInto))
		}
		if e.AliasOf != nil && c.AliasOf != *e.AliasOf {
			mismatch("aliasOf", quoteOrNone(c.AliasOf), quoteOrNone(*e.AliasOf))
		}
		if e.Public != nil {
			if public := len(diff.GenuinelyPublic([]model.Change{c})) == 1; public != *e.Public {
				mismatch("genuinely public", public, *e.Public)
			}
		}
	}
	for _, p := range exp.Absent {
		for _, c := range got {
			if c.Path == p {
				problems = append(problems, fmt.Sprintf("%s: want no change, got %s/%s (%s): %s → %s", p, c.Kind, c.Severity, c.Rule, c.Before, c.After))
			}
		}
	}
	for _, p := range exp.NotBreaking {
		for _, c := range got {
			if c.Path == p && c.Severity == model.Breaking {
				problems = append(problems, fmt.Sprintf("%s: want nothing breaking, got %s/%s (%s): %s → %s", p, c.Kind, c.Severity, c.Rule, c.Before, c.After))
			}
		}
	}
	if exp.Exhaustive {
		for _, c := range got {
			if !expected[c.Path+"\x00"+string(c.Kind)] {
				problems = append(problems, fmt.Sprintf("%s: unexpected %s/%s change (%s): %s → %s", c.Path, c.Kind, c.Severity, c.Rule, c.Before, c.After))
			}
		}
	}
	sort.Strings(problems)
	return problems
}

func quoteOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return fmt.Sprintf("%q", s)
}

func formatChanges(changes []model.Change) string {
	if len(changes) == 0 {
		return "  (no changes)"
	}
	var b strings.Builder
	for _, c := range changes {
		fmt.Fprintf(&b, "  %s %s/%s conf=%v rule=%s", c.Path, c.Kind, c.Severity, c.Confidence, c.Rule)
		for _, f := range [][2]string{{"role", c.Role}, {"replacement", c.Replacement}, {"foldedInto", c.FoldedInto}, {"aliasOf", c.AliasOf}, {"visibility", string(c.Visibility)}} {
			if f[1] != "" {
				fmt.Fprintf(&b, " %s=%s", f[0], f[1])
			}
		}
		fmt.Fprintf(&b, "\n      %q → %q  %s\n", c.Before, c.After, c.Note)
	}
	return b.String()
}

// pairsAdapter is one driver on the pinned compiler for every case, with
// the surface cache off: a fixture's name and version do not identify its
// content. It fails, never skips, without node; under -short (the fast
// lane) it skips, as the driver compiles for real.
func pairsAdapter(t *testing.T) *typescript.Adapter {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: runs the TypeScript driver")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("the pair cases run the TypeScript driver, which needs node >= 18 on PATH: %v", err)
	}
	cfg, err := registry.LoadConfig(t.TempDir(), nil)
	if err != nil {
		t.Fatalf("registry configuration for fetching the pinned compiler: %v", err)
	}
	client := registry.New(registry.Options{Config: cfg})
	var fetched []*registry.Package
	t.Cleanup(func() {
		for _, p := range fetched {
			_ = p.Remove()
		}
	})
	fetch := func(ctx context.Context, name, version string) (string, error) {
		p, err := client.Fetch(ctx, name, version)
		if err != nil {
			return "", err
		}
		fetched = append(fetched, p)
		return p.Dir, nil
	}
	compiler, err := typescript.PinnedCompiler(context.Background(), fetch, nil)
	if err != nil {
		t.Fatalf("the pinned TypeScript compiler (fetched once from the registry, then cached): %v", err)
	}
	ad := typescript.New(compiler, typescript.Options{NoSurfaceCache: true})
	t.Cleanup(func() { ad.Close() })
	if _, err := ad.CompilerVersion(context.Background()); err != nil {
		t.Fatalf("starting the TypeScript driver: %v", err)
	}
	return ad
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/uptide/uptide/engine/diff"
	"github.com/uptide/uptide/engine/model"
)

// livePairs is fixtures/pairs.json: real releases and facts about them, each
// checked by reading the two versions' declarations.
type livePairs struct {
	Pairs []struct {
		Package string `json:"package"`
		From    string `json:"from"`
		To      string `json:"to"`
		// AtLeast bounds what a dist-tag To resolves to: the facts were
		// checked against this version.
		AtLeast string     `json:"atLeast"`
		Facts   []liveFact `json:"facts"`
	} `json:"pairs"`
}

type liveFact struct {
	Path string `json:"path"`
	// Kind: a change of this kind exists at Path.
	Kind        model.ChangeKind `json:"kind"`
	Replacement string           `json:"replacement"`
	Note        string           `json:"note"`
	// Public: that change is among the genuinely public ones.
	Public bool `json:"public"`
	// NotKinds: no change of these kinds at Path.
	NotKinds []model.ChangeKind `json:"notKinds"`
	// Unchanged: no change at all at Path.
	Unchanged bool   `json:"unchanged"`
	Why       string `json:"why"`
}

type diffEnvelope struct {
	Command  string            `json:"command"`
	ExitCode int               `json:"exitCode"`
	Data     *model.DiffReport `json:"data"`
}

// TestLiveDiffPairs runs `uptide --json diff` twice on every pair of
// fixtures/pairs.json against the registry npm is configured with: the two
// outputs must be the same bytes, and every fact must hold.
func TestLiveDiffPairs(t *testing.T) {
	if os.Getenv("UPTIDE_LIVE") != "1" {
		t.Skip("not run: the live diff tests fetch real releases from the registry npm is configured with; set UPTIDE_LIVE=1 to run them")
	}
	raw, err := os.ReadFile("../../fixtures/pairs.json")
	if err != nil {
		t.Fatal(err)
	}
	var pairs livePairs
	if err := json.Unmarshal(raw, &pairs); err != nil {
		t.Fatalf("fixtures/pairs.json: %v", err)
	}
	if len(pairs.Pairs) == 0 {
		t.Fatal("fixtures/pairs.json lists no pairs")
	}
	bin := uptideBinary(t)
	for _, pair := range pairs.Pairs {
		t.Run(pair.Package+"@"+pair.From+".."+pair.To, func(t *testing.T) {
			if len(pair.Facts) == 0 {
				t.Fatal("a pair without facts asserts nothing")
			}
			first := runLiveDiff(t, bin, pair.Package, pair.From, pair.To)
			second := runLiveDiff(t, bin, pair.Package, pair.From, pair.To)
			if !bytes.Equal(first, second) {
				t.Errorf("two runs of --json diff gave different bytes (%d and %d): %s", len(first), len(second), firstDifference(first, second))
			}
			var env diffEnvelope
			if err := json.Unmarshal(first, &env); err != nil || env.Data == nil {
				t.Fatalf("--json output does not decode as a diff envelope: %v", err)
			}
			rep := env.Data
			if env.Command != "diff" || rep.Package != pair.Package || rep.From != pair.From {
				t.Errorf("envelope names %s %s@%s, want diff %s@%s", env.Command, rep.Package, rep.From, pair.Package, pair.From)
			}
			if pair.AtLeast != "" {
				got, err := semver.NewVersion(rep.To)
				if err != nil || got.LessThan(semver.MustParse(pair.AtLeast)) {
					t.Errorf("%s resolved to %q, want at least %s", pair.To, rep.To, pair.AtLeast)
				}
			} else if rep.To != pair.To {
				t.Errorf("to %q, want %q", rep.To, pair.To)
			}
			if rep.Summary.PublicBreaking > 0 && env.ExitCode != 1 {
				t.Errorf("exit code %d with %d breaking changes, want 1", env.ExitCode, rep.Summary.PublicBreaking)
			}
			c := rep.Comparison
			if c.Asked != c.Compared+c.Untyped+len(c.Skipped) {
				t.Errorf("comparison does not account for every path: asked %d, compared %d, untyped %d, skipped %d", c.Asked, c.Compared, c.Untyped, len(c.Skipped))
			}
			t.Logf("%s %s → %s: %d changes, %d genuinely public breaking; checker compared %d of %d, skipped %d",
				rep.Package, rep.From, rep.To, len(rep.Changes), rep.Summary.PublicBreaking, c.Compared, c.Asked, len(c.Skipped))
			checkFacts(t, rep, pair.Facts)
		})
	}
}

func runLiveDiff(t *testing.T, bin, name, from, to string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--json", "--ci", "diff", name, from, to)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("uptide diff %s %s %s: %v\n%s", name, from, to, err, stderr.String())
	}
	return stdout.Bytes()
}

func checkFacts(t *testing.T, rep *model.DiffReport, facts []liveFact) {
	t.Helper()
	byPath := map[string][]model.Change{}
	for _, c := range rep.Changes {
		byPath[c.Path] = append(byPath[c.Path], c)
	}
	public := map[string]bool{}
	for _, c := range diff.GenuinelyPublic(rep.Changes) {
		public[c.Path+"\x00"+string(c.Kind)] = true
	}
	for _, f := range facts {
		got := byPath[f.Path]
		describe := func() string {
			var parts []string
			for _, c := range got {
				parts = append(parts, fmt.Sprintf("%s/%s %q → %q", c.Kind, c.Severity, c.Note, c.Replacement))
			}
			if len(parts) == 0 {
				return "no change"
			}
			return strings.Join(parts, "; ")
		}
		if f.Unchanged && len(got) > 0 {
			t.Errorf("%s: want no change (%s), got %s", f.Path, f.Why, describe())
		}
		for _, k := range f.NotKinds {
			for _, c := range got {
				if c.Kind == k {
					t.Errorf("%s: want no %s change (%s), got %s", f.Path, k, f.Why, describe())
				}
			}
		}
		if f.Kind == "" {
			continue
		}
		var match *model.Change
		for i := range got {
			if got[i].Kind == f.Kind {
				match = &got[i]
				break
			}
		}
		if match == nil {
			t.Errorf("%s: want a %s change (%s), got %s", f.Path, f.Kind, f.Why, describe())
			continue
		}
		if f.Replacement != "" && match.Replacement != f.Replacement {
			t.Errorf("%s: replacement %q, want %q (%s)", f.Path, match.Replacement, f.Replacement, f.Why)
		}
		if f.Note != "" && !strings.Contains(match.Note, f.Note) {
			t.Errorf("%s: note %q, want it to mention %q (%s)", f.Path, match.Note, f.Note, f.Why)
		}
		if f.Public && !public[f.Path+"\x00"+string(f.Kind)] {
			t.Errorf("%s: the %s change is not among the genuinely public ones (%s): %+v", f.Path, f.Kind, f.Why, *match)
		}
	}
}

// firstDifference shows where two outputs part.
func firstDifference(a, b []byte) string {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	return fmt.Sprintf("at byte %d: %q vs %q", i, a[lo:min(len(a), i+80)], b[lo:min(len(b), i+80)])
}

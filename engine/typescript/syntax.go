package typescript

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// SyntaxNeed is one construct a declaration file uses and the TypeScript
// release that introduced it: why an older compiler cannot read the file.
type SyntaxNeed struct {
	// Feature names the construct ("`const` type parameters").
	Feature string `json:"feature"`
	// Since is the release that introduced it ("5.0").
	Since string `json:"since"`
	// Type marks a type the compiler's own lib declares (NoInfer): an
	// older compiler parses it and misses it only when it type-checks the
	// file, which skipLibCheck turns off; so is a rule only the checker
	// enforces (a union index signature's key, TS1337 before 4.4).
	Type bool `json:"type"`
	// File is where it first appears (as given); Line and Column are
	// 1-based; Count is how often it appears in the files.
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Count  int    `json:"count"`
}

// SyntaxNeeds is what the adapter's compiler reads in a set of files.
type SyntaxNeeds struct {
	// Needs are sorted newest release first.
	Needs []SyntaxNeed `json:"needs"`
	// ParseErrors counts what this compiler itself cannot parse in them.
	ParseErrors int `json:"parseErrors"`
	// TypeScript is the version that read them.
	TypeScript string `json:"typescript"`
}

// SyntaxNeeds names the constructs of files (absolute paths) that need a
// given TypeScript release, read with the adapter's compiler (the pinned
// one reads what any older release writes).
func (a *Adapter) SyntaxNeeds(ctx context.Context, files []string) (*SyntaxNeeds, error) {
	var out SyntaxNeeds
	if err := a.call(ctx, "syntaxNeeds", map[string]any{"files": files}, "the target's declarations", &out); err != nil {
		return nil, err
	}
	if out.Needs == nil {
		out.Needs = []SyntaxNeed{}
	}
	return &out, nil
}

// Newer keeps the needs a compiler at version lacks.
func (n *SyntaxNeeds) Newer(version string) []SyntaxNeed {
	var out []SyntaxNeed
	for _, s := range n.Needs {
		if CompareVersions(s.Since, version) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// CompareVersions orders TypeScript versions by their numeric parts
// ("5.0" < "5.0.4" < "5.10"); a prerelease suffix is ignored.
func CompareVersions(a, b string) int {
	pa, pb := versionParts(a), versionParts(b)
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func versionParts(v string) []int {
	v, _, _ = strings.Cut(v, "-")
	var out []int
	for _, p := range strings.Split(v, ".") {
		n, err := strconv.Atoi(p)
		if err != nil {
			break
		}
		out = append(out, n)
	}
	return out
}

// String is "`const` type parameters (TypeScript 5.0)".
func (s SyntaxNeed) String() string { return fmt.Sprintf("%s (TypeScript %s)", s.Feature, s.Since) }

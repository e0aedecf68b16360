package assist

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix/unidiff"
)

// Validation is what the checks made of one diff for one site.
type Validation struct {
	// OK: the diff is one file, applies exactly, suppresses nothing, and
	// compiled alone it removes the site's errors without a new one.
	OK bool `json:"ok"`
	// Stage names the check that decided: "parse", "apply", "suppression",
	// "compile".
	Stage string `json:"stage"`
	// Reason says why the diff is not kept ("" when OK).
	Reason string `json:"reason,omitempty"`
	// Diff is the diff as it applies (a repaired header rewritten); After
	// the file with it applied.
	Diff  string `json:"diff,omitempty"`
	After string `json:"-"`
	// Repaired: a hunk header was moved to the one place its old block
	// occurs.
	Repaired bool `json:"repaired,omitempty"`
	// Compiled is the compile's verdict when it ran.
	Compiled *Compiled `json:"compiled,omitempty"`
}

// Validate runs the checks in order, cheapest first, and stops at the
// first that fails: one file (the site's), applies exactly to the file as
// read (a header repaired only when the old block is unique), no
// suppression added, then the compile of the patched file alone.
func Validate(ctx context.Context, site Site, diff string, read func(file string) (string, error), v Validator) (Validation, error) {
	before, err := read(site.File)
	if err != nil {
		return Validation{}, err
	}
	val := Validation{Stage: "parse"}
	hunks, err := unidiff.Parse(diff, site.File)
	if err != nil {
		// Models miscount hunk lines more often than anything else: the
		// counts are recomputed from the lines, and the hunks must then
		// each match the file once (the header repaired like a moved one).
		fixed, ok := unidiff.Recount(diff)
		if !ok {
			val.Reason = "the diff does not parse: " + err.Error()
			return val, nil
		}
		if hunks, err = unidiff.Parse(fixed, site.File); err != nil {
			val.Reason = "the diff does not parse: " + err.Error()
			return val, nil
		}
		if why := uniqueBlocks(before, hunks); why != "" {
			val.Stage, val.Reason = "apply", "its hunk headers miscount their lines and "+why
			return val, nil
		}
		val.Repaired = true
	}
	val.Stage = "apply"
	after, applied, moved, err := unidiff.ApplyMoved(before, hunks)
	if err != nil {
		val.Reason = fmt.Sprintf("the diff does not apply to %s exactly (a header is repaired only when its old block occurs once): %v", site.File, err)
		return val, nil
	}
	hunks, val.Repaired = applied, val.Repaired || moved
	if after == before {
		val.Reason = "the diff changes nothing"
		return val, nil
	}
	val.Diff = unidiff.Format(site.File, hunks)
	val.After = after
	val.Stage = "suppression"
	if s := Suppression(hunks); s != "" {
		val.Reason = "the diff suppresses a diagnostic instead of fixing it: it adds " + s
		return val, nil
	}
	val.Stage = "compile"
	c, err := v.Validate(ctx, site.File, after)
	if err != nil {
		return val, fmt.Errorf("compiling %s with the patch: %w", site.File, err)
	}
	val.Compiled = &c
	if left := model.Without(site.Errors, c.Gone); len(left) > 0 {
		val.Reason = "the compiler still reports " + diagList(left)
		if len(c.New) > 0 {
			val.Reason += ", and the patch adds " + diagList(c.New)
		}
		return val, nil
	}
	if len(c.New) > 0 {
		val.Reason = "the patch removes the site's errors but adds " + diagList(c.New)
		return val, nil
	}
	val.OK = true
	return val, nil
}

// suppressions are what a patch may not add: each counted on the added
// lines against the removed ones, so a line that keeps a directive it
// already had is not a new one.
var suppressions = []struct {
	name string
	re   *regexp.Regexp
}{
	{"@ts-ignore", regexp.MustCompile(`@ts-ignore`)},
	{"@ts-expect-error", regexp.MustCompile(`@ts-expect-error`)},
	{"@ts-nocheck", regexp.MustCompile(`@ts-nocheck`)},
	{"eslint-disable", regexp.MustCompile(`eslint-disable`)},
	{`"as any"`, regexp.MustCompile(`\bas\s+any\b`)},
	{`"as unknown as"`, regexp.MustCompile(`\bas\s+unknown\s+as\b`)},
	// The angle-bracket cast, not a type argument (useState<any>()).
	{`"<any>"`, regexp.MustCompile(`(^|[=(,:?!&|{\[]|\breturn)\s*<any>\s*[\w$(]`)},
}

// Suppression names the first suppression the hunks add ("" when none).
func Suppression(hunks []unidiff.Hunk) string {
	var added, removed strings.Builder
	for _, h := range hunks {
		for _, l := range h.Lines {
			switch l.Op {
			case '+':
				added.WriteString(l.Text + "\n")
			case '-':
				removed.WriteString(l.Text + "\n")
			}
		}
	}
	for _, s := range suppressions {
		if len(s.re.FindAllStringIndex(added.String(), -1)) > len(s.re.FindAllStringIndex(removed.String(), -1)) {
			return s.name
		}
	}
	return ""
}

// uniqueBlocks says why a hunk whose header was rewritten cannot be
// trusted: its old block is empty, absent or occurs more than once.
func uniqueBlocks(content string, hunks []unidiff.Hunk) string {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	for i, h := range hunks {
		old := h.Old()
		if len(old) == 0 {
			return fmt.Sprintf("hunk %d only inserts lines, so its place cannot be checked", i+1)
		}
		n := 0
		for k := 0; k+len(old) <= len(lines); k++ {
			if equalAt(lines, old, k) {
				n++
			}
		}
		switch {
		case n == 0:
			return fmt.Sprintf("hunk %d's old block is not in the file exactly", i+1)
		case n > 1:
			return fmt.Sprintf("hunk %d's old block occurs %d times in the file", i+1, n)
		}
	}
	return ""
}

func equalAt(lines, block []string, at int) bool {
	for k, want := range block {
		if lines[at+k] != want {
			return false
		}
	}
	return true
}

func diagList(ds []model.Diagnostic) string {
	var parts []string
	for i, d := range ds {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(ds)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("%s:%d TS%d %s", d.File, d.Line, d.Code, firstLine(d.Message)))
	}
	return strings.Join(parts, "; ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

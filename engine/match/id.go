package match

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/uptide/uptide/engine/model"
)

// hiddenUnder is the confidence under which an unconfirmed finding is left
// out of the human report.
const hiddenUnder = 0.5

// isHidden: info and additive findings are never listed; a finding under
// 0.5 is listed only with --all, unless the compiler confirmed it (at the
// site, or through an error downstream of it).
func isHidden(f model.Finding) bool {
	switch {
	case f.Severity == model.Info || f.Severity == model.Additive:
		return true
	case f.AnchorOnly || len(f.Evidence) > 0 || len(f.Downstream) > 0:
		return false
	}
	return f.Confidence < hiddenUnder
}

// idPath is the canonical path slot of the id: the symbol path, the
// grouping key of an unattributed error, or the name a root cause edits.
func idPath(f model.Finding) string {
	switch {
	case f.Path != "":
		return f.Path
	case model.CompilerCode(f.Change) != 0:
		return f.Rule
	}
	return f.SymbolPath
}

// baseID hashes package, canonical path, file, change kind and code.
// Lines and order never enter it. An unattributed error's path is its
// grouping key (code and message shape), and its file is the one file its
// group stands in, so the id names what failed and where.
func baseID(f model.Finding) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%d", f.Package, idPath(f), f.File, f.Change, model.CompilerCode(f.Change))))
	return hex.EncodeToString(sum[:8])
}

// finalize sorts findings canonically, decides Hidden and assigns ids.
// Findings that hash alike (one symbol used twice in a file with the same
// change) are told apart by their rank in the file, "-2", "-3": moving code
// up or down keeps every id as long as the uses keep their order.
func finalize(fs []model.Finding) []model.Finding {
	slices.SortStableFunc(fs, compareFindings)
	seen := map[string]int{}
	for i := range fs {
		f := &fs[i]
		f.Hidden = isHidden(*f)
		id := baseID(*f)
		seen[id]++
		if n := seen[id]; n > 1 {
			id = fmt.Sprintf("%s-%d", id, n)
		}
		f.ID = id
	}
	return fs
}

// compareFindings is the canonical order: by place, then by what changed.
func compareFindings(a, b model.Finding) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Workspace, b.Workspace),
		cmp.Compare(a.Change, b.Change),
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.SymbolPath, b.SymbolPath),
		cmp.Compare(b.Severity.Rank(), a.Severity.Rank()),
		cmp.Compare(b.Confidence, a.Confidence),
		cmp.Compare(a.Reason, b.Reason),
		cmp.Compare(a.Rule, b.Rule),
		slices.CompareFunc(a.Evidence, b.Evidence, model.CompareDiagnostics),
		slices.CompareFunc(a.Downstream, b.Downstream, model.CompareDiagnostics),
	)
}

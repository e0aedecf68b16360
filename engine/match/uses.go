package match

import (
	"fmt"

	"github.com/uptide/uptide/engine/model"
)

// NoteUses makes one info finding per usage whose canonical path noted
// says a pack has a note on, with ids as every other finding's.
func NoteUses(pkg, pack string, usages []model.Usage, noted func(path string) bool) []model.Finding {
	var out []model.Finding
	for _, u := range usages {
		// The import names what the code then uses: the use is the site.
		if u.CanonicalPath == "" || u.Access == model.AccessImport || !noted(u.CanonicalPath) {
			continue
		}
		out = append(out, model.Finding{
			Package: pkg, Path: u.CanonicalPath, SymbolPath: u.SymbolPath, Change: model.ChangeUse,
			Severity: model.Info, Confidence: 1,
			Reason:     fmt.Sprintf("uses %s, which still compiles against the target; the %s pack has a note on it", u.CanonicalPath, pack),
			Fixability: model.NoFix,
			Workspace:  u.Workspace, File: u.File, Line: u.Line, Column: u.Column,
			Access: u.Access, Via: u.Via, Rule: model.ChangeUse,
		})
	}
	return finalize(out)
}

package match

import (
	"fmt"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// Verdict says what a package's findings amount to. Breaking and possible
// count listed findings (an anchor or a per-file finding once). Nothing
// found is safe only when every site was analyzed: partial when at most a
// fifth of the sites were not, unknown above that — never a green check
// over sites nobody looked at.
func Verdict(findings []model.Finding, analyzedSites, unanalyzedSites int) (model.Verdict, string) {
	var breaking, possible int
	for _, f := range findings {
		if f.Hidden {
			continue
		}
		switch f.Severity {
		case model.Breaking:
			breaking++
		case model.Unverified:
			possible++
		}
	}
	total := analyzedSites + unanalyzedSites
	tooMany := unanalyzedSites > 0 && 5*unanalyzedSites > total
	var parts []string
	status := verdictStatus("verdict/safe")
	switch {
	case breaking > 0:
		status = verdictStatus("verdict/breaking")
		parts = append(parts, fmt.Sprintf("✗ %d breaking", breaking))
		if possible > 0 {
			parts = append(parts, fmt.Sprintf("%d possible", possible))
		}
	case tooMany:
		status = verdictStatus("verdict/unknown")
		parts = append(parts, "? unknown")
		if possible > 0 {
			parts = append(parts, fmt.Sprintf("%d possible", possible))
		}
	case possible > 0:
		status = verdictStatus("verdict/possible")
		parts = append(parts, fmt.Sprintf("? %d possible", possible))
	case unanalyzedSites > 0:
		status = verdictStatus("verdict/partial")
		parts = append(parts, fmt.Sprintf("no impact in %d analyzed %s", analyzedSites, plural(analyzedSites, "site")))
	default:
		parts = append(parts, fmt.Sprintf("✓ no impact in %d %s", analyzedSites, plural(analyzedSites, "site")))
	}
	if unanalyzedSites > 0 {
		parts = append(parts, fmt.Sprintf("⚠ %d %s not analyzed", unanalyzedSites, plural(unanalyzedSites, "site")))
	}
	return status, strings.Join(parts, " · ")
}

func verdictStatus(id string) model.Verdict {
	for _, r := range verdictRows {
		if r.ID == id {
			return r.Verdict
		}
	}
	panic("match: unknown verdict row " + id)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

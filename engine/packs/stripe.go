package packs

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/packs/stripe"
	"github.com/uptide/uptide/internal/lists"
)

// stripePack: stripe's SDK majors. Two concerns: the SDK surface (params
// renamed or removed), and the API version the SDK pins (LatestApiVersion),
// which a client that names it must move with, and whose changelog between
// the two pins is the user's to review.
func stripePack() *Pack {
	return &Pack{
		Package: "stripe", From: ">=8.0.0", To: ">=8.0.0",
		Facts: stripeFacts, Decisions: stripeDecisions, PlanNote: stripePlanNote,
		Rules: []Rule{
			{
				ID: "stripe-api-version", Title: "the pinned API version moves", On: Kind(model.ChangeType), Path: "Stripe.LatestApiVersion", Token: "apiVersion",
				// Where the alias is not attributed, the literal is a plain
				// TS2322 at the apiVersion key.
				Also:      []Key{{On: Code(2322), Token: "apiVersion"}},
				Guide:     "The stripe SDK types apiVersion as the one API version it was generated for (LatestApiVersion): a client pinned to the old SDK's version names the new one, and the API changes between the two versions are reviewed, not compiled.",
				Notes:     []string{"apiVersion now names the new SDK's pinned API version: requests made with this client change API version with this branch. Webhook endpoints keep the API version configured in the Dashboard; payloads they deliver follow that version, not this one."},
				Transform: apiVersionPin,
			},
			{
				ID: "stripe-product-marketing-features", Title: "Product features is marketing_features", On: Kind(model.ChangeRemoved), Path: "Stripe.ProductCreateParams#features",
				Also: []Key{
					{On: Kind(model.ChangeRemoved), Path: "Stripe.ProductUpdateParams#features"},
					{On: Kind(model.ChangeRemoved), Path: "Stripe.Product#features"},
				},
				Guide:     "API version 2024-04-10 renames a product's features to marketing_features (the Product object and its create and update params); the items keep their shape ({ name }).",
				Transform: renameKeyOrMember("features", "marketing_features"),
			},
		},
	}
}

// stripeFacts reads the API version each SDK pins: the LatestApiVersion
// literal its declarations export (to stripe 18), or the ApiVersion
// constant LatestApiVersion is the type of (from stripe 19).
func stripeFacts(fromDir, toDir string) (Facts, error) {
	from, err := stripePin(fromDir)
	if err != nil {
		return nil, err
	}
	to, err := stripePin(toDir)
	if err != nil {
		return nil, err
	}
	return Facts{"apiVersion.from": from, "apiVersion.to": to}, nil
}

var latestAPIVersionRE = regexp.MustCompile(`\b(?:type\s+LatestApiVersion|const\s+ApiVersion)\s*=\s*['"]([0-9]{4}-[0-9]{2}-[0-9]{2}(?:\.[a-z]+)?)['"]`)

// stripePin is the LatestApiVersion literal in the declarations under dir.
func stripePin(dir string) (string, error) {
	// pnpm installs node_modules/stripe as a link into its store, and a walk
	// does not follow the link it starts at: read the package it names.
	root := dir
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		root = real
	}
	var pins []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "node_modules" && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".d.ts") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// Both of the pattern's forms name ApiVersion: the files that do
		// not (all but one or two of stripe's hundreds) skip the regexp,
		// which cost 0.75 s of a fix run's CPU over the two versions' 10 MB.
		if !bytes.Contains(b, []byte("ApiVersion")) {
			return nil
		}
		for _, m := range latestAPIVersionRE.FindAllStringSubmatch(string(b), -1) {
			pins = lists.AppendUnique(pins, m[1])
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("reading stripe's pinned API version under %s: %w", dir, err)
	}
	if len(pins) != 1 {
		return "", fmt.Errorf("stripe's declarations under %s pin %d API versions (%s), not one: the pin edit is left to you", dir, len(pins), strings.Join(pins, ", "))
	}
	return pins[0], nil
}

// apiVersionPin: apiVersion: '<old pin>' → apiVersion: '<new pin>', the
// literal the target SDK's declarations pin, in the literal's own quotes.
func apiVersionPin(s Site) ([]Edit, bool) {
	to := s.Facts["apiVersion.to"]
	if to == "" {
		return nil, false
	}
	at, ok := tokenAt(s, "apiVersion")
	if !ok {
		return nil, false
	}
	i := at + len("apiVersion")
	rest := s.Content[i:]
	trimmed := strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(trimmed, ":") {
		return nil, false
	}
	j := i + len(rest) - len(trimmed) + 1
	for j < len(s.Content) && (s.Content[j] == ' ' || s.Content[j] == '\t') {
		j++
	}
	if j >= len(s.Content) || (s.Content[j] != '\'' && s.Content[j] != '"') {
		return nil, false // a constant or an expression: the assisted fixer's
	}
	q := s.Content[j]
	end := strings.IndexByte(s.Content[j+1:], q)
	if end < 0 {
		return nil, false
	}
	lit := s.Content[j+1 : j+1+end]
	if lit == to || strings.ContainsAny(lit, "\\\n") {
		return nil, false
	}
	return []Edit{{File: s.Finding.File, Start: j + 1, End: j + 1 + end, New: to}}, true
}

// renameKeyOrMember renames an object-literal key (key:) or a property
// read (.key) at the site.
func renameKeyOrMember(old, repl string) Transform {
	key := renameKey(old, repl)
	return func(s Site) ([]Edit, bool) {
		if es, ok := key(s); ok {
			return es, true
		}
		at, ok := tokenAt(s, old)
		if !ok || at == 0 || s.Content[at-1] != '.' {
			return nil, false
		}
		return []Edit{{File: s.Finding.File, Start: at, End: at + len(old), New: repl}}, true
	}
}

// stripeDecisions lists the changelog between the two pinned API versions
// from the snapshot shipped in the tree.
func stripeDecisions(f Facts) []string {
	snap, err := stripe.Shipped()
	return stripeReview(f, snap, err)
}

// stripeReview lists every snapshot entry of an API version after the old
// pin up to the new one. A snapshot that does not load (damaged, edited
// after it was generated) or does not know a pin is said, never passed
// over as "no changes".
func stripeReview(f Facts, snap *stripe.Snapshot, loadErr error) []string {
	from, to := f["apiVersion.from"], f["apiVersion.to"]
	if from == "" || to == "" || from == to {
		return nil
	}
	entries, problem := stripeChanges(from, to, snap, loadErr)
	if problem != "" {
		return []string{fmt.Sprintf("Stripe API %s → %s: %s: review the API changelog between the two versions yourself; nothing here says the upgrade has no API change.", from, to, problem)}
	}
	head := fmt.Sprintf("Stripe API %s → %s: %d changelog entries between the two pinned versions, each to check against what your integration sends and reads (source: %s %s):",
		from, to, len(entries), snap.Source.Package, snap.Source.File)
	lines := []string{head}
	// The snapshot holds breaking entries only (stripe.Parse reads no other).
	for _, e := range entries {
		if e.Area != "" {
			lines = append(lines, fmt.Sprintf("  %s · breaking · %s: %s", e.Version, e.Area, e.Summary))
		} else {
			lines = append(lines, fmt.Sprintf("  %s · breaking: %s", e.Version, e.Summary))
		}
	}
	return lines
}

// stripeChanges is the snapshot's entries between the pins, or why the
// snapshot cannot say.
func stripeChanges(from, to string, snap *stripe.Snapshot, loadErr error) ([]stripe.Entry, string) {
	if loadErr != nil {
		return nil, fmt.Sprintf("the changelog snapshot shipped with Uptide is unusable (%v)", loadErr)
	}
	if !snap.Covers(from) || !snap.Covers(to) {
		var missing []string
		for _, v := range []string{from, to} {
			if !snap.Covers(v) {
				missing = append(missing, v)
			}
		}
		return nil, fmt.Sprintf("the changelog snapshot shipped with Uptide (%s) covers API versions %s to %s, not %s",
			snap.Source.Package, snap.Versions[0], snap.Versions[len(snap.Versions)-1], strings.Join(missing, " or "))
	}
	return snap.Between(from, to), ""
}

// stripePlanNote counts, under the API version rule, the changelog entries
// between the two pins that fix will list for review.
func stripePlanNote(ruleID string, f Facts) string {
	snap, err := stripe.Shipped()
	return stripeNote(ruleID, f, snap, err)
}

func stripeNote(ruleID string, f Facts, snap *stripe.Snapshot, loadErr error) string {
	from, to := f["apiVersion.from"], f["apiVersion.to"]
	if ruleID != "stripe-api-version" || from == "" || to == "" || from == to {
		return ""
	}
	entries, problem := stripeChanges(from, to, snap, loadErr)
	if problem != "" {
		return fmt.Sprintf("API %s → %s: %s; review the changelog yourself", from, to, problem)
	}
	return fmt.Sprintf("API %s → %s: %d changelog entries between the pins, listed by fix under Decisions for you", from, to, len(entries))
}

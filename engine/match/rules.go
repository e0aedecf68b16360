package match

import (
	"fmt"
	"sort"

	"github.com/uptide/uptide/engine/model"
)

// The tables a rule can belong to.
const (
	TableDirection  = "direction"
	TableCertainty  = "via certainty"
	TableJoin       = "join"
	TableArbiter    = "arbiter"
	TableCause      = "root cause"
	TableFixability = "fixability"
	TableVerdict    = "verdict"
)

// Rule is one row of any of the package's tables, as the registry sees it.
type Rule struct {
	ID    string
	Table string
	Title string
}

// Rules returns every row of every table, sorted by id.
func Rules() []Rule {
	var out []Rule
	for _, r := range directionRows {
		out = append(out, Rule{r.ID, TableDirection, r.Title})
	}
	for _, r := range certaintyRows {
		out = append(out, Rule{r.ID, TableCertainty, r.Title})
	}
	for _, r := range joinRows {
		out = append(out, Rule{r.ID, TableJoin, r.Title})
	}
	for _, r := range arbiterRows {
		out = append(out, Rule{r.ID, TableArbiter, r.Title})
	}
	for _, r := range causeRows {
		out = append(out, Rule{r.ID, TableCause, r.Title})
	}
	for _, r := range fixRows {
		out = append(out, Rule{r.ID, TableFixability, r.Title})
	}
	for _, r := range verdictRows {
		out = append(out, Rule{r.ID, TableVerdict, r.Title})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ruleIndex checks once that ids are unique across tables.
var ruleIndex = func() map[string]Rule {
	m := map[string]Rule{}
	for _, r := range Rules() {
		if _, dup := m[r.ID]; dup {
			panic("match: duplicate rule id " + r.ID)
		}
		m[r.ID] = r
	}
	return m
}()

// RuleByID returns the row with the given id.
func RuleByID(id string) (Rule, bool) {
	r, ok := ruleIndex[id]
	return r, ok
}

// JoinRow names one decision of the usage join. The join is code, but each
// of its decisions has an id so that tests and reports can name it.
type JoinRow struct {
	ID    string
	Title string
}

var joinRows = []JoinRow{
	{ID: "join/usage-paths", Title: "a usage answers to the name written and its canonical target; each change kind once, under the name written"},
	{ID: "join/container-outermost", Title: "a removed or moved container reaches usages of its members, for the outermost removed ancestor only"},
	{ID: "join/container-survives", Title: "a removed container is no removal for a site whose symbol still exists at the top level of the target"},
	{ID: "join/import-binding", Title: "an import binding is affected only by removed, moved and renamed"},
	{ID: "join/several-removed", Title: "several symbols removed or moved at one site are one finding listing them"},
	{ID: "join/deprecation-written", Title: "a deprecation applies only to the name the consumer wrote"},
	{ID: "join/declared-type", Title: "a change to a type named in a used symbol's declaration reaches the usage, one level"},
	{ID: "join/added-ignored", Title: "an addition reaches no existing usage"},
}

// CertaintyRow is how sure a usage is of the symbol it names, by how the
// reference reached it.
type CertaintyRow struct {
	ID        string
	Title     string
	Certainty float64
}

var certaintyRows = []CertaintyRow{
	{ID: "via/direct", Title: "direct reference of an import binding", Certainty: 1},
	{ID: "via/alias", Title: "through a local alias", Certainty: 0.95},
	{ID: "via/reexport", Title: "through a repository re-export", Certainty: 0.95},
	{ID: "via/destructure", Title: "destructured from a package value", Certainty: 0.9},
	{ID: "via/require", Title: "matched by name on a require() the checker could not type", Certainty: 0.85},
	{ID: "via/inferred", Title: "inferred from a compiler diagnostic", Certainty: 0.8},
}

// VerdictRow is one outcome of the honest verdict.
type VerdictRow struct {
	ID      string
	Title   string
	Verdict model.Verdict
}

var verdictRows = []VerdictRow{
	{ID: "verdict/breaking", Title: "a confirmed breaking finding", Verdict: model.VerdictBreaking},
	{ID: "verdict/unknown", Title: "more than a fifth of the sites not analyzed", Verdict: model.VerdictUnknown},
	{ID: "verdict/possible", Title: "only unverified findings", Verdict: model.VerdictPossible},
	{ID: "verdict/partial", Title: "nothing found, up to a fifth of the sites not analyzed", Verdict: model.VerdictPartial},
	{ID: "verdict/safe", Title: "nothing found and every site analyzed", Verdict: model.VerdictSafe},
}

// mustRule panics on an id the code names but no table holds: a
// programming error the registry test catches first.
func mustRule(id string) Rule {
	r, ok := RuleByID(id)
	if !ok {
		panic(fmt.Sprintf("match: unknown rule id %q", id))
	}
	return r
}

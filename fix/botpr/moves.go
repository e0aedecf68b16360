package botpr

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/lockfile"
)

// Move is one package the pull request moves in one importer of the
// lockfile (a workspace, or a pnpm catalog: "catalog:default").
type Move struct {
	Importer string `json:"importer"`
	Name     string `json:"name"`
	From     string `json:"from"`
	To       string `json:"to"`
}

// Moves compares the importers of the lockfile at the base and at the
// head: every declared package whose resolved version differs (added or
// removed ones are not moves: nothing migrates them), sorted.
func Moves(file string, base, head []byte) ([]Move, error) {
	before, err := lockfile.ParseGraph(file, base)
	if err != nil {
		return nil, fmt.Errorf("the base's %w", err)
	}
	after, err := lockfile.ParseGraph(file, head)
	if err != nil {
		return nil, fmt.Errorf("the head's %w", err)
	}
	version := func(g *lockfile.Graph, imp, name string) string {
		if strings.HasPrefix(imp, "catalog:") {
			// The entry's canonical text: {"specifier":…,"version":…}.
			var entry struct {
				Version string `json:"version"`
			}
			_ = json.Unmarshal([]byte(g.Importers[imp][name]), &entry)
			return entry.Version
		}
		if rec := g.Records[g.ImporterEdges[imp][name]]; rec != nil {
			return rec.Version
		}
		return ""
	}
	var out []Move
	for imp, decls := range after.Importers {
		for name := range decls {
			from, to := version(before, imp, name), version(after, imp, name)
			if from != "" && to != "" && from != to {
				out = append(out, Move{Importer: imp, Name: name, From: from, To: to})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Importer < out[j].Importer
	})
	return out, nil
}

// Targets are the packages moved and the version each moves to; a
// package moved to two versions in two importers is not one upgrade uptide
// can migrate.
func Targets(moves []Move) (map[string]string, error) {
	out := map[string]string{}
	for _, m := range moves {
		if to, ok := out[m.Name]; ok && to != m.To {
			return nil, fmt.Errorf("%s moves to %s and to %s in different importers: uptide migrates one target per package", m.Name, to, m.To)
		}
		out[m.Name] = m.To
	}
	return out, nil
}

package cli

import (
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/checkstore"
)

// checkStore is the repository's kept checks (internal/checkstore, which
// the planner reads too).
type checkStore struct{ checkstore.Store }

func openCheckStore(env Env, root string) checkStore {
	return checkStore{checkstore.Open(env, root)}
}

func (s checkStore) save(rep *model.CheckReport) { s.Save(rep) }

func (s checkStore) load(targets map[string]string) map[string]*model.PackageReport {
	return s.Load(targets)
}

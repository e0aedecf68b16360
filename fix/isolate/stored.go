package isolate

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// StoredRun is one run StoreRun stored in a checkout.
type StoredRun struct {
	ID string
	// Branch is the run's branch; File its own record (runs/<id>.json);
	// Head the branch's run.json, the record of the run behind the branch
	// as it stands (which may be another run's).
	Branch, File, Head string
}

// StoredRuns are the runs stored in the checkout around dir, oldest
// first (a run id starts with its time).
func StoredRuns(ctx context.Context, dir string) ([]StoredRun, error) {
	env, done, err := quietGitEnv(nil)
	if err != nil {
		return nil, err
	}
	defer done()
	repo, err := locate(ctx, env, dir)
	if err != nil {
		return nil, fmt.Errorf("finding the stored runs: %w", err)
	}
	root := filepath.Join(repo.commonDir, "uptide")
	var out []StoredRun
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == root {
				return filepath.SkipAll
			}
			return err
		}
		runs := filepath.Dir(path)
		if d.IsDir() || filepath.Base(runs) != "runs" || filepath.Ext(path) != ".json" || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		branchDir := filepath.Dir(runs)
		branch, _ := filepath.Rel(root, branchDir)
		out = append(out, StoredRun{ID: strings.TrimSuffix(d.Name(), ".json"), Branch: filepath.ToSlash(branch), File: path,
			Head: filepath.Join(branchDir, "run.json")})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the stored runs in %s: %w", root, err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

package check

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/match"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/peers"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/lists"
)

// A peer the repository's manager does not install: the target moved a
// dependency of its own to its peers (@testing-library/react 16 and
// @testing-library/dom), and under yarn the upgrade leaves it out. The
// overlay compile sees what the install gives (the peer missing), a second
// compile with the peer added tells which new errors adding it fixes: those
// are the missing peer's findings, and the peer is a companion to add.

// missingPeer is a new peer the upgrade leaves out, with the release the
// second compile added.
type missingPeer struct {
	typescript.MissingPeer
	// Added is the version linked to see what adding the peer fixes; ""
	// when it could not be fetched.
	Added string
}

// peerRule is what the repository's manager does with missing peers, read
// once per run.
func (c *checker) peerRule() typescript.PeerRule {
	c.lazyMu.Lock()
	defer c.lazyMu.Unlock()
	if c.peers == nil {
		r := c.disc.Repository
		lock := ""
		if r.Lockfile != "" {
			lock = filepath.Join(c.root, filepath.FromSlash(r.Lockfile))
		}
		var setting peers.Setting
		if c.client != nil && c.client.Config() != nil {
			setting = c.client.Config().Setting
		}
		p := peers.For(r.PackageManager).Of(peers.Input{Root: c.root, ManagerField: r.PackageManagerField,
			Lockfile: lock, LockfileFormat: lockfile.Format(r.LockfileFormat), Setting: setting})
		c.peers = &p
	}
	return typescript.PeerRule{LeftOut: !c.peers.Installs, Why: c.peers.Why, Release: c.releaseFor}
}

// copyRule is which copy of a moved package the upgrade leaves a staying
// dependent, as the real managers do (measured with each; the manager's
// peers.Rules say which keep the lockfile's entries): yarn (classic and
// berry) and bun keep every lockfile entry still asked for, so
// @types/response-time's @types/express "*" stays on 4; npm dedupes a
// range the target meets to it, and so does pnpm's install after a
// manifest edit, which is the upgrade fix runs (pnpm add would keep the
// entries, as yarn does). Yarn also resolves a range the lockfile already
// has to its entry: a moved package's dependency on it gets that version.
func (c *checker) copyRule() typescript.CopyRule {
	if rules := peers.For(c.disc.Repository.PackageManager); rules.KeepsLocked {
		return typescript.CopyRule{KeepsLocked: true, Manager: rules.Manager, Locked: c.locked}
	}
	return typescript.CopyRule{}
}

// locked is the version the repository's yarn lockfile resolves the
// descriptor name@rng to (berry writes it name@npm:rng); false for another
// lockfile format (only yarn's are keyed by descriptor), a range it does
// not hold, or a lockfile it cannot read. The graph is read once per run.
func (c *checker) locked(name, rng string) (string, bool) {
	c.lockOnce.Do(func() {
		r := c.disc.Repository
		if f := lockfile.Format(r.LockfileFormat); r.Lockfile == "" || (f != lockfile.YarnV1 && f != lockfile.YarnBerry) {
			return
		}
		g, err := lockfile.LoadGraph(filepath.Join(c.root, filepath.FromSlash(r.Lockfile)))
		if err == nil {
			c.lockGraph = g
		}
	})
	g := c.lockGraph
	if g == nil {
		return "", false
	}
	d := name + "@" + rng
	if g.Format == lockfile.YarnBerry && !strings.Contains(rng, ":") {
		d = name + "@npm:" + rng
	}
	key, ok := g.Descriptor(d)
	if !ok {
		return "", false
	}
	rec := g.Records[key]
	if rec == nil || rec.Version == "" {
		return "", false
	}
	return rec.Version, true
}

// judgeMissingPeers finds the new peers the overlay left out and compiles
// once more with them added; the new errors that go away are theirs.
func (c *checker) judgeMissingPeers(ctx context.Context, wc *wsCompile, ad *typescript.Adapter, req typescript.CompileRequest, oreq typescript.OverlayRequest) {
	var missing []missingPeer
	for _, mp := range req.Overlay.MissingPeers() {
		if c.newPeer(wc.ws, mp) {
			missing = append(missing, missingPeer{MissingPeer: mp})
		}
	}
	if len(missing) == 0 {
		return
	}
	added := append([]typescript.LinkedPackage(nil), oreq.Companions...)
	have := map[string]bool{}
	for i, mp := range missing {
		if have[mp.Name] {
			continue
		}
		dir, version, err := c.fetchRange(ctx, mp.Name, mp.Range)
		if err != nil {
			wc.notes = append(wc.notes, fmt.Sprintf("%s %s could not be fetched to see what adding it fixes: %v", mp.Name, mp.Range, err))
			continue
		}
		have[mp.Name] = true
		missing[i].Added = version
		added = append(added, typescript.LinkedPackage{Name: mp.Name, Dir: dir})
	}
	for i := range missing {
		if missing[i].Added == "" {
			for _, o := range missing {
				if o.Name == missing[i].Name && o.Added != "" {
					missing[i].Added = o.Added
				}
			}
		}
	}
	wc.missing = missing
	if len(have) == 0 {
		return
	}
	oreq.Companions = added
	ov, err := typescript.BuildOverlay(ctx, oreq)
	if err != nil {
		wc.notes = append(wc.notes, "linking the missing peers: "+err.Error())
		return
	}
	defer ov.Cleanup()
	req.Overlay = ov
	res, err := ad.Compile(ctx, req)
	if err != nil || res.OverlaySkipped != "" || res.NewerTypeScript != nil {
		wc.notes = append(wc.notes, "compiling with the missing peers added did not run; their errors stay with the upgrade")
		return
	}
	wc.peerFixed = withoutConfirmed(wc.res.New, countOf(res.New))
}

// withoutPeers drops the unresolved imports of missing peers.
func withoutPeers(us []typescript.UnresolvedImport, missing []missingPeer) []typescript.UnresolvedImport {
	if len(missing) == 0 {
		return us
	}
	out := us[:0:0]
	for _, u := range us {
		gone := false
		for _, mp := range missing {
			if u.Importer == mp.RequiredBy && (u.Specifier == mp.Name || strings.HasPrefix(u.Specifier, mp.Name+"/")) {
				gone = true
			}
		}
		if !gone {
			out = append(out, u)
		}
	}
	return out
}

// countOf counts diagnostics by their multiset key.
func countOf(ds []model.Diagnostic) map[diagKey]int {
	out := map[diagKey]int{}
	for _, d := range ds {
		out[keyOfDiag(d)]++
	}
	return out
}

// newPeer: the installed release of the package that peer-requires it did
// not (a peer it already had is missing before the upgrade as well).
func (c *checker) newPeer(ws string, mp typescript.MissingPeer) bool {
	dir, _ := installedCopy(c.root, ws, mp.RequiredBy)
	if dir == "" {
		return true
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return true
	}
	var m struct {
		PeerDependencies map[string]string `json:"peerDependencies"`
	}
	if json.Unmarshal(b, &m) != nil {
		return true
	}
	_, had := m.PeerDependencies[mp.Name]
	return !had
}

// peerCompanions are the companions the missing peers make: one per peer,
// "add", with who requires it and why the install leaves it out.
func (c *checker) peerCompanions(compiles []*wsCompile) []model.Companion {
	by := map[string]*model.Companion{}
	whys := map[string][]string{}
	for _, wc := range compiles {
		for _, mp := range wc.missing {
			if _, ok := by[mp.Name]; !ok {
				by[mp.Name] = &model.Companion{Name: mp.Name, To: mp.Added,
					Reason: model.CompanionReason{Kind: model.CompanionMissingPeer, Follows: mp.RequiredBy}}
			}
			whys[mp.Name] = appendUnique(whys[mp.Name], peerWhy(mp, c.peers.Why))
		}
	}
	out := []model.Companion{}
	for _, n := range lists.SortedKeys(by) {
		cp := *by[n]
		cp.Why = "add " + n + "@" + rangeOf(compiles, n) + " (" + strings.Join(whys[n], "; ") + ")"
		out = append(out, cp)
	}
	return out
}

func peerWhy(mp missingPeer, why string) string {
	return fmt.Sprintf("new peer of %s %s; %s", mp.RequiredBy, mp.Version, why)
}

func rangeOf(compiles []*wsCompile, name string) string {
	var rs []string
	for _, wc := range compiles {
		for _, mp := range wc.missing {
			if mp.Name == name {
				rs = appendUnique(rs, mp.Range)
			}
		}
	}
	sort.Strings(rs)
	return strings.Join(rs, " ")
}

// missingOf says, for the findings, which peers are missing and why.
func (c *checker) missingOf(wc *wsCompile) []match.Peer {
	var out []match.Peer
	seen := map[string]bool{}
	for _, mp := range wc.missing {
		if seen[mp.Name] {
			continue
		}
		seen[mp.Name] = true
		out = append(out, match.Peer{Name: mp.Name, Range: mp.Range, RequiredBy: mp.RequiredBy, Version: mp.Version, Why: c.peers.Why})
	}
	return out
}

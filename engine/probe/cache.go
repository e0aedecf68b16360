package probe

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/cache"
)

// cacheSchema changes when what a cached copy means changes (2: a copy
// missing its own files throws, it is no longer inconclusive).
const cacheSchema = 2

// resultCache keeps each copy's probe per package@version (and integrity,
// when known), per Node release and per probe script: a version's shape
// does not change, but Node's loaders do from one release to the next
// (require(esm) arrived in a minor of 20 and of 22), so the key is the
// exact Node that ran, which is finer than its major.
type resultCache struct {
	dir string
	off bool
}

var scriptsHash = sync.OnceValue(func() string {
	h := sha256.New()
	names, _ := fs.Glob(scripts, "js/*.cjs")
	sort.Strings(names)
	for _, n := range names {
		b, _ := scripts.ReadFile(n)
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
})

func (r resultCache) path(name string, c Copy, node nodeBinary, subpaths []string) (string, error) {
	dir := r.dir
	if dir == "" {
		d, err := cache.Dir("runtime")
		if err != nil {
			return "", err
		}
		dir = d
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%s\x00%s\x00%s", cacheSchema, scriptsHash(), name, c.Version, c.Integrity, node.version)
	// The subpath entries loaded are part of the answer.
	if len(subpaths) > 0 {
		fmt.Fprintf(h, "\x00%s", strings.Join(subpaths, "\x00"))
	}
	file := fmt.Sprintf("%s-node%d-%s.json", c.Version, node.major, hex.EncodeToString(h.Sum(nil))[:24])
	return filepath.Join(dir, filepath.FromSlash(name), file), nil
}

// probe returns the cached copy when there is one, else runs it and keeps
// what it decided. A copy without a version (an install whose manifest
// could not say) is never cached.
func (r resultCache) probe(ctx context.Context, req Request, c Copy, node nodeBinary, run func() (model.RuntimeCopy, bool, error)) (model.RuntimeCopy, error) {
	var path string
	if !r.off && c.Version != "" {
		if p, err := r.path(req.Name, c, node, req.subpaths()); err == nil {
			path = p
			if b, err := os.ReadFile(p); err == nil {
				var cached model.RuntimeCopy
				if json.Unmarshal(b, &cached) == nil && cached.Version == c.Version {
					// Where an earlier run laid the copy out is its own.
					cached.Placement = "from the runtime cache"
					return cached, nil
				}
			}
		}
	}
	out, keep, err := run()
	if err != nil || !keep || path == "" || ctx.Err() != nil {
		return out, err
	}
	if out.Version != c.Version {
		return out, nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return out, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return out, nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+strings.ReplaceAll(req.Name, "/", "+")+"-*")
	if err != nil {
		return out, nil
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		_ = os.Remove(tmp.Name())
	}
	return out, nil
}

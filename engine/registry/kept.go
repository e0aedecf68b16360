package registry

import (
	"fmt"
	"sync/atomic"

	"github.com/uptide/uptide/engine/model"
)

// A client keeps every document it decoded for the rest of the run, so
// what a registry sends must be bounded where it is kept, not only where it
// is read: a document of dependency lists costs several times its size
// once decoded. The estimate (keptSize) runs a little above the real heap.
// The run's budget grows with the documents asked past 256 of them, so a
// monorepo of a thousand dependencies is not refused what a repository of
// a hundred gets: real abbreviated documents keep 0.1 MB (most packages)
// to 8 MB (next) each, a few hundred KB on average.
const (
	DefaultMaxKept      = 64 << 20  // one document, decoded
	DefaultMaxKeptTotal = 128 << 20 // every document of the run, decoded, or ...
	DefaultMaxKeptShare = 512 << 10 // ... this much per document asked, if more
)

// keptBudget is the client's account of decoded documents.
type keptBudget struct {
	perDoc, total, share int64
	used, docs           atomic.Int64
}

// asked grows the run's budget by one document's share.
func (b *keptBudget) asked() { b.docs.Add(1) }

func (b *keptBudget) limit() int64 { return max(b.total, b.docs.Load()*b.share) }

// charge is one document's account against the budget.
type charge struct {
	b    *keptBudget
	kept int64
}

// errKeptTooMuch stops a decode whose document would break the budget.
type errKeptTooMuch struct {
	limit int64
	total bool
}

func (e errKeptTooMuch) Error() string {
	if e.total {
		return fmt.Sprintf("not kept: the run's package documents already take the %s Uptide allows them in memory", formatBytes(e.limit))
	}
	return fmt.Sprintf("the registry's document takes more than %s once decoded, the limit for one package's metadata", formatBytes(e.limit))
}

func (b *keptBudget) open() *charge {
	if b == nil {
		return nil
	}
	return &charge{b: b}
}

// add accounts for n more bytes kept.
func (c *charge) add(n int64) error {
	if c == nil {
		return nil
	}
	if c.kept+n > c.b.perDoc {
		return errKeptTooMuch{limit: c.b.perDoc}
	}
	if limit := c.b.limit(); c.b.used.Add(n) > limit {
		c.b.used.Add(-n)
		return errKeptTooMuch{limit: limit, total: true}
	}
	c.kept += n
	return nil
}

// release gives back what a document that is not kept was charged.
func (c *charge) release() {
	if c == nil {
		return
	}
	c.b.used.Add(-c.kept)
	c.kept = 0
}

// addPackument accounts for a document decoded whole (from the cache).
func (c *charge) addPackument(p *model.Packument) error {
	if c == nil {
		return nil
	}
	for v, r := range p.Versions {
		if err := c.add(keptSize(v, r)); err != nil {
			return err
		}
	}
	return c.add(timesSize(p.Time))
}

// keptSize estimates the heap one release takes once decoded: the struct,
// its slot in the versions map, each non-empty map (a small map is a whole
// group of slots however few entries it has), and the strings.
func keptSize(v string, r model.Release) int64 {
	n := int64(256 + len(v) + len(r.Name) + len(r.Version) + len(r.Deprecated) +
		len(r.Dist.Tarball) + len(r.Dist.Integrity) + len(r.Dist.Shasum))
	for _, m := range []map[string]string{r.Dependencies, r.PeerDependencies, r.OptionalDependencies, r.Engines} {
		n += mapSize(len(m))
		for k, v := range m {
			n += int64(len(k) + len(v))
		}
	}
	n += mapSize(len(r.PeerDependenciesMeta))
	for k := range r.PeerDependenciesMeta {
		n += int64(len(k))
	}
	return n
}

func mapSize(entries int) int64 {
	if entries == 0 {
		return 0
	}
	return 320 + int64(max(0, entries-8))*48
}

// timesSize estimates the heap of a full document's publish times.
func timesSize(times map[string]string) int64 {
	var n int64
	for v, t := range times {
		n += int64(48 + len(v) + len(t))
	}
	return n
}

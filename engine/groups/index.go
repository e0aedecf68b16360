package groups

// Index keeps what the rules parse from a set of packuments (ranges,
// sorted release lists) so that planning many upgrades over the same
// registry answers parses each packument once: a plan per major row of a
// large repository otherwise re-reads every linked package's history.
// An Index is not safe for concurrent use; the packuments must not change
// while it is in use.
type Index struct {
	c *cache
}

// NewIndex indexes p lazily: nothing is parsed until a rule needs it.
func NewIndex(p Packuments) *Index {
	return &Index{c: newCache(p)}
}

package diff

import (
	"fmt"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
)

// Rename hint thresholds and confidences from the specification.
const (
	leafIdenticalConfidence = 0.8
	leafSimilarConfidence   = 0.6
	leafDiceThreshold       = 0.85
	containerNameThreshold  = 0.5
	containerJaccard        = 0.5
	containerStrongName     = 0.6
	containerStrongJaccard  = 0.8
	emptyContainerName      = 0.8
	containerStrong         = 0.8
	containerWeak           = 0.6
)

func isLeafKind(k model.SymbolKind) bool {
	switch k {
	case model.KindFunction, model.KindMethod, model.KindProperty, model.KindVariable, model.KindEnumMember:
		return true
	}
	return false
}

func isContainerKind(k model.SymbolKind) bool {
	switch k {
	case model.KindClass, model.KindInterface, model.KindEnum, model.KindNamespace, model.KindModule, model.KindTypeAlias:
		return true
	}
	return false
}

// candidate is one side of a possible rename.
type candidate struct {
	change int // index into changes
	path   path.Path
	text   string
	sym    *model.Symbol
	name   bigrams
	sig    bigrams
	// members is filled lazily for containers.
	members    []string
	membersSet bool
	// own is filled lazily too: the members the container declares itself.
	own    map[string]string
	ownSet bool
}

type hint struct {
	target     int // candidate index among added
	confidence float64
	score      float64
	// The evidence, formatted only for the hints that are kept.
	identical   bool
	sigDice     float64
	nameDice    float64
	jaccard     float64
	emptyBodies bool
	// own: the members were compared as each container declares them.
	own bool
}

func (h *hint) why() string {
	switch {
	case h.identical:
		return "identical signature"
	case h.sigDice > 0:
		return fmt.Sprintf("signature %.0f%% similar", h.sigDice*100)
	case h.emptyBodies:
		return fmt.Sprintf("name %.0f%% similar, no members", h.nameDice*100)
	case h.own:
		return fmt.Sprintf("name %.0f%% similar, %.0f%% of their own members shared", h.nameDice*100, h.jaccard*100)
	}
	return fmt.Sprintf("name %.0f%% similar, %.0f%% of members shared", h.nameDice*100, h.jaccard*100)
}

// Hint marks removed changes with the added symbol they were probably
// renamed to, when the evidence is specific enough: same parent and kind,
// then signature evidence for leaves and name plus member evidence for
// containers. A hinted container passes its hint on to removed members
// whose counterpart exists under the new name. Ties give no hint, and no
// rename is ever reported as its own kind: the hint is only the removed
// change's Replacement.
func Hint(changes []model.Change, a, b *model.Surface) []model.Change {
	return hintWith(changes, newSurfaceIndex(a), newSurfaceIndex(b))
}

func hintWith(changes []model.Change, ia, ib *surfaceIndex) []model.Change {
	groups := map[string]*group{}
	var keys []string
	add := func(i int, sym *model.Symbol, removed bool) {
		if sym == nil || (!isLeafKind(sym.Kind) && !isContainerKind(sym.Kind)) {
			return
		}
		p, err := path.Parse(changes[i].Path)
		if err != nil || p.Leaf().Kind != path.Name {
			return
		}
		key := p.Scope + "\x00" + p.Parent().String() + "\x00" + string(sym.Kind)
		g := groups[key]
		if g == nil {
			g = &group{}
			groups[key] = g
			keys = append(keys, key)
		}
		c := &candidate{change: i, path: p, text: changes[i].Path, sym: sym}
		if removed {
			g.removed = append(g.removed, c)
		} else {
			g.added = append(g.added, c)
		}
	}
	for i, c := range changes {
		switch c.Kind {
		case model.ChangeRemoved:
			add(i, ia.byPath[c.Path], true)
		case model.ChangeAdded:
			add(i, ib.byPath[c.Path], false)
		}
	}
	sort.Strings(keys)
	out := append([]model.Change(nil), changes...)
	var containerHints []containerHint
	hinted := map[int]bool{}
	for _, key := range keys {
		g := groups[key]
		if len(g.removed) == 0 || len(g.added) == 0 {
			continue
		}
		g.measure()
		best := g.bestHints(ia, ib)
		// An added symbol claimed by several removed ones goes to the one
		// with strictly better evidence, or to none.
		claims := map[int][]int{}
		for ri, h := range best {
			if h != nil {
				claims[h.target] = append(claims[h.target], ri)
			}
		}
		for _, rs := range claims {
			winner := rs[0]
			for _, ri := range rs[1:] {
				if better(best[ri], best[winner]) {
					winner = ri
				}
			}
			for _, ri := range rs {
				if ri != winner && !better(best[winner], best[ri]) {
					winner = -1 // tie: nobody gets the hint
					break
				}
			}
			for _, ri := range rs {
				if ri != winner {
					best[ri] = nil
				}
			}
		}
		for ri, h := range best {
			if h == nil {
				continue
			}
			r, x := g.removed[ri], g.added[h.target]
			setHint(&out[r.change], x.text, h.confidence, h.why())
			hinted[r.change] = true
			if isContainerKind(r.sym.Kind) {
				containerHints = append(containerHints, containerHint{from: r.path, to: x.path, conf: h.confidence})
			}
		}
	}
	if len(containerHints) == 0 {
		return out
	}
	byContainer := make(map[string]containerHint, len(containerHints))
	for _, h := range containerHints {
		byContainer[h.from.String()] = h
	}
	for i, c := range out {
		if c.Kind != model.ChangeRemoved || hinted[i] {
			continue
		}
		p, err := path.Parse(c.Path)
		if err != nil {
			continue
		}
		// The innermost renamed container decides, as it is the most
		// specific evidence.
		anc := p.Ancestors()
		for k := len(anc) - 1; k >= 0; k-- {
			h, ok := byContainer[anc[k].String()]
			if !ok {
				continue
			}
			q, ok := p.Rebase(h.from, h.to)
			if !ok {
				break
			}
			target := q.String()
			if _, inB := ib.byPath[target]; inB {
				if _, inA := ia.byPath[target]; !inA {
					setHint(&out[i], target, h.conf, "its container "+h.from.String()+" was renamed")
				}
			}
			break
		}
	}
	return out
}

func better(a, b *hint) bool {
	if a.confidence != b.confidence {
		return a.confidence > b.confidence
	}
	return a.score > b.score
}

type containerHint struct {
	from, to path.Path
	conf     float64
}

// group is the removed and added symbols of one parent and kind: the only
// ones that can be renames of each other.
type group struct{ removed, added []*candidate }

// measure gives each candidate its name's and signature's bigrams: only
// a group with both sides is compared (most of a release's added symbols
// have no removed one beside them).
func (g *group) measure() {
	for _, side := range [][]*candidate{g.removed, g.added} {
		for _, c := range side {
			c.name = newBigrams(c.path.Leaf().Name)
			if isLeafKind(c.sym.Kind) {
				c.sig = newBigrams(c.sym.Signature)
			}
		}
	}
}

// bestHints is, per removed candidate, the added one with strictly the best
// evidence, or nil.
func (g *group) bestHints(ia, ib *surfaceIndex) []*hint {
	best := make([]*hint, len(g.removed))
	var sigIndex, nameIndex *bigramIndex
	var identical map[string][]int
	for ri, r := range g.removed {
		var top, second *hint
		consider := func(h *hint) {
			switch {
			case top == nil || better(h, top):
				top, second = h, top
			case second == nil || better(h, second):
				second = h
			}
		}
		if isLeafKind(r.sym.Kind) {
			if r.sym.Signature == "" {
				continue
			}
			if sigIndex == nil {
				identical = map[string][]int{}
				sigs := make([]bigrams, len(g.added))
				for ai, x := range g.added {
					sigs[ai] = x.sig
					if x.sym.Signature != "" {
						identical[x.sym.Signature] = append(identical[x.sym.Signature], ai)
					}
				}
				sigIndex = newBigramIndex(sigs)
			}
			for _, ai := range identical[r.sym.Signature] {
				consider(&hint{target: ai, confidence: leafIdenticalConfidence, score: 1, identical: true})
			}
			sigIndex.each(r.sig, func(ai int, d float64) {
				if d >= leafDiceThreshold && g.added[ai].sym.Signature != r.sym.Signature && g.added[ai].sym.Signature != "" {
					consider(&hint{target: ai, confidence: leafSimilarConfidence, score: d, sigDice: d})
				}
			})
		} else {
			if nameIndex == nil {
				names := make([]bigrams, len(g.added))
				for ai, x := range g.added {
					names[ai] = x.name
				}
				nameIndex = newBigramIndex(names)
			}
			nameIndex.each(r.name, func(ai int, d float64) {
				if h := containerEvidence(r, g.added[ai], d, ia, ib); h != nil {
					h.target = ai
					consider(h)
				}
			})
		}
		if top != nil && (second == nil || better(top, second)) {
			best[ri] = top
		}
	}
	return best
}

// containerEvidence is the rename hint from container r to x given their
// names' similarity, or nil when there is not enough evidence.
func containerEvidence(r, x *candidate, name float64, ia, ib *surfaceIndex) *hint {
	if name < containerNameThreshold {
		return nil
	}
	if !r.membersSet {
		r.members, r.membersSet = ia.members(r.text), true
	}
	if !x.membersSet {
		x.members, x.membersSet = ib.members(x.text), true
	}
	if len(r.members) == 0 && len(x.members) == 0 {
		if name < emptyContainerName {
			return nil
		}
		return &hint{confidence: containerWeak, score: name, nameDice: name, emptyBodies: true}
	}
	j := jaccard(r.members, x.members)
	if j < containerJaccard {
		// The strict measure misses a rename that also moved the class onto
		// a base and respelled its signatures (stripe 14's
		// Stripe.InvoicesResource → 23's InvoiceResource extends
		// StripeResource: every method lost its Stripe. qualifiers and its
		// options-only overload, and the base's members joined). Compared
		// as the members each declares itself, with signatures read
		// without the package's own namespace qualifier and an overload
		// set matching its subset, the evidence can still be enough, for
		// the weak hint only.
		if own := ownJaccard(r, x, ia, ib); own >= containerJaccard {
			return &hint{confidence: containerWeak, score: name + own, nameDice: name, jaccard: own, own: true}
		}
		return nil
	}
	conf := containerWeak
	if name >= containerStrongName && j >= containerStrongJaccard {
		conf = containerStrong
	}
	return &hint{confidence: conf, score: name + j, nameDice: name, jaccard: j}
}

// ownJaccard is the Jaccard overlap of the members two containers declare
// themselves (in the container's own file: apparent members inherited from
// a base live in the base's), a member shared when its relative path is the
// same and its signatures match once the root namespace's qualifier
// ("Stripe.") is dropped, identical or one's overloads among the other's.
func ownJaccard(r, x *candidate, ia, ib *surfaceIndex) float64 {
	if !r.ownSet {
		r.own, r.ownSet = ia.ownMembers(r.text), true
	}
	if !x.ownSet {
		x.own, x.ownSet = ib.ownMembers(x.text), true
	}
	ra, rb := r.own, x.own
	if len(ra) == 0 || len(rb) == 0 {
		return 0
	}
	qa, qb := rootQualifier(r.path), rootQualifier(x.path)
	shared := 0
	for rel, sa := range ra {
		sb, ok := rb[rel]
		if ok && overloadsMatch(dropQualifiers(sa, qa), dropQualifiers(sb, qb)) {
			shared++
		}
	}
	return float64(shared) / float64(len(ra)+len(rb)-shared)
}

// rootQualifier is the namespace a nested container's path starts with
// ("Stripe" for Stripe.InvoicesResource), whose qualifier its signatures
// spell inconsistently across versions.
func rootQualifier(p path.Path) []string {
	if p.Len() < 2 || p.Segments[0].Kind != path.Name {
		return nil
	}
	return []string{p.Segments[0].Name}
}

// overloadsMatch: identical, or every overload of one is an overload of
// the other (an overload dropped or added, the rest kept).
func overloadsMatch(a, b string) bool {
	if a == b {
		return true
	}
	oa, errA := splitTop(a, ";")
	ob, errB := splitTop(b, ";")
	if errA != nil || errB != nil {
		return false
	}
	subset := func(x, y []string) bool {
		set := make(map[string]bool, len(y))
		for _, s := range y {
			set[strings.TrimSpace(s)] = true
		}
		for _, s := range x {
			if !set[strings.TrimSpace(s)] {
				return false
			}
		}
		return true
	}
	return subset(oa, ob) || subset(ob, oa)
}

func setHint(c *model.Change, target string, conf float64, why string) {
	if c.Replacement == "" {
		c.Replacement = target
	}
	note := fmt.Sprintf("possibly renamed to %s (%s; hint confidence %.1f)", target, why, conf)
	if c.Note != "" {
		note = c.Note + "; " + note
	}
	c.Note = note
}

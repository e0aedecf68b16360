package packs

import (
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// On is what kind of finding a key claims: a change kind the diff
// classified (Kind), a compiler error no change explains (Code), a root
// cause anchoring several errors (Cause), or a use the pack notes whatever
// the diff says (Use). Only these make one, so a rule cannot spell a change
// check never reports; the zero On claims nothing.
type On struct {
	// change is the finding's change spelling the constructor chose.
	change string
}

// Kind claims findings of a change kind.
func Kind(k model.ChangeKind) On { return On{string(k)} }

// Code claims the compiler errors TS<code> that no change explains.
func Code(code int) On { return On{"TS" + strconv.Itoa(code)} }

var (
	// Cause claims root-cause anchors (a tsconfig option, a repository
	// parameter or augmentation).
	Cause = On{model.ChangeCause}
	// Use claims the uses of a symbol (model.ChangeUse).
	Use = On{model.ChangeUse}
)

// String is the finding's change the key claims ("removed", "TS2554",
// "cause", "use").
func (o On) String() string { return o.change }

// Code is the compiler code the key claims, 0 for any other kind.
func (o On) Code() int { return model.CompilerCode(o.change) }

// Key is what claims a finding for a rule: a change kind and canonical
// path (Kind(model.ChangeRemoved), "React.ReactChild"), or a compiler code
// alone (Code(2554)). Path may end in "*" to match a prefix or start with
// "*" to match a suffix. Token, when set, is the identifier the site must
// be at ("useRef"; "a|b" for either): one code, or one removed type, has
// many causes.
type Key struct {
	On          On
	Path, Token string
}

func (k Key) claims(f model.Finding, content string) bool {
	if k.On.change == "" || k.On.change != f.Change || !pathMatches(k.Path, f.Path) {
		return false
	}
	return k.Token == "" || atAnyToken(Site{Finding: f, Content: content}, k.Token)
}

// pathMatches: an empty pattern matches any path, "X*" a prefix, "*X" a
// suffix.
func pathMatches(pattern, p string) bool {
	switch {
	case pattern == "" || pattern == p:
		return true
	case strings.HasSuffix(pattern, "*"):
		return strings.HasPrefix(p, strings.TrimSuffix(pattern, "*"))
	case strings.HasPrefix(pattern, "*"):
		return strings.HasSuffix(p, strings.TrimPrefix(pattern, "*"))
	}
	return false
}

// atAnyToken: the site is at one of the |-separated identifiers.
func atAnyToken(s Site, tokens string) bool {
	for _, t := range strings.Split(tokens, "|") {
		if _, ok := tokenAt(s, t); ok {
			return true
		}
	}
	return false
}

package review

import (
	"context"

	"github.com/uptide/uptide/fix/assist"
)

// NoProvider is the Source of sites nobody proposes patches for: the
// assisted fixer's queue without a provider, where every site is the
// user's, no call is made, and the screen says so.
func NoProvider(sites []assist.Site) Source {
	return FromQueue(assist.NewQueue(context.Background(), sites, nil))
}

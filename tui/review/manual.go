package review

import (
	"errors"

	"github.com/uptide/uptide/fix/assist"
)

// manual is the queue when no provider is configured: every site is the
// user's, no call is made, and the screen says so.
type manual struct {
	items   []Item
	changed chan struct{}
}

// NoProvider is the Source of sites nobody proposes patches for.
func NoProvider(sites []assist.Site) Source {
	m := &manual{changed: make(chan struct{})}
	for _, s := range sites {
		m.items = append(m.items, Item{Site: s, Status: Manual,
			Reason: "no provider is configured: this site is yours to edit after the hand-off"})
	}
	return m
}

func (m *manual) Items() []Item            { return append([]Item(nil), m.items...) }
func (m *manual) Provider() string         { return "" }
func (m *manual) Spent() float64           { return 0 }
func (m *manual) Budget() float64          { return 0 }
func (m *manual) Focus(string)             {}
func (m *manual) Accept(string)            {}
func (m *manual) Reject(string)            {}
func (m *manual) Skip(string)              {}
func (m *manual) Retry(string, string)     {}
func (m *manual) Replace(string, string)   {}
func (m *manual) AcceptRule(string) int    { return 0 }
func (m *manual) Changed() <-chan struct{} { return m.changed }
func (m *manual) Files(string) (string, string, error) {
	return "", "", errors.New("no proposal to edit")
}

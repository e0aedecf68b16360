package assist

import (
	"sort"
	"strings"
	"sync"
)

// Price is a model's list price in dollars per million tokens: what cost
// estimates use. They are estimates, not invoices.
type Price struct {
	Input, Output float64
}

// prices are the list prices of the models the fixer knows, by model id
// prefix (a dated id such as claude-sonnet-4-5-20250929 matches its
// family). A model not here costs 0 in the estimates, and says so.
var prices = map[string]Price{
	"claude-sonnet-4":  {3, 15},
	"claude-opus-4-5":  {5, 25},
	"claude-opus-4-6":  {5, 25},
	"claude-opus-4-1":  {15, 75},
	"claude-opus-4-0":  {15, 75},
	"claude-haiku-4":   {1, 5},
	"claude-3-5-haiku": {0.8, 4},
	"gpt-4o":           {2.5, 10},
	"gpt-4o-mini":      {0.15, 0.6},
	"gpt-4.1":          {2, 8},
	"gpt-4.1-mini":     {0.4, 1.6},
	"gpt-4.1-nano":     {0.1, 0.4},
}

// PriceOf is model's list price, by its longest known prefix; false when
// the model has none (a local model, or one this table does not know).
func PriceOf(model string) (Price, bool) {
	for _, k := range priceKeys() {
		if strings.HasPrefix(model, k) {
			return prices[k], true
		}
	}
	return Price{}, false
}

// Cost is the estimated dollars of a call that used in and out tokens.
func (p Price) Cost(in, out int) float64 {
	return (float64(in)*p.Input + float64(out)*p.Output) / 1e6
}

// reserveFor is the most req may cost at p: its prompt at a pessimistic
// three characters a token, and the longest reply it allows.
func reserveFor(p Price, req Request) float64 {
	in := (len(req.System)+len(req.User))/3 + 16
	return p.Cost(in, req.MaxTokens)
}

// priceKeys are the model prefixes of prices, the longest first (a model
// takes its most specific price), sorted once.
var priceKeys = sync.OnceValue(func() []string {
	keys := make([]string, 0, len(prices))
	for k := range prices {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	return keys
})
